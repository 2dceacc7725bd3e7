// A plain Job (not a hook) whose pod template gets a checksum: Job templates are immutable, so
// the apply fails as soon as the checksum changes.

import type { Config } from '../../model/config.js';
import { annotationField } from '../../model/edit.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { phaseOf } from '../order/phases.js';
import type { PodTemplateShape } from '../workloads/shapes.js';
import { isKind, type Lint } from './lint.js';

const syncOptionsKey = 'argocd.argoproj.io/sync-options';
/** kapp's answer to an immutable field: replace the object when the update is refused. */
const kappStrategyKey = 'kapp.k14s.io/update-strategy';
const kappReplaces = new Set(['fallback-on-replace', 'always-replace']);

/** Whether a deployer `ordering` names is told to replace the Job, so the apply cannot fail. */
function replaced(resource: Resource, { ordering }: Config): boolean {
  // Most Jobs carry no sync options: nothing split for them.
  const options = resource.annotations[syncOptionsKey]?.split(',').map((o) => o.trim());
  // Replace alone still fails on the immutable template; Force makes it delete and create.
  const argocd = options?.includes('Replace=true') === true && options.includes('Force=true');
  const kapp = kappReplaces.has(resource.annotations[kappStrategyKey]?.trim() ?? '');
  return (ordering.includes('argocd') && argocd) || (ordering.includes('kapp') && kapp);
}

/** The fix in the words of each deployer `ordering` names; a neutral one for the others. */
function fixes({ ordering }: Config): string {
  const fixes: string[] = [];
  if (ordering.includes('argocd')) {
    fixes.push(
      'make it a hook (argocd.argoproj.io/hook: Sync, argocd.argoproj.io/hook-delete-policy: ' +
        `BeforeHookCreation) or set ${syncOptionsKey}: Force=true,Replace=true`,
    );
  }
  if (ordering.includes('kapp')) fixes.push(`set ${kappStrategyKey}: fallback-on-replace`);
  if (ordering.length === 0 || ordering.includes('depends-on')) {
    // kpt live apply and Config Sync have no replace strategy: the Job must go first.
    fixes.push(
      'delete the Job before the apply that changes it, or opt it out with secret-rollout/ignore',
    );
  }
  const text = fixes.join('; or ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const jobChecksum: Lint = {
  id: 'job-checksum',
  severity: 'warning',
  summary: 'A plain Job whose pod template gets a checksum: Job templates are immutable',
  help: 'Have the deployer replace it (Argo CD: a hook with hook-delete-policy: BeforeHookCreation, or sync-options Force=true,Replace=true; kapp: update-strategy fallback-on-replace), or delete it before the apply: the apply fails when an immutable template changes. The message gives the fix for the deployers `ordering` names.',
  check({ checksummed, config }, { report }) {
    // The same for every Job of the run: written once.
    let fix: string | undefined;
    // The field, per template shape (all Jobs have the one of spec.template): one string for all.
    let shape: PodTemplateShape | undefined;
    let field = '';
    // forEach: a for…of over the map allocates an entry per workload.
    checksummed.forEach((templates, resource) => {
      if (!isKind(resource, 'batch', 'Job') || phaseOf(resource)?.hook) return;
      if (replaced(resource, config)) return;
      // Indexed, not destructured: an array pattern iterates (an iterator per Job).
      const first = templates[0];
      if (!first) return;
      if (first.shape !== shape) {
        shape = first.shape;
        field = annotationField(shape.metadata, config.checksumAnnotation);
      }
      fix ??= fixes(config);
      report(
        resource,
        `${describe(resource)} gets a checksum on its pod template, but a Job's template is ` +
          `immutable: the apply fails when the checksum changes. ${fix}`,
        field,
      );
    });
  },
};
