// Adversarial family: one ExternalSecret whose data entries fill half the input, then Deployments
// each reading one of its keys: each read narrowed the content by scanning every entry (found by
// s13-ces at 174e7cb: 4 MB 16.3 s; fixed: a key index per source, fields.ts).
export function generate(bytes) {
  const parts = [
    `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: es, namespace: a}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target: {name: s}
  data:
`,
  ];
  let size = 0;
  for (let i = 0; size < bytes / 2; i++) {
    const s = `  - {secretKey: k${i}, remoteRef: {key: x, version: "1"}}\n`;
    parts.push(s);
    size += s.length;
  }
  for (let i = 0; size < bytes; i++) {
    const s = `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d-${i}, namespace: a}
spec:
  template:
    spec:
      containers:
      - name: c
        image: i
        env:
        - {name: A, valueFrom: {secretKeyRef: {name: s, key: k${i}}}}
`;
    parts.push(s);
    size += s.length;
  }
  return parts.join('');
}
