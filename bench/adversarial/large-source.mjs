// Adversarial family: one ExternalSecret whose spec expands, through YAML aliases, to hundreds of
// thousands of nodes, read by as many Deployments as the size allows. The anchored mapping (2000
// `find.tags`) is referenced from 99 `dataFrom` entries: 100 copies in all, the most the reader's
// alias limit (`maxAliasCount: 100`, src/krm/yaml/parse.ts) lets one anchor have. Its content is
// the same for every consumer, so a run should serialise and hash it once, not once per consumer.
const tags = 2000;
const copies = 99;

/** The large ExternalSecret alone (shared-large-source.mjs reads it too). */
export function source() {
  const big = Array.from({ length: tags }, (_, i) => `          t${i}: v${i}`).join('\n');
  const more = Array.from(
    { length: copies },
    (_, i) => `  - find: {name: {regexp: "^r${i}"}, tags: *big}`,
  );
  return `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: big
  namespace: shop
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  dataFrom:
  - find:
      name: {regexp: "^r"}
      tags: &big
${big}
${more.join('\n')}
`;
}

function deployment(i) {
  // Only what makes it a consumer, in block style (which the quick reader reads): the rest of a
  // Deployment costs the same with or without the large source.
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api-${i}
  namespace: shop
spec:
  template:
    spec:
      containers:
      - name: app
        envFrom:
        - secretRef:
            name: big
`;
}

export function generate(bytes) {
  const docs = [source()];
  let size = docs[0].length + 4;
  for (let i = 0; size < bytes; i++) {
    const doc = deployment(i);
    docs.push(doc);
    size += doc.length + 4;
  }
  return docs.join('---\n');
}
