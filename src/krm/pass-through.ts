// Items of kinds no rule reads are copied through without a full parse: on real inputs a third or
// more of the items are Services, RBAC, CRDs and the like, and parsing them is most of the cost.
// Only built-in kinds known to carry no pod template are listed; anything else, including every
// custom resource (CRDs may have pod templates), is parsed. The kind is first looked for on the
// item's own lines (peekScalar), which is cheap; an item whose kind cannot be read that way is
// parsed. Plain ConfigMaps and Secrets pass through too unless a rule reads their content; their
// names still count (lints, and ESO templateFrom reads them by name). The identity itself is read
// by the quick reader, building nothing else: the values a parse would give, whatever the YAML
// style (flow metadata, quoted, escaped or folded names); where it declines, the item is parsed.
// Passing through skips building the value, not the validity check: run.ts checks each such item
// (input.ts checkItem: the quick reader, else the conforming reader), because invalid YAML is an
// error wherever it is, and kpt and kustomize are not the only writers of our input (CI pipes).
import type { Config } from '../model/config.js';
import { isObject } from '../model/json.js';
import { type Bystander, groupOf, type Projection } from '../model/resource.js';
import { quickRead } from './read.js';
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
  const identity = identityOf(itemText, entry);
  if (identity?.apiVersion !== apiVersion || identity.kind !== kind) return undefined;
  const { name } = identity;
  const passes =
    kindsNoRuleReads.has(id) ||
    (id === 'v1/ConfigMap' &&
      config.configMapChecksumAnnotation === '' &&
      name !== undefined &&
      !(config.argocdHealthCheck && name === 'argocd-cm')) ||
    (id === 'v1/Secret' && config.secretChecksumAnnotation === '');
  return passes ? identity : undefined;
}

const identityProjection: Projection = new Map<string, Projection>([
  ['apiVersion', true],
  ['kind', true],
  [
    'metadata',
    new Map<string, Projection>([
      ['name', true],
      ['namespace', true],
    ]),
  ],
]);

/**
 * apiVersion, kind, name and namespace as toResource would read them from the parsed item, or
 * undefined where the quick reader declines the item or toResource would refuse them (the parse
 * then reports it).
 */
function identityOf(itemText: string, entry: boolean): Bystander | undefined {
  const span = { start: 0, end: itemText.length, entry };
  const value = quickRead(itemText, span, undefined, false, identityProjection);
  if (!isObject(value)) return undefined;
  const { apiVersion, kind } = value;
  const metadata = value.metadata ?? {};
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !isObject(metadata)) {
    return undefined;
  }
  const name = metadata.name ?? undefined;
  const namespace = metadata.namespace ?? undefined;
  if (name !== undefined && typeof name !== 'string') return undefined;
  if (namespace !== undefined && typeof namespace !== 'string') return undefined;
  return { apiVersion: apiVersion.trim(), kind, name, namespace: namespace || undefined };
}
