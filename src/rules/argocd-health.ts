// Delivers the generation-aware ExternalSecret health check (argocd/resource_customizations/…/health.lua) to
// Argo CD: into an argocd-cm ConfigMap found in the input (Argo CD managing itself), or as a patch
// printed by `secret-rollout argocd-health`. A different script already there is never replaced.
import script from '../../argocd/resource_customizations/external-secrets.io/ExternalSecret/health.lua?raw';
import type { MappingEdit } from '../model/edit.js';
import { fieldPath, getPath } from '../model/path.js';
import { type Resource, readAnnotations } from '../model/resource.js';
import { healthCheck, healthCheckKept } from '../model/result-rules.js';
import { describe, type Result, resourceResult } from '../model/results.js';
import { guarded } from './stage.js';

export const healthKey = 'resource.customizations.health.external-secrets.io_ExternalSecret';
/** argocd-cm overrides run without Lua's string library unless this is "true". */
export const openLibsKey = 'resource.customizations.useOpenLibs.external-secrets.io_ExternalSecret';
/** The older single-key form of customizations, whose content we do not edit. */
const legacyKey = 'resource.customizations';

export const healthScript: string = script;

const isArgocdCm = (r: Resource) =>
  r.apiVersion === 'v1' && r.kind === 'ConfigMap' && r.name === 'argocd-cm';

/** Stage 4: edits that install the check into every argocd-cm of the input. */
export function planArgocdHealth(resources: readonly Resource[]): {
  edits: MappingEdit[];
  results: Result[];
} {
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  for (const cm of resources.filter(isArgocdCm)) {
    guarded(results, cm, () => planHealthCheck(cm, edits, results));
  }
  return { edits, results };
}

/** Edits that install the check into one argocd-cm; a malformed `data` throws ItemError. */
function planHealthCheck(cm: Resource, edits: MappingEdit[], results: Result[]): void {
  const data = readAnnotations(getPath(cm.value, 'data'), 'data');
  const set = (key: string, value: string, message: string) => {
    edits.push({ item: cm.index, path: ['data'], key, value });
    results.push(resourceResult(healthCheck, cm, message, { path: fieldPath(['data'], key) }));
  };
  const keep = (key: string, message: string) => {
    const field = { path: fieldPath(['data'], key) };
    results.push(resourceResult(healthCheckKept, cm, `${describe(cm)} ${message}`, field));
  };
  const current = data[healthKey];
  if (current !== undefined && current !== healthScript) {
    keep(
      healthKey,
      `already has a different ${healthKey}: left unchanged; compare it with \`secret-rollout argocd-health\` or set argocdHealthCheck: false`,
    );
    return;
  }
  if (current === undefined && /external-secrets\.io\/ExternalSecret/.test(data[legacyKey] ?? '')) {
    keep(
      legacyKey,
      `customizes ExternalSecret in ${legacyKey}: left unchanged; move it to ${healthKey} or set argocdHealthCheck: false`,
    );
    return;
  }
  // New keys go in before the first entry, so the last edit ends up on top: the script.
  if (data[openLibsKey] !== 'true') {
    set(openLibsKey, 'true', 'the health check needs Lua string functions');
  }
  if (current === undefined) {
    set(healthKey, healthScript, 'generation-aware ExternalSecret health check');
  } else {
    const message = 'generation-aware ExternalSecret health check is installed';
    results.push(resourceResult(healthCheck, cm, message));
  }
}

/**
 * A ConfigMap that works as `kubectl patch --type merge --patch-file` or a kustomize patch; the
 * namespace is Argo CD's default, so a kustomize patch finds the argocd-cm of a standard install.
 */
export function healthCheckPatch(): string {
  const body = healthScript.replace(/\n$/, '').split('\n');
  const indented = body.map((l) => (l === '' ? '' : `    ${l}`)).join('\n');
  return `# kubectl -n argocd patch configmap argocd-cm --type merge --patch-file argocd-cm-patch.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: argocd-cm
  namespace: argocd
data:
  ${healthKey}: |
${indented}
  ${openLibsKey}: "true"
`;
}
