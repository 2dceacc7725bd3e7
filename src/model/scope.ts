// Which kinds are cluster-scoped, and so the namespace an item lives in when it names none: a
// deployer (Argo CD's destination.namespace, Flux's targetNamespace, `kubectl -n`, kpt's inventory
// namespace) puts a namespace-less namespaced item into its namespace, never a cluster-scoped one.

/** The group of an apiVersion (`external-secrets.io/v1` → `external-secrets.io`, `v1` → ``). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * `groupOf(apiVersion) === group`, without the group's text cut out: the kind tables are
 * searched for every item in several stages (3 MB of slices a search on 10k items).
 */
export function inGroup(apiVersion: string, group: string): boolean {
  if (group === '') return !apiVersion.includes('/');
  return (
    apiVersion.length > group.length &&
    apiVersion.charCodeAt(group.length) === 47 /* / */ &&
    apiVersion.startsWith(group)
  );
}

/**
 * Cluster-scoped kinds by `group/Kind`. kustomize's namespace transformer decides the same way
 * (kubernetes-sigs/kustomize @12f9e63, api/filters/namespace/namespace.go metaNamespaceHack →
 * kyaml/resid/gvk.go → kyaml/openapi/openapi.go IsCertainlyClusterScoped): a kind is cluster-scoped
 * only when its table says so, and a kind it does not know is namespaced. Its table
 * (precomputedIsNamespaceScoped, the entries `false`) is keyed by apiVersion; a kind's scope does
 * not change between versions, so this one is keyed by group. Added: cluster-scoped kinds Kubernetes
 * gained after kyaml's built-in schema, and the cluster kinds of the operators the sources read.
 */
const clusterScopedKinds: ReadonlySet<string> = new Set([
  // kyaml's precomputedIsNamespaceScoped
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'networking.k8s.io/IngressClass',
  'node.k8s.io/RuntimeClass',
  'policy/PodSecurityPolicy',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
  '/ComponentStatus',
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  // Newer than kyaml's table (Kubernetes API reference: each "cluster-scoped")
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'certificates.k8s.io/ClusterTrustBundle',
  'networking.k8s.io/IPAddress',
  'networking.k8s.io/ServiceCIDR',
  'resource.k8s.io/DeviceClass',
  'storage.k8s.io/VolumeAttributesClass',
  // External Secrets Operator (docs/operators.md)
  'external-secrets.io/ClusterSecretStore',
  'external-secrets.io/ClusterExternalSecret',
  'external-secrets.io/ClusterPushSecret',
  'generators.external-secrets.io/ClusterGenerator',
]);

export function isClusterScoped(apiVersion: string, kind: string): boolean {
  // Most items are of a namespaced kind: asked first, with no key text made.
  return clusterScopedNames.has(kind) && clusterScopedKinds.has(`${groupOf(apiVersion)}/${kind}`);
}
const clusterScopedNames: ReadonlySet<string> = new Set(
  [...clusterScopedKinds].map((key) => key.slice(key.indexOf('/') + 1)),
);

/**
 * The namespace an item lives in: for a namespaced kind its own, else `defaultNamespace` (the
 * option of that name: the namespace the deployer applies it in), else none; for a cluster-scoped
 * kind none, whatever it says: Kubernetes keeps no namespace for it, and kustomize's `namespace:`
 * writes one on every kind it does not know as cluster-scoped (a ClusterSecretStore too), which
 * made `shop/vault` and `vault` two stores here. Every match, wave, plan and report reads this,
 * through Resource.namespace and Bystander.namespace; the item's metadata is never written.
 */
export function effectiveNamespace(
  apiVersion: string,
  kind: string,
  written: string | undefined,
  defaultNamespace: string | undefined,
): string | undefined {
  if (written === undefined && defaultNamespace === undefined) return undefined;
  return isClusterScoped(apiVersion, kind) ? undefined : (written ?? defaultNamespace);
}
