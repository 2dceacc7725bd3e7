// Adversarial family: a functionConfig whose podTemplates option declares n paths for one kind
// (`example.com/Runner:spec.t<i>.template`), then Runner items with one pod template each. Every
// item of the kind is looked up at every declared path (src/rules/workloads/shapes.ts
// podTemplatesOf, a getPath per shape, called by findConsumers): time grows with items × paths
// (at c44bdf0: 1 MB 3.8 s, 2 MB 12.7 s, 4 MB 53.4 s, 13.9x).

/** About `bytes` of a ResourceList: half the size the option, half the items. */
export function generate(bytes) {
  const paths = [];
  for (let i = 0, size = 0; size < bytes / 2; i++) {
    const path = `example.com/Runner:spec.t${i}.template`;
    paths.push(path);
    size += path.length + 1;
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
    `    podTemplates: "${paths.join(',')}"`,
    'items:',
  ];
  for (let i = 0, size = bytes / 2; size < bytes; i++) {
    const item = [
      '- apiVersion: example.com/v1',
      '  kind: Runner',
      '  metadata:',
      `    name: r-${i}`,
      '    namespace: a',
      '  spec:',
      '    t0:',
      '      template:',
      '        spec:',
      '          containers:',
      '          - name: c',
      '            image: i',
    ].join('\n');
    out.push(item);
    size += item.length + 1;
  }
  return `${out.join('\n')}\n`;
}
