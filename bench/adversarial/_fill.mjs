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
 * A ResourceList's lines up to its `items:`, with a ConfigMap functionConfig whose data are
 * `options` (each value quoted), when any.
 */
export function resourceList(options = {}) {
  const data = Object.entries(options).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`);
  const config =
    data.length === 0
      ? ''
      : `functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: conf\n  data:\n${data.join('')}`;
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${config}items:\n`;
}

/** A YAML document of the stream form (`---` then its lines) as an entry of `items:`. */
export const asItem = (doc) => {
  const lines = doc.slice('---\n'.length).split('\n');
  return `- ${lines[0]}\n${lines
    .slice(1, -1)
    .map((l) => `  ${l}\n`)
    .join('')}`;
};

/** Comma-separated `entry(0)`, `entry(1)`, … while under `bytes`: an option listing many. */
export function entries(bytes, entry) {
  const all = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const one = entry(i);
    all.push(one);
    size += one.length + 1;
  }
  return all.join(',');
}

/** An entry of an ExternalSecret's `data` reading key `key` into it, pinned. */
export const dataEntry = (key) =>
  `  - secretKey: ${key}\n    remoteRef:\n      key: x\n      version: "1"\n`;

/**
 * An ExternalSecret writing Secret `target` (its name unless given) through store `vault`; `spec`:
 * lines after the target's name (a template under it, a `dataFrom`); `data`: the entries of its
 * `data` (none: no `data`).
 */
export const externalSecret = (
  name,
  {
    namespace = 'a',
    target = name,
    store = 'ClusterSecretStore',
    spec = '',
    data = dataEntry('k'),
  } = {},
) => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  secretStoreRef:
    name: vault
    kind: ${store}
  target:
    name: ${target}
${spec}${data === '' ? '' : `  data:\n${data}`}`;

/** A Deployment whose pod template has container `c`, with `lines` (at 8 spaces) under it. */
export const deployment = (name, namespace, lines = '        image: i\n', podSpec = '') => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  template:
    spec:
      containers:
      - name: c
${lines}${podSpec}`;

/** An entry of a container's `env` (under its `env:` line) reading `key` of Secret `name`. */
export const secretKeyRef = (i, name, key) =>
  `        - name: E${i}\n          valueFrom:\n            secretKeyRef:\n              name: ${name}\n              key: ${key}\n`;

/** A container's `envFrom` reading each Secret of `names` whole. */
export const envFrom = (names) =>
  `        envFrom:\n${names.map((n) => `        - secretRef:\n            name: ${n}\n`).join('')}`;

/**
 * About `bytes` of a ResourceList whose functionConfig sets `ordering`: one Deployment reading n
 * Secrets through `envFrom`, each made by an ExternalSecret of its own, so the Deployment waits
 * for n sources (the ordering families).
 */
/** The metadata lines of oneReaderOfMany's Deployment, which the kapp layout families move. */
export const kappDeploymentHead = '  metadata:\n    name: api\n    namespace: a\n';

export function oneReaderOfMany(bytes, ordering) {
  // A reference and an ExternalSecret together are ≈330 bytes.
  const names = Array.from({ length: Math.max(1, Math.round(bytes / 330)) }, (_, i) => `s-${i}`);
  return (
    resourceList({ ordering }) +
    asItem(deployment('api', 'a', envFrom(names))) +
    names.map((n) => asItem(externalSecret(n, { store: 'SecretStore' }))).join('')
  );
}

/** A `Runner` (example.com/v1, a kind of no built-in table) in list form, with `spec` lines. */
export const runner = (i, spec) =>
  `- apiVersion: example.com/v1\n  kind: Runner\n  metadata:\n    name: r-${i}\n    namespace: a\n  spec:\n${spec}`;

/**
 * Half of `bytes` one dependency (`head`, then `line(0)`, `line(1)`, … under it), then
 * ExternalSecrets whose `spec` lines (a template, a `dataFrom`) read it: the dependency families.
 */
export const readersOfOne = (bytes, head, line, spec) =>
  fill(bytes, fill(bytes / 2, head, line), (i) =>
    externalSecret(`es-${i}`, { target: `s-${i}`, spec }),
  );

/** A Flux HelmRelease `hr-${i}` of chart `app` whose `values` are `values` (lines at 4 spaces). */
export const helmRelease = (i, values) => `---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: hr-${i}
  namespace: a
spec:
  chart:
    spec:
      chart: app
  values:
${values}`;

/** Values reading Secret `s` whole, as a container's `envFrom` (app-template and most charts). */
export const readsS = '    envFrom:\n    - secretRef:\n        name: s\n';
