// A hook that reads a source applied in a later phase: phase beats wave in Argo CD, so on first
// install the Secret does not exist yet when the hook runs (waves cannot fix that).

import { annotationField } from '../../model/edit.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { hookKey, type Phase, phaseOf } from '../order/phases.js';
import type { SecretSource } from '../sources/source.js';
import type { Lint } from './lint.js';

export const hookPhase: Lint = {
  id: 'hook-phase',
  severity: 'warning',
  summary: 'A hook reads a source applied in a later sync phase',
  help: 'Make the source (and its store, if it has one) a hook of the same phase, or run the consumer in a later phase: phase beats wave, so on first install the Secret does not exist yet.',
  check({ resources, consumersOf, config }, { report }) {
    // Waves order within a phase only where Argo CD reads them; else hooks simply run first.
    const waves = config.ordering.includes('argocd');
    const first = waves ? 'phase beats wave' : 'hooks run before the other resources';
    const then = waves ? ' (waves then order it after the source)' : '';
    // The hooks (and the items outside a sync), found in one pass over the items: every other
    // consumer runs in the Sync phase, too late only for a source in a later one. phaseOf (two
    // annotations read) was asked once per source a consumer reads (160k on fan-in at 10k items).
    const hookPhases = new Map<Resource, Phase | undefined>();
    for (let i = 0; i < resources.length; i++) {
      const resource = resources[i] as Resource;
      const phase = phaseOf(resource);
      if (phase?.hook !== false) hookPhases.set(resource, phase);
    }
    // forEach: a for…of over the map (or a set) allocates an entry per source (or consumer).
    consumersOf.forEach((consumers, source) => {
      const sourcePhase = phaseOf(source.resource);
      if (!sourcePhase) return;
      const afterSync = sourcePhase.order > 0;
      if (!afterSync && hookPhases.size === 0) return;
      // An index loop and no closure per source: the consumers of every source are read (200k on
      // fan-in at 10k items, where some consumers are hooks).
      for (let i = 0; i < consumers.length; i++) {
        const consumer = consumers[i] as Resource;
        const phase = hookPhases.has(consumer)
          ? hookPhases.get(consumer)
          : afterSync
            ? phaseOf(consumer)
            : undefined;
        if (!phase || phase.order >= sourcePhase.order) continue;
        report(
          consumer,
          `${describe(consumer)} runs in the ${phase.name} phase but reads ${source.produces} ` +
            `${source.secretName} from ${describe(source.resource)}, applied in the ` +
            `${sourcePhase.name} phase: ${first}, so on first install it does not exist ` +
            `yet. Run the consumer in the ${sourcePhase.name} phase${then}, ` +
            `or make ${hooks(source, phase.name)} too, with a delete policy that keeps the ` +
            'Secret (BeforeHookCreation deletes an Owner-created Secret)',
          annotationField(['metadata'], hookKey),
        );
      }
    });
  },
};

/**
 * What to make hooks of `phase`. Only ExternalSecrets (and ClusterExternalSecrets) have stores;
 * "the source and its store" would send the user looking for one on a DopplerSecret or a
 * SealedSecret.
 */
const hooks = (source: SecretSource, phase: string) =>
  source.stores.length > 0
    ? `the source and its store ${phase} hooks`
    : `the source a ${phase} hook`;
