// Valid inputs the fuzzer mutates: every example package as a YAML stream and as a ResourceList,
// examples/ci/manifests.yaml, and hand-written inputs in varied styles (flow and block, comments,
// anchors, existing checksums and waves, functionConfigs, CRLF, JSON).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Seed {
  name: string;
  text: string;
}

/** The documents of a YAML file: split at `---` lines, each without the marker. */
function documents(text: string): string[] {
  const docs: string[][] = [[]];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (/^---(\s|$)/.test(line)) docs.push([]);
    else docs[docs.length - 1]?.push(line);
  }
  return docs
    .map((lines) => lines.join('\n'))
    .filter((doc) => doc.split('\n').some((l) => l.trim() !== '' && !l.trimStart().startsWith('#')))
    .map((doc) => `${doc}\n`);
}

/** One document as a `- ` entry of a block sequence at column 0, its leading comments above it. */
function entry(doc: string): string {
  const lines = doc.replace(/\n$/, '').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return `${lines
    .map((l, i) => (i === first ? `- ${l}` : l === '' ? '' : `  ${l}`))
    .filter((l, i) => i >= first || l !== '')
    .join('\n')}\n`;
}

/** A ResourceList of the documents of `texts`, each file's documents in order. */
export function asResourceList(texts: readonly string[], functionConfig?: string): string {
  const items = texts.flatMap(documents).map(entry).join('');
  const config = functionConfig
    ? `functionConfig:\n${functionConfig
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => (l === '' ? '' : `  ${l}`))
        .join('\n')}\n`
    : '';
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}${config}`;
}

/** Files joined into one stream, `---` between them. */
export function asStream(texts: readonly string[]): string {
  return texts.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n');
}

export const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

function examplePackages(): Seed[] {
  const dir = path.join(root, 'examples');
  const seeds: Seed[] = [];
  for (const pkg of readdirSync(dir).sort()) {
    const pkgDir = path.join(dir, pkg);
    if (!statSync(pkgDir).isDirectory()) continue;
    // examples/ci holds a GitHub workflow next to the manifests: the manifests are its package.
    const files = readdirSync(pkgDir)
      .filter((f) => f.endsWith('.yaml') && !(pkg === 'ci' && f !== 'manifests.yaml'))
      .sort();
    if (files.length === 0) continue;
    const texts = files.map((f) => readFileSync(path.join(pkgDir, f), 'utf8'));
    seeds.push({ name: `examples/${pkg} (stream)`, text: asStream(texts) });
    seeds.push({ name: `examples/${pkg} (ResourceList)`, text: asResourceList(texts) });
  }
  const manifests = readFileSync(path.join(dir, 'ci/manifests.yaml'), 'utf8');
  seeds.push({ name: 'examples/ci/manifests.yaml', text: manifests });
  seeds.push({ name: 'examples/ci/manifests.yaml (CRLF)', text: crlf(manifests) });
  return seeds;
}

const store = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider:
    vault: {server: "https://vault.example.com", path: secret, version: v2}
`;

const blockEs = `# Block style, comments everywhere.
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db   # the Secret is named after it
  namespace: shop
  labels:
    app: shop
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  data:
    - secretKey: password
      remoteRef:
        key: shop/db
        property: password
        version: "7"
    # a second key
    - secretKey: user
      remoteRef:
        key: shop/db
        property: user
        version: '7'
`;

const flowEs = `apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata: {name: api-keys, namespace: shop}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target: {name: api-keys-secret, creationPolicy: Owner}
  data:
  - {secretKey: stripe, remoteRef: {key: shop/stripe, version: "2"}}
  - {secretKey: sendgrid, remoteRef: {key: shop/sendgrid, version: "5"}}
  dataFrom:
  - extract: {key: shop/common, version: "1"}
`;

const blockDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels:
        app: web
      # existing pod annotations stay
      annotations:
        prometheus.io/scrape: "true"
    spec:
      containers:
        - name: web
          image: "ghcr.io/example/web:1.0"
          env:
            - name: PASSWORD
              valueFrom:
                secretKeyRef:
                  name: db
                  key: password
          envFrom:
            - secretRef: {name: api-keys-secret}
`;

const flowDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: shop, labels: {app: worker}}
spec:
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec: {containers: [{name: worker, image: worker, envFrom: [{secretRef: {name: db}}]}]}
`;

const noMetadataTemplate = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: cache
  namespace: shop
spec:
  serviceName: cache
  template:
    spec:
      volumes:
      - name: creds
        secret:
          secretName: db
          items:
          - {key: user, path: user}
      - name: keys
        projected:
          sources:
          - secret: {name: api-keys-secret}
      containers:
      - name: cache
        image: cache
