// Adversarial family: a functionConfig whose secretReferences option declares a reader field for
// each of n kinds none of the items has (`example.com/Kind<i>:spec.secretName`), then Deployments.
// Whether an item can name a Secret is asked of every item by a scan of the whole option
// (src/rules/workloads/operator-references.ts mayNameSecrets, `option.some`, called by
// findReaders): time grows with items × entries (at c44bdf0: 1 MB 0.84 s, 4 MB 6.99 s; profile at
// 4 MB: mayNameSecrets and its callback 6.8 s of 8.0 s).

/** About `bytes` of a ResourceList: half the size the option, half the items. */
export function generate(bytes) {
  const fields = [];
  for (let i = 0, size = 0; size < bytes / 2; i++) {
    const field = `example.com/Kind${i}:spec.secretName`;
    fields.push(field);
    size += field.length + 1;
  }
  const out = [
    'apiVersion: config.kubernetes.io/v1',
    'kind: ResourceList',
    'functionConfig:',
    '  apiVersion: v1',
    '  kind: ConfigMap',
    '  metadata:',
    '    name: conf',
    '  data:',
    `    secretReferences: "${fields.join(',')}"`,
    'items:',
  ];
  for (let i = 0, size = bytes / 2; size < bytes; i++) {
    const item = [
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata:',
      `    name: d-${i}`,
      '    namespace: a',
      '  spec:',
      '    template:',
      '      spec:',
      '        containers:',
      '        - name: c',
      '          image: i',
    ].join('\n');
    out.push(item);
    size += item.length + 1;
  }
  return `${out.join('\n')}\n`;
}
