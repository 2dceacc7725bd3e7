// Items of kinds no rule reads are copied through without a full parse: on real inputs a third or
// more of the items are Services, RBAC, CRDs and the like, and parsing them is most of the cost.
// Only built-in kinds known to carry no pod template are listed; anything else, including every
// custom resource (CRDs may have pod templates), is parsed. The kind is read from the item's own
// lines (peekScalar); an item whose kind cannot be read that way is parsed. Plain ConfigMaps and
// Secrets pass through too unless a rule reads their content; their names still count (lints).
// Passing through skips building the value, not the validity check: run.ts checks each such item
// (input.ts checkItem: the quick reader, else the conforming reader), because invalid YAML is an
// error wherever it is, and kpt and kustomize are not the only writers of our input (CI pipes).
import type { Config } from '../model/config.js';
import { type Bystander, groupOf } from '../model/resource.js';
import { peekScalar } from './yaml/locate-lines.js';

export const kindsNoRuleReads: ReadonlySet<string> = new Set([
  'v1/Service',
  'v1/ServiceAccount',
  'v1/Endpoints',
  'v1/PersistentVolume',
  'v1/PersistentVolumeClaim',
  'v1/LimitRange',
  'v1/ResourceQuota',
  'rbac.authorization.k8s.io/v1/Role',
  'rbac.authorization.k8s.io/v1/RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
  'networking.k8s.io/v1/Ingress',
  'networking.k8s.io/v1/IngressClass',
  'networking.k8s.io/v1/NetworkPolicy',
  'discovery.k8s.io/v1/EndpointSlice',
  'policy/v1/PodDisruptionBudget',
  'autoscaling/v1/HorizontalPodAutoscaler',
  'autoscaling/v2/HorizontalPodAutoscaler',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
  'apiregistration.k8s.io/v1/APIService',
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration',
  'scheduling.k8s.io/v1/PriorityClass',
  'storage.k8s.io/v1/StorageClass',
  'kpt.dev/v1/Kptfile',
]);

/**
 * The item's identity when no rule needs its content, so it needs no parse: kinds no rule reads,
 * and ConfigMaps and Secrets unless a rule reads them (argocd-cm; the opt-in content checksums).
 */
export function passesThrough(
  itemText: string,
  entry: boolean,
  config: Config,
): Bystander | undefined {
  const kind = peekScalar(itemText, entry, [], 'kind');
  const apiVersion = kind && peekScalar(itemText, entry, [], 'apiVersion');
  if (!kind || !apiVersion) return undefined;
  const id = `${apiVersion}/${kind}`;
  // Most items are parsed: their metadata is not looked for here.
  if (!kindsNoRuleReads.has(id) && id !== 'v1/ConfigMap' && id !== 'v1/Secret') return undefined;
  // The podTemplates option says this kind has a pod template, whatever the list above assumes.
  const group = groupOf(apiVersion);
  if (config.podTemplates.some((t) => t.kind === kind && t.group === group)) return undefined;
  const name = peekScalar(itemText, entry, ['metadata'], 'name');
  const namespace = peekScalar(itemText, entry, ['metadata'], 'namespace');
  const passes =
    kindsNoRuleReads.has(id) ||
    (id === 'v1/ConfigMap' &&
      config.configMapChecksumAnnotation === '' &&
      name !== undefined &&
      !(config.argocdHealthCheck && name === 'argocd-cm')) ||
    (id === 'v1/Secret' && config.secretChecksumAnnotation === '');
  return passes ? { apiVersion, kind, name, namespace: namespace || undefined } : undefined;
}
