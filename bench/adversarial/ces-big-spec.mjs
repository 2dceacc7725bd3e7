// Adversarial family: Namespaces filling half the input, then one ClusterExternalSecret selecting
// all of them whose spec's data entries fill the other half: its spec was read again for each
// selected namespace (found by s13-ces at 174e7cb: 4 MB 125 s; fixed: references read once per
// ClusterExternalSecret, its ExternalSecrets capped).
import { clusterExternalSecret, fill, namespace } from './_fill.mjs';

const everyNamespace =
  '  namespaceSelectors:\n  - matchExpressions:\n    - {key: kubernetes.io/metadata.name, operator: Exists}\n';

export function generate(bytes) {
  const head = fill(bytes / 2, '', namespace) + clusterExternalSecret(0, everyNamespace);
  return fill(bytes, head, (i) => `    - {secretKey: k${i}, remoteRef: {key: x}}\n`);
}
