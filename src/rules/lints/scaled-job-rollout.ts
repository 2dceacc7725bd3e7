// A KEDA ScaledJob whose pod template gets a checksum: unless its rollout strategy is gradual,
// KEDA deletes every running Job of the ScaledJob whenever its spec changes, and a checksum change
// is a spec change (kedacore/keda controllers/keda/scaledjob_controller.go, docs/operators.md §7).
import { annotationField } from '../../model/edit.js';
import { getPath } from '../../model/path.js';
import { describe } from '../../model/results.js';
import { isKind, type Lint } from './lint.js';

export const scaledJobRollout: Lint = {
  id: 'scaled-job-rollout',
  severity: 'info',
  summary: 'A KEDA ScaledJob whose running Jobs a checksum change deletes',
  help: 'Set spec.rollout.strategy: gradual, so running Jobs finish on the old spec.',
  reads: [
    {
      group: 'keda.sh',
      kind: 'ScaledJob',
      fields: ['spec.rollout.strategy', 'spec.rolloutStrategy'],
    },
  ],
  check({ checksummed }, { report }) {
    // forEach: a for…of over the map allocates an entry per workload.
    checksummed.forEach((templates, resource) => {
      const first = templates[0];
      if (!first || !isKind(resource, 'keda.sh', 'ScaledJob')) return;
      // The deprecated spec.rolloutStrategy wins when it is set, as in KEDA's controller.
      const legacy = getPath(resource.value, 'spec.rolloutStrategy');
      const decidedByLegacy = typeof legacy === 'string' && legacy !== '';
      const strategy = decidedByLegacy ? legacy : getPath(resource.value, 'spec.rollout.strategy');
      if (strategy === 'gradual') return;
      // Name the field that decides: with the deprecated one set, spec.rollout.strategy is ignored.
      const field = decidedByLegacy
        ? 'spec.rolloutStrategy (deprecated; it wins over spec.rollout.strategy)'
        : 'spec.rollout.strategy';
      const fix = decidedByLegacy
        ? 'Remove spec.rolloutStrategy and set spec.rollout.strategy: gradual'
        : 'Set spec.rollout.strategy: gradual';
      report(
        resource,
        `${describe(resource)} gets a checksum on its pod template, and KEDA deletes the running ` +
          `Jobs of a ScaledJob on any change of its spec unless ${field} is gradual: a checksum ` +
          `change kills Jobs mid-run. ${fix} to let them finish`,
        annotationField(first.shape.metadata, first.annotation),
      );
    });
  },
};
