// Adversarial family: n Namespace objects, then ClusterExternalSecrets whose selector matches
// every one of them. Each ClusterExternalSecret is one ExternalSecret per namespace it selects
// (src/rules/sources/cluster-external-secret.ts read: a source, its dependencies and notes per
// namespace), so the sources grow with ClusterExternalSecrets × Namespaces, unbounded (at
// c44bdf0: 64 KB 0.8 s, 128 KB 3.1 s, 256 KB 16.9 s and 878 MiB).
import { clusterExternalSecret, fill, namespace } from './_fill.mjs';

const selectingAll = (i) =>
  clusterExternalSecret(
    i,
    '  namespaceSelectors:\n  - matchExpressions:\n    - {key: kubernetes.io/metadata.name, operator: Exists}\n',
  );

/** Half the size Namespaces, half ClusterExternalSecrets. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, '', namespace), selectingAll);
}
