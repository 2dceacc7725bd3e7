// Adversarial family: Namespaces filling half the input, then one ClusterExternalSecret whose one
// selector lists values filling the other half (In, on the name label), matching none: each
// namespace was looked up in the list (found by s13-ces at 174e7cb: 4 MB 11.3 s; fixed: a Set).
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
    - key: kubernetes.io/metadata.name
      operator: In
      values:
`);
  for (let i = 0; size < bytes; i++) {
    const s = `      - x-${i}\n`;
    parts.push(s);
    size += s.length;
  }
  parts.push(`  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: s}
    data:
    - {secretKey: k, remoteRef: {key: x}}
`);
  return parts.join('');
}
