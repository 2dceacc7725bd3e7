// Adversarial family: one Deployment reading n Secrets that only another namespace makes, so the
// cross-namespace lint places n warnings in one PodSpec. Each result's field was found by walking
// the whole PodSpec again until session 12 (8,000 results: 65 s); a lint's places are now found in
// at most three walks of a PodSpec (src/rules/workloads/references.ts Places).

/** About `bytes` of a ResourceList: the Deployment's references, then the ExternalSecrets. */
export function generate(bytes) {
  // A reference and an ExternalSecret together are ≈400 bytes.
  const n = Math.max(1, Math.round(bytes / 400));
  const out = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items:'];
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
  for (let i = 0; i < n; i++) {
    out.push(
      `          - name: E${i}`,
      '            valueFrom:',
      '              secretKeyRef:',
      `                name: s-${i}`,
      '                key: k',
    );
  }
  for (let i = 0; i < n; i++) {
    out.push(
      '- apiVersion: external-secrets.io/v1',
      '  kind: ExternalSecret',
      '  metadata:',
      `    name: s-${i}`,
      '    namespace: b',
      '  spec:',
      '    secretStoreRef:',
      '      name: vault',
      '      kind: SecretStore',
      '    target:',
      `      name: s-${i}`,
      '    data:',
      '    - secretKey: k',
      '      remoteRef:',
      '        key: x',
      '        version: "1"',
    );
  }
  return `${out.join('\n')}\n`;
}
