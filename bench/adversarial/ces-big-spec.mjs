// Adversarial family: Namespaces filling half the input, then one ClusterExternalSecret selecting
// all of them whose spec's data entries fill the other half: its spec was read again for each
// selected namespace (found by s13-ces at 174e7cb: 4 MB 125 s; fixed: references read once per
// ClusterExternalSecret, its ExternalSecrets capped).
export function generate(bytes) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes / 2; i++) {
    const s = `---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n-${i}\n`;
    parts.push(s);
    size += s.length;
  }
  parts.push(`---
apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: ces
spec:
  namespaceSelectors:
  - matchExpressions:
    - {key: kubernetes.io/metadata.name, operator: Exists}
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: s}
    data:
`);
  for (let i = 0; size < bytes; i++) {
    const s = `    - {secretKey: k${i}, remoteRef: {key: x}}\n`;
    parts.push(s);
    size += s.length;
  }
  return parts.join('');
}
