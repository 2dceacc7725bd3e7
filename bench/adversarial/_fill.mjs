// Helpers of the adversarial families (bench/adversarial/<family>.mjs). Files whose name starts
// with `_` are not families: bench/adversarial.mjs skips them.

/**
 * `head`, then `unit(0)`, `unit(1)`, … while the text is under `bytes` (at least one unit), then
 * `tail`. Units are ASCII, so characters are bytes.
 */
export function fill(bytes, head, unit, tail = '') {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; i === 0 || size < bytes; i++) {
    const part = unit(i);
    parts.push(part);
    size += part.length;
  }
  parts.push(tail);
  return parts.join('');
}

/** A small ConfigMap as one YAML document (with its `---`), named after `i`. */
export const configMap = (i, data = `  k: v${i}\n`) =>
  `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n  namespace: shop\ndata:\n${data}`;

/** A ResourceList of ConfigMaps, each with the comment line `# ${comment}` among its keys. */
export function commentedConfigMaps(bytes, comment) {
  return fill(
    bytes,
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n',
    (i) =>
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n  # ${comment}\n  data:\n    k: v\n`,
  );
}

/**
 * An ExternalSecret (`es-${i}` unless `source` names it) making Secret `made`, and a Job
 * (`job-${i}` unless `job`) reading Secret `read` (missing unless equal), in `namespace` (shop):
 * the near-name lint's families, and same-name-items.
 */
export const madeAndRead = (
  i,
  made,
  read,
  { namespace = 'shop', source = `es-${i}`, job = `job-${i}` } = {},
) => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${source}
  namespace: ${namespace}
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: ${made}
  dataFrom:
  - extract:
      key: app/${i}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: ${job}
  namespace: ${namespace}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: job
        image: job:1
        env:
        - name: TOKEN
          valueFrom:
            secretKeyRef:
              name: ${read}
              key: token
`;

/** A Namespace object, named `n-${i}`: the ClusterExternalSecret families. */
export const namespace = (i) => `---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n-${i}\n`;

/**
 * A ClusterExternalSecret making Secret `s-${i}` in the namespaces `select` picks (YAML lines
 * under `spec:`, such as `  namespaces:\n  - n-0\n`): the ClusterExternalSecret families.
 */
export const clusterExternalSecret = (i, select) => `---
apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: ces-${i}
spec:
${select}  externalSecretSpec:
    secretStoreRef:
      name: vault
      kind: ClusterSecretStore
    target:
      name: s-${i}
    data:
    - secretKey: k
      remoteRef:
        key: x
        version: "1"
`;

/**
 * About `bytes` of a ResourceList whose functionConfig sets `ordering`: one Deployment reading n
 * Secrets through `envFrom`, each made by an ExternalSecret of its own, so the Deployment waits
 * for n sources (the ordering families).
 */
export function oneReaderOfMany(bytes, ordering) {
  // A reference and an ExternalSecret together are ≈330 bytes.
  const n = Math.max(1, Math.round(bytes / 330));
  const out = [
    'apiVersion: config.kubernetes.io/v1',
    'kind: ResourceList',
    'functionConfig:',
    '  apiVersion: v1',
    '  kind: ConfigMap',
    '  metadata:',
    '    name: conf',
    '  data:',
    `    ordering: ${ordering}`,
    'items:',
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
    '          envFrom:',
  ];
  for (let i = 0; i < n; i++) out.push('          - secretRef:', `              name: s-${i}`);
  for (let i = 0; i < n; i++) {
    out.push(
      '- apiVersion: external-secrets.io/v1',
      '  kind: ExternalSecret',
      '  metadata:',
      `    name: s-${i}`,
      '    namespace: a',
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
