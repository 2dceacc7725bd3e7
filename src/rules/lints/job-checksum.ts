// A plain Job (not a hook) whose pod template gets a checksum: Job templates are immutable, so
// the apply fails as soon as the checksum changes.

import { annotationField } from '../../model/edit.js';
import { describe } from '../../model/results.js';
import { phaseOf } from '../order/phases.js';
import { isKind, type Lint } from './lint.js';

const syncOptionsKey = 'argocd.argoproj.io/sync-options';

export const jobChecksum: Lint = {
  id: 'job-checksum',
  severity: 'warning',
  summary: 'A plain Job whose pod template gets a checksum: Job templates are immutable',
  help: 'Make it a hook with hook-delete-policy: BeforeHookCreation, or set argocd.argoproj.io/sync-options: Force=true,Replace=true: the apply fails when an immutable template changes.',
  check({ checksummed, config }, { report }) {
    for (const [resource, templates] of checksummed) {
      if (!isKind(resource, 'batch', 'Job') || phaseOf(resource)?.hook) continue;
      const options = (resource.annotations[syncOptionsKey] ?? '').split(',').map((o) => o.trim());
      // Replace alone still fails on the immutable template; Force makes it delete and create.
      if (options.includes('Replace=true') && options.includes('Force=true')) continue;
      const [first] = templates;
      if (!first) continue;
      const field = annotationField(first.shape.metadata, config.checksumAnnotation);
      report(
        resource,
        `${describe(resource)} gets a checksum on its pod template, but a Job's template is ` +
          'immutable: the apply fails when the checksum changes. Make it a hook ' +
          '(argocd.argoproj.io/hook: Sync, argocd.argoproj.io/hook-delete-policy: ' +
          `BeforeHookCreation) or set ${syncOptionsKey}: Force=true,Replace=true`,
        field,
      );
    }
  },
};
