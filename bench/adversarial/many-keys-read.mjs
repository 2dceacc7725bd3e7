// Adversarial family: Deployments (up to 2 MiB each: the reader takes items up to 3 MiB) whose env
// references each read another key of one Secret. The keys a pod template reads of a source are
// joined read by read into a new set, copying those before (src/rules/consumers.ts add,
// src/rules/stage.ts unionKeys): time grows with the square of the references in a template (at
// c44bdf0: 0.5 MB 0.59–1.1 s, 1 MB 2.7–6.6 s, 2 MB 29.5 s; profile at 2 MB: unionKeys 13.8 s self
// and the garbage collector 7.0 s of 21.2 s).

/** About `bytes` of a ResourceList: an ExternalSecret, then Deployments of ≤ 2 MiB. */
export function generate(bytes) {
  const out = [
    'apiVersion: config.kubernetes.io/v1',
    'kind: ResourceList',
    'items:',
    '- apiVersion: external-secrets.io/v1',
    '  kind: ExternalSecret',
    '  metadata:',
    '    name: s',
    '    namespace: a',
    '  spec:',
    '    secretStoreRef:',
    '      name: vault',
    '      kind: SecretStore',
    '    target:',
    '      name: s',
    '    dataFrom:',
    '    - extract:',
    '        key: x',
    '        version: "1"',
  ];
  // A reference is ≈115 bytes.
  const refs = Math.max(1, Math.round(bytes / 115));
  const perItem = Math.floor((2 << 20) / 115);
  for (let d = 0; d * perItem < refs; d++) {
    out.push(
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata:',
      `    name: api-${d}`,
      '    namespace: a',
      '  spec:',
      '    template:',
      '      spec:',
      '        containers:',
      '        - name: c',
      '          env:',
    );
    for (let i = d * perItem; i < Math.min(refs, (d + 1) * perItem); i++) {
      out.push(
        `          - name: E${i}`,
        '            valueFrom:',
        '              secretKeyRef:',
        '                name: s',
        `                key: key-${i}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
