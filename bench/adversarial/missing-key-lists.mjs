// Adversarial family: one ExternalSecret making Secret `s` with n keys, and one Deployment whose
// n references each read a key of `s` it does not make. The missing-key lint writes one warning
// per reference, and each lists every key the Secret has, sorted again for each warning
// (src/rules/lints/missing-key.ts listKeys): output, time and memory grow with references × keys
// (at c44bdf0: 1 MB wrote 275 MB of results in 4.5 s, 2 MB 1.1 GB in 45 s and 2.9 GB of memory).

/** About `bytes` of a ResourceList: the ExternalSecret's keys, then the Deployment's references. */
export function generate(bytes) {
  // A key is ≈90 bytes, a reference ≈110: half the size each.
  const keys = Math.max(1, Math.round(bytes / 2 / 90));
  const refs = Math.max(1, Math.round(bytes / 2 / 110));
  const out = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items:'];
  out.push(
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
    '    data:',
  );
  for (let i = 0; i < keys; i++) {
    out.push(
      `    - secretKey: key-${i}`,
      '      remoteRef:',
      '        key: x',
      '        version: "1"',
    );
  }
  out.push(
    '- apiVersion: apps/v1',
    '  kind: Deployment',
    '  metadata:',
    '    name: api',
    '    namespace: a',
    '  spec:',
    '    template:',
    '      spec:',
    '        containers:',
    '        - name: c',
    '          env:',
  );
  for (let i = 0; i < refs; i++) {
    out.push(
      `          - name: E${i}`,
      '            valueFrom:',
      '              secretKeyRef:',
      '                name: s',
      `                key: miss-${i}`,
    );
  }
  return `${out.join('\n')}\n`;
}
