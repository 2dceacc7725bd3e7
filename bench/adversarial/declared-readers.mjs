// Adversarial family: a functionConfig whose secretReferences option declares n reader fields for
// one kind (`example.com/Runner:spec.c<i>.name`), then Runner items that name a Secret in the
// first. Every item of the kind is walked once per declared field (src/rules/workloads/
// operator-references.ts secretsNamedBy, a walk per row, called by findReaders): time grows with
// items × fields (at c44bdf0: 128 KB 1.0 s, 256 KB 3.3 s, 512 KB 12.7–32 s, 1 MB over 120 s).

/** About `bytes` of a ResourceList: half the size the option, half the items. */
export function generate(bytes) {
  const fields = [];
  for (let i = 0, size = 0; size < bytes / 2; i++) {
    const field = `example.com/Runner:spec.c${i}.name`;
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
      '- apiVersion: example.com/v1',
      '  kind: Runner',
      '  metadata:',
      `    name: r-${i}`,
      '    namespace: a',
      '  spec:',
      '    c0:',
      '      name: s',
    ].join('\n');
    out.push(item);
    size += item.length + 1;
  }
  return `${out.join('\n')}\n`;
}
