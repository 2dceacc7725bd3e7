// Adversarial family: n Namespace objects, then ClusterExternalSecrets that each name one
// namespace (`spec.namespaces`, no selector). Each ClusterExternalSecret scans every item of the
// input for Namespace objects and builds the labels of each one (src/rules/sources/
// cluster-external-secret.ts selectNamespaces, namespaceLabels), selector or not: time grows with
// ClusterExternalSecrets × Namespaces (at c44bdf0: 1 MB 2.7–3.3 s, 2 MB 10 s, 4 MB 33–38 s).
import { clusterExternalSecret, fill, namespace } from './_fill.mjs';

const named = (i) => clusterExternalSecret(i, '  namespaces:\n  - n-0\n');

/** Half the size Namespaces, half ClusterExternalSecrets. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, '', namespace), named);
}
