// Adversarial family: Reloader `reload` lists with patterns that backtrack exponentially in a
// backtracking engine (`(a+)+x` on a name of a's), read by workloads whose pods read Secrets with
// long names (253 characters, the most Kubernetes allows), from ExternalSecrets so that the
// double-restart lint runs. Every list is distinct (nothing is answered from a cache), and one
// workload in 16 carries a long list of distinct regular expressions (compile cost), and one in
// four ends its list with an entry that matches (the warning is written too).
const secrets = 8;
const name = (i) => `${'a'.repeat(250)}${String(i).padStart(3, '0')}`.slice(-253);
const longName = (i) => `${'a'.repeat(253 - 4)}${i % 10}a`.slice(0, 253);

function externalSecret(i) {
  return `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: es-${i}
  namespace: shop
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target:
    name: ${i % 2 ? name(i) : longName(i)}
  data:
  - secretKey: password
    remoteRef: {key: db/${i}, property: password, version: "1"}
`;
}

function deployment(i) {
  const pathological = ['(a+)+x', '(a|aa)+b', '(?i)(A+)+Z', '(a*)*c', `(a|a?)+${i}`];
  const distinct = i % 16 === 0 ? Array.from({ length: 400 }, (_, j) => `a*${i}x${j}`) : [];
  // Last, an entry that matches both kinds of name: some lists follow the Secrets and warn.
  const matching = i % 4 === 0 ? ['(a+)+[0-9]+a?'] : [];
  const list = [...pathological, `w${i}`, ...distinct, ...matching].join(', ');
  const refs = [i % secrets, (i + 3) % secrets]
    .map((s) => `        - secretRef: {name: ${s % 2 ? name(s) : longName(s)}}`)
    .join('\n');
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api-${i}
  namespace: shop
  annotations:
    secret.reloader.stakater.com/reload: "${list}"
spec:
  selector: {matchLabels: {app: api-${i}}}
  template:
    metadata:
      labels: {app: api-${i}}
      annotations:
        configmap.reloader.stakater.com/reload: "(b+)+y, t${i}"
    spec:
      containers:
      - name: app
        image: app:1
        envFrom:
${refs}
`;
}

export function generate(bytes) {
  const docs = Array.from({ length: secrets }, (_, i) => externalSecret(i));
  let size = docs.reduce((n, d) => n + d.length + 4, 0);
  for (let i = 0; size < bytes; i++) {
    const doc = deployment(i);
    docs.push(doc);
    size += doc.length + 4;
  }
  return docs.join('---\n');
}
