// A Job or CronJob with the Vault Agent injector's sidecar: the sidecar keeps running, so the Job
// never completes (vault-k8s #120). `agent-pre-populate-only: "true"` injects only the init
// container; with fixVaultAgentJobs the function sets it.
import { annotationEdit, annotationField } from '../../model/edit.js';
import { isObject } from '../../model/json.js';
import { getPath } from '../../model/path.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { type PodTemplateShape, podTemplateShapes } from '../workloads/shapes.js';
import { goBool, isKind, type Lint } from './lint.js';

const inject = 'vault.hashicorp.com/agent-inject';
const prePopulateOnly = 'vault.hashicorp.com/agent-pre-populate-only';
/** Go's strconv.ParseBool, which the injector uses. */
const isTrue = (value: unknown) => goBool(String(value));

export const vaultAgentJob: Lint = {
  id: 'vault-agent-job',
  severity: 'warning',
  summary: 'A Job or CronJob with the Vault Agent sidecar never completes',
  help: 'Set vault.hashicorp.com/agent-pre-populate-only: "true" on its pod template, or fixVaultAgentJobs: true to let secret-rollout set it.',
  check({ resources, config }, { report, note, edits }) {
    // Index loops: with inlining off (large inputs), for-of allocated an iterator result per
    // item and, for each Job and CronJob, per shape.
    for (let i = 0; i < resources.length; i++) {
      const resource = resources[i] as Resource;
      if (!isKind(resource, 'batch', 'Job') && !isKind(resource, 'batch', 'CronJob')) continue;
      for (let s = 0; s < podTemplateShapes.length; s++) {
        const shape = podTemplateShapes[s] as PodTemplateShape;
        const annotations = getPath(resource.value, shape.annotations);
        if (!isObject(annotations) || !isTrue(annotations[inject])) continue;
        const field = annotationField(shape.metadata, prePopulateOnly);
        const fixed = isTrue(annotations[prePopulateOnly]);
        if (config.fixVaultAgentJobs) {
          if (!fixed)
            edits.push(annotationEdit(resource.index, shape.metadata, prePopulateOnly, 'true'));
          // The same note before and after the fix: results describe the state, not the change.
          note(
            resource,
            `fixVaultAgentJobs: ${prePopulateOnly} is "true", so the Job can complete`,
            field,
          );
          continue;
        }
        if (fixed) continue;
        report(
          resource,
          `${describe(resource)} injects the Vault Agent sidecar, which keeps running, so the Job ` +
            `never completes: set ${prePopulateOnly}: "true" on its pod template (or ` +
            'fixVaultAgentJobs: true to let secret-rollout set it)',
          field,
        );
      }
    }
  },
};
