// Adversarial family: Namespaces filling half the input, then one ClusterExternalSecret whose one
// selector lists values filling the other half (In, on the name label), matching none: each
// namespace was looked up in the list (found by s13-ces at 174e7cb: 4 MB 11.3 s; fixed: a Set).
import { clusterExternalSecret, fill, namespace } from './_fill.mjs';

const byName =
  '  namespaceSelectors:\n  - matchExpressions:\n    - key: kubernetes.io/metadata.name\n      operator: In\n      values:\n';

export function generate(bytes) {
  const values = fill(bytes / 2, byName, (i) => `      - x-${i}\n`);
  return fill(bytes / 2, '', namespace) + clusterExternalSecret(0, values);
}