`;

const cronJob = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
  namespace: shop
  annotations:
    argocd.argoproj.io/sync-wave: "3"
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
            checksum/external-secrets: "0000000000000000000000000000000000000000000000000000000000000000"
        spec:
          restartPolicy: OnFailure
          containers:
          - name: report
            image: report
            env:
            - {name: KEY, valueFrom: {secretKeyRef: {name: api-keys-secret, key: stripe}}}
`;

const anchored = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: anchored
  namespace: shop
spec:
  template:
    metadata:
      labels: &labels
        app: anchored
    spec:
      containers:
      - name: a
        image: a
        env: &env
        - name: P
          valueFrom: {secretKeyRef: {name: db, key: password}}
      - name: b
        image: b
        env: *env
`;

const explicitWaveEs = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: tokens
  namespace: shop
  annotations:
    argocd.argoproj.io/sync-wave: "-4"
    note: "kept"
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  data:
  - secretKey: token
    remoteRef:
      key: shop/tokens
      version: "12"
`;

const tokensJob = `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  namespace: shop
  annotations: {argocd.argoproj.io/hook: PreSync}
spec:
  template:
    metadata:
      annotations: {}
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: migrate
        envFrom:
        - secretRef:
            name: tokens
`;

const kptAnnotated = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: shop
  annotations:
    config.kubernetes.io/index: '0'
    config.kubernetes.io/path: 'agent.yaml'
    internal.config.kubernetes.io/path: 'agent.yaml'
spec:
  template:
    metadata:
      annotations:
        checksum/external-secrets: stale
    spec:
      containers:
      - name: agent
        image: agent
        volumeMounts: [{name: t, mountPath: /t}]
      volumes: [{name: t, secret: {secretName: tokens}}]
`;

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: function-input
data:
  checksumAnnotation: example.com/secret-checksum
  storeWave: "-5"
  externalSecretWave: "-3"
`;

const typedConfig = `apiVersion: fn.kpt.dev/v1alpha1
kind: SecretRollout
metadata:
  name: secret-rollout
syncWaves: true
imagePullSecrets: true
waveConflictSeverity: warning
`;

const json = (items: unknown[]) =>
  `${JSON.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items }, null, 2)}\n`;

const jsonItems = [
  {
    apiVersion: 'external-secrets.io/v1',
    kind: 'ExternalSecret',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
      data: [{ secretKey: 'p', remoteRef: { key: 'shop/db', version: '2' } }],
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      template: {
        spec: {
          containers: [{ name: 'web', image: 'web', envFrom: [{ secretRef: { name: 'db' } }] }],
        },
      },
    },
  },
];

function generated(): Seed[] {
  const all = [
    store,
    blockEs,
    flowEs,
    blockDeployment,
    flowDeployment,
    noMetadataTemplate,
    cronJob,
  ];
  const more = [explicitWaveEs, tokensJob, kptAnnotated, anchored];
  const stream = asStream(all);
  const seeds: Seed[] = [
    { name: 'generated: block and flow (stream)', text: stream },
    { name: 'generated: block and flow (stream, CRLF)', text: crlf(stream) },
    { name: 'generated: no final newline', text: stream.replace(/\n$/, '') },
    {
      name: 'generated: leading ---, comments, ...',
      text: `# rendered\n--- # first\n${stream}...\n`,
    },
    { name: 'generated: waves, hooks, kpt paths (stream)', text: asStream([store, ...more]) },
    { name: 'generated: ResourceList', text: asResourceList([...all, ...more]) },
    { name: 'generated: ResourceList (CRLF)', text: crlf(asResourceList(all)) },
    {
      name: 'generated: ResourceList with ConfigMap functionConfig',
      text: asResourceList([...all, ...more], configMap),
    },
    {
      name: 'generated: ResourceList with typed functionConfig',
      text: asResourceList([store, flowEs, cronJob, explicitWaveEs, tokensJob], typedConfig),
    },
    {
      name: 'generated: ResourceList, items indented',
      text: asResourceList([blockEs, blockDeployment]).replace(
        /\nitems:\n([\s\S]*)$/,
        (_m, body: string) =>
          `\nitems:\n${body
            .split('\n')
            .map((l) => (l === '' ? '' : `  ${l}`))
            .join('\n')}`,
      ),
    },
    { name: 'generated: JSON ResourceList', text: json(jsonItems) },
    { name: 'generated: JSON object', text: `${JSON.stringify(jsonItems[0], null, 1)}\n` },
  ];
  return seeds;
}

export function loadSeeds(): Seed[] {
  return [...examplePackages(), ...generated()];
}
