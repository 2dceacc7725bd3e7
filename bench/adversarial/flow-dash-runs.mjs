// Runs of `- ` in a flow mapping: JSON-layout ExternalSecrets, each with a duplicated line and a
// plain key whose value is `- - - … x` (invalid YAML: a block sequence in a flow collection), one
// document per MiB. The quick reader declines the layout, so each document goes to the conforming
// reader, whose parser keeps a token per `-` and per space: one document of 3 MiB took 8.4 s and
// 880 MiB to fail, before src/krm/yaml/parse.ts stopped it at maxTokens. Found by the fuzzer's
// cost oracle (test/fuzz/findings/54a9d0f9a29bc557, 98 KB: 34.7× its parent's time per KB).
const head = (i) =>
  `---\n{\n "apiVersion": "external-secrets.io/v1",\n "kind": "ExternalSecret",\n "metadata": {\n  "name": "db${i}",\n  "namespace": "shop"\n },\n "spec": {\n  "secretStoreRef": {\n   "name": "vault",\n   "kind": "ClusterSecretStore"\n  },\n  "data": [\n   {\n    "secretKey": "p",\n    "remoteRef": {\n     "key": "shop/db",\n     "key": "shop/db",\n     deep: `;
const tail = 'x\n     "version": "2"\n    }\n   }\n  ]\n }\n}\n';
const perDocument = 1 << 20;

export function generate(bytes) {
  const parts = [];
  for (let i = 0, left = bytes; i === 0 || left > 0; i++) {
    const size = Math.min(perDocument, left);
    const dashes = Math.max(1, Math.floor((size - head(i).length - tail.length) / 2));
    const part = `${head(i)}${'- '.repeat(dashes)}${tail}`;
    parts.push(part);
    left -= part.length;
  }
  return parts.join('');
}
