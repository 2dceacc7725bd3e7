// A hook that reads a source applied in a later phase: phase beats wave in Argo CD, so on first
// install the Secret does not exist yet when the hook runs (waves cannot fix that).
import { describe } from '../results.js';
import { type Lint, phaseOf } from './lint.js';

export const hookPhase: Lint = {
  option: 'hookPhaseSeverity',
  check({ consumersOf }, report) {
    for (const [source, consumers] of consumersOf) {
      const sourcePhase = phaseOf(source.resource);
      if (!sourcePhase) continue;
      for (const consumer of consumers) {
        const phase = phaseOf(consumer);
        if (!phase || phase.order >= sourcePhase.order) continue;
        report(
          consumer,
          `${describe(consumer)} runs in the ${phase.name} phase but reads ${source.produces} ` +
            `${source.secretName} from ${describe(source.resource)}, applied in the ` +
            `${sourcePhase.name} phase: phase beats wave, so on first install it does not exist ` +
            `yet. Make ${describe(source.resource)} a ${phase.name} hook too ` +
            `(argocd.argoproj.io/hook: ${phase.name}, argocd.argoproj.io/hook-delete-policy: ` +
            'BeforeHookCreation), or run the consumer in a later phase',
          'metadata.annotations[argocd.argoproj.io/hook]',
        );
      }
    }
  },
};
