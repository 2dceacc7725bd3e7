// Adversarial family: a YAML ResourceList whose `items:` is one flow sequence of JSON objects on a
// single line (ExternalSecrets and Deployments). The envelope refuses it (`ResourceList items must
// be a block sequence`), but only after the quick reader has read the line, looking for its end
// again from each quoted scalar (src/krm/yaml/quick-parse.ts flowKey and flowNode: a search for the
// line break per quoted key or value; reached from readYamlList): time grows with the square of the
// line, and no item bound applies (at c44bdf0: 1 MB 1.1–2.0 s, 2 MB 4.8 s, 4 MB 19–25 s; profile at
// 2 MB: flowKey 2.6 s and flowNode 1.5 s self of 4.7 s).

/** About `bytes`: the envelope's keys, then every item on the `items:` line. */
export function generate(bytes) {
  const items = [];
  for (let i = 0, size = 80; size < bytes; i++) {
    const source = JSON.stringify({
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: `s-${i}`, namespace: 'a' },
      spec: {
        secretStoreRef: { name: 'v', kind: 'ClusterSecretStore' },
        target: { name: `s-${i}` },
        data: [{ secretKey: 'k', remoteRef: { key: 'x', version: '1' } }],
      },
    });
    const reader = JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `d-${i}`, namespace: 'a' },
      spec: {
        template: {
          spec: { containers: [{ name: 'c', envFrom: [{ secretRef: { name: `s-${i}` } }] }] },
        },
      },
    });
    items.push(source, reader);
    size += source.length + reader.length + 4;
  }
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [${items.join(', ')}]\n`;
}
