// Adversarial family: one Password generator whose spec is half the input, read by ExternalSecrets
// filling the other half: each normalised and hashed the spec (found by s13-ces at 174e7cb: 1 MB
// 18.1 s; fixed: the dependencies' hash once per list of dependencies and keys).
export function generate(bytes) {
  const parts = [
    '---\napiVersion: generators.external-secrets.io/v1alpha1\nkind: Password\nmetadata:\n  name: big\n  namespace: a\nspec:\n  length: 32\n  extra:\n',
  ];
  let size = 0,
    k = 0;
  while (size < bytes / 2) {
    const l = `  - k${k++}\n`;
    parts.push(l);
    size += l.length;
  }
  for (let i = 0; size < bytes; i++) {
    const es = `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: es-${i}
  namespace: a
spec:
  refreshPolicy: OnChange
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target:
    name: s-${i}
  dataFrom:
  - sourceRef:
      generatorRef:
        apiVersion: generators.external-secrets.io/v1alpha1
        kind: Password
        name: big
`;
    parts.push(es);
    size += es.length;
  }
  return parts.join('');
}
