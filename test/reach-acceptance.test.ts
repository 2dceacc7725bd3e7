// Acceptance test for issue #15 ("Done when"), end to end through the built CLI
// (dist/secret-rollout.cjs, spawned with node, input on stdin; `npm test` builds it first).
//
// Each scenario is a package of realistic manifests (as the operators' own docs write them),
// run both as a plain YAML stream and as a KRM ResourceList, and checked for:
// - exactly the right pod templates carry a checksum (searched anywhere in every item);
// - a relevant spec change moves exactly the expected checksums, an irrelevant one moves none;
//   a templateFrom or generator change also moves `checksum/dependencies` on exactly that
//   ExternalSecret;
// - sync waves order every source (and store, and dependency) before what reads it;
// - opted-out templates get no checksum and an info naming what they read;
// - double-restart warnings name the other mechanism; the expected warnings are all there are;
// - nothing else in the input changes: the output is the input plus (or with updated) annotation
//   lines, and for a ResourceList the results.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/secret-rollout.cjs');

const CHECKSUM = 'checksum/external-secrets';
const WAVE = 'argocd.argoproj.io/sync-wave';
const DEPS = 'checksum/dependencies';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Input builders

/** A plain multi-document stream. */
function asStream(docs: readonly string[]): string {
  return docs.map((d) => (d.endsWith('\n') ? d : `${d}\n`)).join('---\n');
}

/**
 * A ResourceList holding `docs` as items. Comment lines heading a document stay at column 0
 * above its entry; the rest is indented under `- `.
 */
function asResourceList(docs: readonly string[], functionConfig?: string): string {
  const item = (doc: string) => {
    const lines = doc.replace(/\n$/, '').split('\n');
    const head: string[] = [];
    while (lines[0]?.startsWith('#')) head.push(lines.shift() as string);
    const body = lines.map((l, i) => (i === 0 ? `- ${l}` : l === '' ? '' : `  ${l}`));
    return [...head, ...body].join('\n');
  };
  const config = functionConfig
    ? `functionConfig:\n${functionConfig
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}\n`
    : '';
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${docs.map(item).join('\n')}\n${config}`;
}

// ---------------------------------------------------------------------------------------------
// Running the CLI and reading its output

interface Output {
  input: string;
  stdout: string;
  items: Obj[];
  /** `severity: message [Kind ns/name field]`, the stream's stderr format, for both layouts. */
  results: string[];
}

function cliRun(
  input: string,
  args: readonly string[],
): { code: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

function render(format: Format, docs: readonly string[], sc: Scenario): Output {
  const input = format === 'stream' ? asStream(docs) : asResourceList(docs, sc.functionConfig);
  const out = cliRun(input, format === 'stream' ? (sc.args ?? []) : []);
  expect(out.code, `${out.stderr}\n${out.stdout.slice(out.stdout.indexOf('results:'))}`).toBe(0);
  if (format === 'stream') {
    const items = (loadAll(out.stdout) as unknown[]).filter(isObj);
    const results = out.stderr.split('\n').filter((l) => /^(error|warning|info): /.test(l));
    return { input, stdout: out.stdout, items, results };
  }
  expect(out.stderr).toBe('');
  const list = load(out.stdout) as Obj;
  const results = ((list.results ?? []) as Obj[]).map((r) => {
    const ref = (r.resourceRef ?? {}) as Obj;
    const field = (r.field ?? {}) as Obj;
    const where = `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
    return `${r.severity}: ${r.message} [${where}${field.path ? ` ${field.path}` : ''}]`;
  });
  return { input, stdout: out.stdout, items: list.items as Obj[], results };
}

const refOf = (item: Obj): string => {
  const meta = (item.metadata ?? {}) as Obj;
  return `${item.kind} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}`;
};

/**
 * Every `annotations` mapping holding `key`, anywhere in every item, by `Kind ns/name:path`,
 * where path leads to the object whose `metadata` holds them (`spec.template`; `` for the item's
 * own metadata).
 */
function annotated(items: readonly Obj[], key: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (node: unknown, at: string[], ref: string) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        walk(v, [...at, `${i}`], ref);
      });
    }
    if (!isObj(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'annotations' && at.at(-1) === 'metadata' && isObj(v) && key in v) {
        found[`${ref}:${at.slice(0, -1).join('.')}`] = String(v[key]);
      }
      walk(v, [...at, k], ref);
    }
  };
  for (const item of items) walk(item, [], refOf(item));
  return found;
}

function waveOf(items: readonly Obj[], ref: string): bigint {
  const item = items.find((i) => refOf(i) === ref);
  if (!item) throw new Error(`no item ${ref} in the output`);
  const ann = ((item.metadata as Obj).annotations ?? {}) as Obj;
  return BigInt(String(ann[WAVE] ?? ann['helm.sh/hook-weight'] ?? '0'));
}

// ---------------------------------------------------------------------------------------------
// "Nothing else in the input changes": the output, line by line, is the input with annotation
// lines of ours inserted (with `metadata:`/`annotations:` parents where missing) or updated in
// place, and for a ResourceList the results appended.

const ours = [CHECKSUM, WAVE, DEPS].map((k) => k.replace(/[./]/g, '\\$&')).join('|');
const ourLine = new RegExp(`^( *)(${ours}): "(-?[0-9]+|[0-9a-f]{64})"$`);
const parentLine = /^( *)(metadata|annotations):$/;

interface LineChange {
  kind: 'inserted' | 'updated';
  line: string;
}

function changedLines(input: string, output: string, resourceList: boolean): LineChange[] {
  const want = input.replace(/\n$/, '').split('\n');
  let got = output.replace(/\n$/, '').split('\n');
  expect(output.endsWith('\n')).toBe(input.endsWith('\n'));
  if (resourceList) {
    const end = got.indexOf('results:');
    if (end >= 0) {
      // The results are the ResourceList's last field, after every input line.
      expect(got.slice(end + 1).every((l) => l.startsWith(' ') || l.startsWith('-'))).toBe(true);
      got = got.slice(0, end);
    }
  }
  const changes: LineChange[] = [];
  let i = 0;
  for (let j = 0; j < got.length; j++) {
    const line = got[j] as string;
    if (i < want.length && line === want[i]) {
      i++;
      continue;
    }
    const mine = ourLine.exec(line);
    const theirs = i < want.length ? ourLine.exec(want[i] as string) : null;
    if (mine && theirs && mine[1] === theirs[1] && mine[2] === theirs[2]) {
      changes.push({ kind: 'updated', line });
      i++;
      continue;
    }
    const parent = parentLine.exec(line);
    const next = got[j + 1] ?? '';
    const indent = (l: string) => l.length - l.trimStart().length;
    if (
      mine ||
      (parent && (ourLine.test(next) || parentLine.test(next)) && indent(next) > indent(line))
    ) {
      changes.push({ kind: 'inserted', line });
      continue;
    }
    throw new Error(
      `output line ${j + 1} is neither an input line nor one of ours:\n  ${line}\nexpected input line ${i + 1}:\n  ${want[i]}`,
    );
  }
  if (i < want.length)
    throw new Error(`input lines missing from the output:\n${want.slice(i).join('\n')}`);
  return changes;
}

// ---------------------------------------------------------------------------------------------
// Scenarios

type Format = 'stream' | 'resource list';

interface Change {
  name: string;
  /** Text replacements on the documents; each `from` must occur exactly once in them. */
  edit: [from: string, to: string][];
  /** `Kind ns/name:path` of the checksums that move (none for an irrelevant change). */
  moves: string[];
  /** `Kind ns/name` of the items whose checksum/dependencies moves. */
  deps?: string[];
}

interface Expected {
  severity: 'error' | 'warning' | 'info';
  /** `Kind ns/name` the result is on. */
  on: string;
  has: string[];
}

interface Scenario {
  name: string;
  docs: string[];
  /** Arguments for the stream run. */
  args?: string[];
  /** functionConfig for the ResourceList run. */
  functionConfig?: string;
  /** Exactly the pod templates with a checksum, `Kind ns/name:path`. */
  carriers: string[];
  /** Exactly the items with checksum/dependencies, `Kind ns/name`. */
  deps?: string[];
  /** [before, after]: the first's wave must be below the second's. */
  order: [string, string][];
  /** Opted-out workloads and a source each reads (named by the info). */
  optedOut: [workload: string, source: string][];
  /** Results that must be there; every warning and error must be one of them. */
  results: Expected[];
  /** Results that must not be there. */
  absent?: Expected[];
  changes: Change[];
}

const matches = (line: string, e: Expected) =>
  line.startsWith(`${e.severity}: `) &&
  (line.includes(`[${e.on} `) || line.includes(`[${e.on}]`)) &&
  e.has.every((h) => line.includes(h));

function applyEdits(docs: readonly string[], edit: Change['edit']): string[] {
  let text = docs.join('\u0000');
  for (const [from, to] of edit) {
    expect(text.split(from).length - 1, `occurrences of ${JSON.stringify(from)}`).toBe(1);
    text = text.replace(from, to);
  }
  return text.split('\u0000');
}

// --- KEDA ScaledJob ---------------------------------------------------------------------------

const scaledJobs: Scenario = {
  name: 'KEDA ScaledJob',
  docs: [
    `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault-backend
spec:
  provider:
    vault:
      server: "https://vault.example.com:8200"
      path: secret
      version: v2
      auth:
        kubernetes:
          mountPath: kubernetes
          role: external-secrets
`,
    `# Read-only credentials for the reporting database.
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: reports-db
  namespace: reports
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault-backend
    kind: ClusterSecretStore
  target:
    name: reports-db
  data:
    - secretKey: DATABASE_URL
      remoteRef:
        key: reports/db
        property: url
        version: "7" # bump it: the ScaledJobs' next Jobs read the new value
`,
    `# One Job per queued report: the checksum goes on spec.jobTargetRef.template.
apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata:
  name: report-builder
  namespace: reports
spec:
  rollout:
    strategy: gradual # running Jobs finish on the old spec
  pollingInterval: 30
  maxReplicaCount: 10
  jobTargetRef:
    backoffLimit: 2
    template:
      metadata:
        labels:
          app: report-builder
      spec:
        restartPolicy: Never
        containers:
          - name: builder
            image: registry.example.com/reports/builder:2.4.1
            envFrom:
              - secretRef:
                  name: reports-db
  triggers:
    - type: rabbitmq
      metadata:
        queueName: report-requests
        mode: QueueLength
        value: "5"
        hostFromEnv: RABBITMQ_URL
`,
    `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata:
  name: report-mailer
  namespace: reports
spec:
  pollingInterval: 60
  jobTargetRef:
    template:
      metadata:
        labels:
          app: report-mailer
      spec:
        restartPolicy: Never
        containers:
          - name: mailer
            image: registry.example.com/reports/mailer:1.9.0
            env:
              - name: DATABASE_URL
                valueFrom:
                  secretKeyRef:
                    name: reports-db
                    key: DATABASE_URL
  triggers:
    - type: cron
      metadata:
        timezone: Etc/UTC
        start: 0 6 * * *
        end: 10 6 * * *
        desiredReplicas: "1"
`,
    `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata:
  name: report-archiver
  namespace: reports
spec:
  rolloutStrategy: gradual # deprecated spelling, still honoured
  jobTargetRef:
    template:
      spec:
        restartPolicy: OnFailure
        containers:
          - name: archiver
            image: registry.example.com/reports/archiver:0.4.0
            volumeMounts:
              - name: db
                mountPath: /etc/reports-db
        volumes:
          - name: db
            secret:
              secretName: reports-db
  triggers:
    - type: prometheus
      metadata:
        serverAddress: http://prometheus.monitoring:9090
        query: sum(reports_pending_archive)
        threshold: "100"
`,
    `# Purges are restarted by hand: opted out on the ScaledJob.
apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata:
  name: report-purger
  namespace: reports
  annotations:
    secret-rollout/ignore: "true"
spec:
  jobTargetRef:
    template:
      spec:
        restartPolicy: Never
        containers:
          - name: purger
            image: registry.example.com/reports/purger:1.0.0
            envFrom:
              - secretRef:
                  name: reports-db
  triggers:
    - type: cron
      metadata:
        timezone: Etc/UTC
        start: 0 1 * * *
        end: 5 1 * * *
        desiredReplicas: "1"
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: reports-ui
  namespace: reports
spec:
  selector:
    matchLabels:
      app: reports-ui
  template:
    metadata:
      labels:
        app: reports-ui
    spec:
      containers:
        - name: ui
          image: registry.example.com/reports/ui:3.0.0
          envFrom:
            - secretRef:
                name: reports-ui-config # made outside this package
`,
  ],
  carriers: [
    'ScaledJob reports/report-builder:spec.jobTargetRef.template',
    'ScaledJob reports/report-mailer:spec.jobTargetRef.template',
    'ScaledJob reports/report-archiver:spec.jobTargetRef.template',
  ],
  order: [
    ['ClusterSecretStore vault-backend', 'ExternalSecret reports/reports-db'],
    ['ExternalSecret reports/reports-db', 'ScaledJob reports/report-builder'],
    ['ExternalSecret reports/reports-db', 'ScaledJob reports/report-mailer'],
    ['ExternalSecret reports/reports-db', 'ScaledJob reports/report-archiver'],
    ['ExternalSecret reports/reports-db', 'ScaledJob reports/report-purger'],
  ],
  optedOut: [['ScaledJob reports/report-purger', 'ExternalSecret reports/reports-db']],
  results: [
    {
      severity: 'info',
      on: 'ScaledJob reports/report-mailer',
      has: ['KEDA', 'spec.rollout.strategy: gradual'],
    },
  ],
  absent: [
    { severity: 'info', on: 'ScaledJob reports/report-builder', has: ['KEDA'] },
    { severity: 'info', on: 'ScaledJob reports/report-archiver', has: ['KEDA'] },
    { severity: 'info', on: 'ScaledJob reports/report-purger', has: ['KEDA'] },
  ],
  changes: [
    {
      name: 'remoteRef.version bumped',
      edit: [['version: "7"', 'version: "8"']],
      moves: [
        'ScaledJob reports/report-builder:spec.jobTargetRef.template',
        'ScaledJob reports/report-mailer:spec.jobTargetRef.template',
        'ScaledJob reports/report-archiver:spec.jobTargetRef.template',
      ],
    },
    {
      name: 'refreshInterval and a ScaledJob pollingInterval changed',
      edit: [
        ['refreshInterval: 1h', 'refreshInterval: 15m'],
        ['pollingInterval: 30', 'pollingInterval: 10'],
      ],
      moves: [],
    },
  ],
};

// --- podTemplates option --------------------------------------------------------------------

const declaredTemplates: Scenario = {
  name: 'podTemplates option',
  args: ['podTemplates=example.com/Worker:spec.runner.template'],
  functionConfig: `apiVersion: v1
kind: ConfigMap
metadata:
  name: function-input
data:
  podTemplates: example.com/Worker:spec.runner.template
`,
  docs: [
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: queue-credentials
  namespace: pipelines
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault-backend
    kind: ClusterSecretStore
  data:
    - secretKey: password
      remoteRef:
        key: pipelines/queue
        property: password
        version: "3"
`,
    `# The operator runs pods from spec.runner.template, where no shape search looks.
apiVersion: example.com/v1
kind: Worker
metadata:
  name: ingest
  namespace: pipelines
spec:
  replicas: 3
  runner:
    template:
      metadata:
        labels:
          app: ingest
      spec:
        containers:
          - name: ingest
            image: registry.example.com/pipelines/ingest:5.2.0
            env:
              - name: QUEUE_PASSWORD
                valueFrom:
                  secretKeyRef:
                    name: queue-credentials
                    key: password
`,
    `apiVersion: example.com/v1
kind: Worker
metadata:
  name: export
  namespace: pipelines
spec:
  replicas: 1
  runner:
    template:
      metadata:
        labels:
          app: export
        annotations:
          secret-rollout/ignore: "true" # restarted by hand
      spec:
        containers:
          - name: export
            image: registry.example.com/pipelines/export:1.1.0
            envFrom:
              - secretRef:
                  name: queue-credentials
`,
    `# Same layout, another kind: not declared, so no consumer.
apiVersion: example.com/v1
kind: Sweeper
metadata:
  name: sweep
  namespace: pipelines
spec:
  runner:
    template:
      spec:
        containers:
          - name: sweep
            image: registry.example.com/pipelines/sweep:0.2.0
            envFrom:
              - secretRef:
                  name: queue-credentials
`,
  ],
  carriers: ['Worker pipelines/ingest:spec.runner.template'],
  order: [
    ['ExternalSecret pipelines/queue-credentials', 'Worker pipelines/ingest'],
    ['ExternalSecret pipelines/queue-credentials', 'Worker pipelines/export'],
  ],
  optedOut: [['Worker pipelines/export', 'ExternalSecret pipelines/queue-credentials']],
  results: [],
  changes: [
    {
      name: 'remoteRef.version bumped',
      edit: [['version: "3"', 'version: "4"']],
      moves: ['Worker pipelines/ingest:spec.runner.template'],
    },
    {
      name: 'refreshInterval changed',
      edit: [['refreshInterval: 1h', 'refreshInterval: 5m']],
      moves: [],
    },
  ],
};

// --- Secrets Store CSI SecretProviderClass -----------------------------------------------------

const spc: Scenario = {
  name: 'SecretProviderClass',
  docs: [
    `# The Azure Key Vault provider mounts two objects; while a pod mounts the class, the driver
# copies them into the Secret "shop-db".
apiVersion: secrets-store.csi.x-k8s.io/v1
kind: SecretProviderClass
metadata:
  name: shop-kv
  namespace: shop
spec:
  provider: azure
  parameters:
    usePodIdentity: "false"
    clientID: 6c1b9a4e-1f2d-4c3b-9a8e-7d6c5b4a3f21
    keyvaultName: shop-kv
    tenantId: 2f4a9fbe-3c6d-4e8a-b1c2-0d9e8f7a6b5c
    objects: |
      array:
        - |
          objectName: db-username
          objectType: secret
          objectVersion: 4f1e0d2c3b4a59687766554433221100
        - |
          objectName: db-password
          objectType: secret
          objectVersion: 9a8b7c6d5e4f30211202938475665748
  secretObjects:
    - secretName: shop-db
      type: Opaque
      labels:
        app.kubernetes.io/part-of: shop # not part of the checksum
      data:
        - objectName: db-username
          key: username
        - objectName: db-password
          key: password
`,
    `# The service principal the provider logs in with, passed as nodePublishSecretRef.
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: secrets-store-creds
  namespace: shop
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault-backend
    kind: ClusterSecretStore
  data:
    - secretKey: clientid
      remoteRef:
        key: shop/azure-sp
        property: clientid
        version: "2"
    - secretKey: clientsecret
      remoteRef:
        key: shop/azure-sp
        property: clientsecret
        version: "2"
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-api
  namespace: shop
  annotations:
    secretproviderclass.reloader.stakater.com/reload: "shop-kv"
spec:
  selector:
    matchLabels:
      app: shop-api
  template:
    metadata:
      labels:
        app: shop-api
    spec:
      containers:
        - name: api
          image: ghcr.io/example/shop-api:3.2.0
          env:
            - name: DB_USERNAME
              valueFrom:
                secretKeyRef:
                  name: shop-db
                  key: username
          volumeMounts:
            - name: secrets-store-inline
              mountPath: /mnt/secrets-store
              readOnly: true
      volumes:
        - name: secrets-store-inline
          csi:
            driver: secrets-store.csi.k8s.io
            readOnly: true
            volumeAttributes:
              secretProviderClass: shop-kv
            nodePublishSecretRef:
              name: secrets-store-creds
`,
    `apiVersion: batch/v1
kind: CronJob
metadata:
  name: shop-report
  namespace: shop
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: shop-report
        spec:
          restartPolicy: OnFailure
          containers:
            - name: report
              image: ghcr.io/example/shop-report:1.0.4
              env:
                - name: DB_PASSWORD
                  valueFrom:
                    secretKeyRef:
                      name: shop-db
                      key: password
`,
    `# Opted out: mounts the class, never restarted by secret-rollout.
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: shop-agent
  namespace: shop
  annotations:
    secret-rollout/ignore: "true"
spec:
  selector:
    matchLabels:
      app: shop-agent
  template:
    metadata:
      labels:
        app: shop-agent
    spec:
      containers:
        - name: agent
          image: ghcr.io/example/shop-agent:1.0.0
          volumeMounts:
            - name: kv
              mountPath: /mnt/kv
              readOnly: true
      volumes:
        - name: kv
          csi:
            driver: secrets-store.csi.k8s.io
            readOnly: true
            volumeAttributes:
              secretProviderClass: shop-kv
`,
    `# Another CSI driver: its nodePublishSecretRef only mounts storage and does not count.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-files
  namespace: shop
spec:
  selector:
    matchLabels:
      app: shop-files
  template:
    metadata:
      labels:
        app: shop-files
    spec:
      containers:
        - name: files
          image: ghcr.io/example/shop-files:2.0.0
          volumeMounts:
            - name: share
              mountPath: /srv/share
      volumes:
        - name: share
          csi:
            driver: smb.csi.k8s.io
            volumeAttributes:
              source: //fileserver.example.com/share
            nodePublishSecretRef:
              name: secrets-store-creds
`,
  ],
  carriers: [
    'Deployment shop/shop-api:spec.template',
    'CronJob shop/shop-report:spec.jobTemplate.spec.template',
  ],
  order: [
    ['SecretProviderClass shop/shop-kv', 'Deployment shop/shop-api'],
    ['SecretProviderClass shop/shop-kv', 'CronJob shop/shop-report'],
    ['SecretProviderClass shop/shop-kv', 'DaemonSet shop/shop-agent'],
    ['ExternalSecret shop/secrets-store-creds', 'Deployment shop/shop-api'],
  ],
  optedOut: [['DaemonSet shop/shop-agent', 'SecretProviderClass shop/shop-kv']],
  results: [
    {
      severity: 'warning',
      on: 'Deployment shop/shop-api',
      has: ['Stakater Reloader', 'secretproviderclass.reloader.stakater.com/reload'],
    },
  ],
  changes: [
    {
      name: 'a mounted object version changed',
      edit: [
        [
          'objectVersion: 9a8b7c6d5e4f30211202938475665748',
          'objectVersion: 0b1c2d3e4f5061728394a5b6c7d8e9f0',
        ],
      ],
      moves: [
        'Deployment shop/shop-api:spec.template',
        'CronJob shop/shop-report:spec.jobTemplate.spec.template',
      ],
    },
    {
      name: 'the synced key username maps another object',
      edit: [
        [
          '        - objectName: db-username\n          key: username',
          '        - objectName: db-login\n          key: username',
        ],
      ],
      moves: ['Deployment shop/shop-api:spec.template'],
    },
    {
      name: 'the nodePublishSecretRef Secret changed',
      edit: [
        [
          'version: "2"\n    - secretKey: clientsecret',
          'version: "3"\n    - secretKey: clientsecret',
        ],
      ],
      moves: ['Deployment shop/shop-api:spec.template'],
    },
    {
      name: 'labels of the synced Secret changed',
      edit: [['app.kubernetes.io/part-of: shop #', 'app.kubernetes.io/part-of: shop-platform #']],
      moves: [],
    },
  ],
};

// --- ExternalSecret templateFrom -------------------------------------------------------------

const templateFrom: Scenario = {
  name: 'ExternalSecret templateFrom',
  docs: [
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: billing-db
  namespace: billing
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: billing-db
    template:
      engineVersion: v2
      templateFrom:
        - configMap:
            name: billing-templates
            items:
              - key: config.yaml
        - secret:
            name: billing-ca
            items:
              - key: ca.crt
  data:
    - secretKey: user
      remoteRef:
        key: billing/db
        property: user
        version: "3"
    - secretKey: password
      remoteRef:
        key: billing/db
        property: password
        version: "3"
`,
    `# The template ESO renders the Secret from: only config.yaml is read.
apiVersion: v1
kind: ConfigMap
metadata:
  name: billing-templates
  namespace: billing
data:
  config.yaml: |
    database:
      url: postgres://{{ .user }}:{{ .password }}@db.billing:5432/billing
      pool: 10
  README.txt: Templates for the billing-db ExternalSecret.
`,
    `apiVersion: v1
kind: Secret
metadata:
  name: billing-ca
  namespace: billing
type: Opaque
data:
  ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
stringData:
  unused: not read by the template
`,
    `# Same name, other namespace: not what billing-db reads.
apiVersion: v1
kind: ConfigMap
metadata:
  name: billing-templates
  namespace: billing-staging
data:
  config.yaml: |
    database:
      url: postgres://{{ .user }}:{{ .password }}@db.billing-staging:5432/billing
      pool: 2
`,
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: billing-smtp
  namespace: billing
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  data:
    - secretKey: SMTP_PASSWORD
      remoteRef:
        key: billing/smtp
        property: password
        version: "5"
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: billing-api
  namespace: billing
spec:
  replicas: 2
  selector:
    matchLabels:
      app: billing-api
  template:
    metadata:
      labels:
        app: billing-api
    spec:
      containers:
        - name: api
          image: registry.example.com/billing-api:2.4.1
          volumeMounts:
            - name: config
              mountPath: /etc/billing
              readOnly: true
      volumes:
        - name: config
          secret:
            secretName: billing-db
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: billing-mailer
  namespace: billing
spec:
  selector:
    matchLabels:
      app: billing-mailer
  template:
    metadata:
      labels:
        app: billing-mailer
    spec:
      containers:
        - name: mailer
          image: registry.example.com/billing-mailer:1.0.2
          env:
            - name: SMTP_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: billing-smtp
                  key: SMTP_PASSWORD
`,
    `apiVersion: batch/v1
kind: CronJob
metadata:
  name: billing-reconcile
  namespace: billing
spec:
  schedule: "15 4 * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: billing-reconcile
          annotations:
            secret-rollout/ignore: "true"
        spec:
          restartPolicy: OnFailure
          containers:
            - name: reconcile
              image: registry.example.com/billing-reconcile:0.8.0
              envFrom:
                - secretRef:
                    name: billing-db
`,
  ],
  carriers: [
    'Deployment billing/billing-api:spec.template',
    'Deployment billing/billing-mailer:spec.template',
  ],
  deps: ['ExternalSecret billing/billing-db'],
  order: [
    ['ConfigMap billing/billing-templates', 'ExternalSecret billing/billing-db'],
    ['Secret billing/billing-ca', 'ExternalSecret billing/billing-db'],
    ['ExternalSecret billing/billing-db', 'Deployment billing/billing-api'],
    ['ExternalSecret billing/billing-db', 'CronJob billing/billing-reconcile'],
    ['ExternalSecret billing/billing-smtp', 'Deployment billing/billing-mailer'],
  ],
  optedOut: [['CronJob billing/billing-reconcile', 'ExternalSecret billing/billing-db']],
  results: [],
  changes: [
    {
      name: 'the template key read changed',
      edit: [['      pool: 10', '      pool: 20']],
      moves: ['Deployment billing/billing-api:spec.template'],
      deps: ['ExternalSecret billing/billing-db'],
    },
    {
      name: 'the Secret key read changed',
      edit: [
        [
          'ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==',
          'ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCgo=',
        ],
      ],
      moves: ['Deployment billing/billing-api:spec.template'],
      deps: ['ExternalSecret billing/billing-db'],
    },
    {
      name: 'the ExternalSecret spec changed',
      edit: [
        ['property: password\n        version: "3"', 'property: password\n        version: "4"'],
      ],
      moves: ['Deployment billing/billing-api:spec.template'],
    },
    {
      name: 'keys not read, and the same-named ConfigMap elsewhere, changed',
      edit: [
        [
          'README.txt: Templates for the billing-db ExternalSecret.',
          'README.txt: Templates, edited.',
        ],
        ['unused: not read by the template', 'unused: still not read'],
        ['      pool: 2', '      pool: 3'],
      ],
      moves: [],
    },
  ],
};

// --- ExternalSecret generators ---------------------------------------------------------------

const generators: Scenario = {
  name: 'ExternalSecret generatorRef',
  docs: [
    `apiVersion: generators.external-secrets.io/v1alpha1
kind: Password
metadata:
  name: session-key
  namespace: web
spec:
  length: 48
  digits: 8
  symbols: 0
  noUpper: false
`,
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: session-key
  namespace: web
spec:
  refreshPolicy: OnChange
  target:
    name: session-key
  dataFrom:
    - sourceRef:
        generatorRef:
          apiVersion: generators.external-secrets.io/v1alpha1
          kind: Password
          name: session-key
`,
    `# Its generator is managed elsewhere: an info says nothing follows it.
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: registry-token
  namespace: web
spec:
  refreshPolicy: OnChange
  target:
    name: registry-token
  dataFrom:
    - sourceRef:
        generatorRef:
          apiVersion: generators.external-secrets.io/v1alpha1
          kind: ECRAuthorizationToken
          name: ecr
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: registry.example.com/web:1.8.0
          env:
            - name: SESSION_KEY
              valueFrom:
                secretKeyRef:
                  name: session-key
                  key: password
        - name: puller
          image: registry.example.com/puller:0.3.0
          envFrom:
            - secretRef:
                name: registry-token
`,
    `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: registry-warmer
  namespace: web
spec:
  selector:
    matchLabels:
      app: registry-warmer
  template:
    metadata:
      labels:
        app: registry-warmer
    spec:
      containers:
        - name: warmer
          image: registry.example.com/warmer:0.1.0
          envFrom:
            - secretRef:
                name: registry-token
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-canary
  namespace: web
  annotations:
    secret-rollout/ignore: "true"
spec:
  selector:
    matchLabels:
      app: web-canary
  template:
    metadata:
      labels:
        app: web-canary
    spec:
      containers:
        - name: web
          image: registry.example.com/web:1.9.0-rc.1
          env:
            - name: SESSION_KEY
              valueFrom:
                secretKeyRef:
                  name: session-key
                  key: password
`,
  ],
  carriers: ['Deployment web/web:spec.template', 'DaemonSet web/registry-warmer:spec.template'],
  deps: ['ExternalSecret web/session-key'],
  order: [
    ['Password web/session-key', 'ExternalSecret web/session-key'],
    ['ExternalSecret web/session-key', 'Deployment web/web'],
    ['ExternalSecret web/session-key', 'Deployment web/web-canary'],
    ['ExternalSecret web/registry-token', 'Deployment web/web'],
    ['ExternalSecret web/registry-token', 'DaemonSet web/registry-warmer'],
  ],
  optedOut: [['Deployment web/web-canary', 'ExternalSecret web/session-key']],
  results: [
    {
      severity: 'info',
      on: 'ExternalSecret web/registry-token',
      has: ['ECRAuthorizationToken', 'ecr'],
    },
  ],
  changes: [
    {
      name: 'the Password generator spec changed',
      edit: [['length: 48', 'length: 64']],
      moves: ['Deployment web/web:spec.template'],
      deps: ['ExternalSecret web/session-key'],
    },
    {
      name: 'the generator outside the package is renamed',
      edit: [['name: ecr\n', 'name: ecr-eu\n']],
      moves: ['Deployment web/web:spec.template', 'DaemonSet web/registry-warmer:spec.template'],
    },
    {
      name: 'a generator default spelled out is removed',
      edit: [['  symbols: 0\n  noUpper: false\n', '  symbols: 0\n']],
      moves: [],
    },
  ],
};

// --- Vault Secrets Operator: dynamic, PKI, HCP ------------------------------------------------

const vso: Scenario = {
  name: 'VSO VaultDynamicSecret, VaultPKISecret, HCPVaultSecretsApp',
  docs: [
    `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultDynamicSecret
metadata:
  name: payments-db
  namespace: payments
spec:
  vaultAuthRef: payments-auth
  mount: db
  path: creds/payments-app
  renewalPercent: 67 # the CRD default, written out: not a change
  revoke: true
  destination:
    name: payments-db
    create: true
  rolloutRestartTargets:
    - kind: Deployment
      name: payments-worker
`,
    `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultPKISecret
metadata:
  name: payments-tls
  namespace: payments
spec:
  vaultAuthRef: payments-auth
  mount: pki
  role: payments-internal
  commonName: payments.payments.svc
  altNames:
    - payments.payments.svc.cluster.local
  format: pem
  ttl: 720h
  expiryOffset: 24h
  destination:
    name: payments-tls
    create: true
    type: kubernetes.io/tls
`,
    `apiVersion: secrets.hashicorp.com/v1beta1
kind: HCPVaultSecretsApp
metadata:
  name: payments-config
  namespace: payments
spec:
  appName: payments
  hcpAuthRef: payments-hcp
  refreshAfter: 600s # not part of the checksum
  destination:
    name: payments-config
    create: true
    labels:
      app.kubernetes.io/part-of: payments # not part of the checksum
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: payments
  namespace: payments
spec:
  selector:
    matchLabels:
      app: payments
  template:
    metadata:
      labels:
        app: payments
    spec:
      containers:
        - name: payments
          image: ghcr.io/example/payments:5.0.1
          envFrom:
            - secretRef:
                name: payments-config
          env:
            - name: DB_USERNAME
              valueFrom:
                secretKeyRef:
                  name: payments-db
                  key: username
          volumeMounts:
            - name: tls
              mountPath: /etc/tls
              readOnly: true
      volumes:
        - name: tls
          secret:
            secretName: payments-tls
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: payments-worker
  namespace: payments
spec:
  selector:
    matchLabels:
      app: payments-worker
  template:
    metadata:
      labels:
        app: payments-worker
    spec:
      containers:
        - name: worker
          image: ghcr.io/example/payments-worker:5.0.1
          envFrom:
            - secretRef:
                name: payments-db
`,
    `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: payments-ledger
  namespace: payments
spec:
  serviceName: payments-ledger
  selector:
    matchLabels:
      app: payments-ledger
  template:
    metadata:
      labels:
        app: payments-ledger
      annotations:
        secret-rollout/ignore: "true"
    spec:
      containers:
        - name: ledger
          image: ghcr.io/example/payments-ledger:2.0.0
          volumeMounts:
            - name: tls
              mountPath: /etc/tls
      volumes:
        - name: tls
          secret:
            secretName: payments-tls
`,
  ],
  carriers: [
    'Deployment payments/payments:spec.template',
    'Deployment payments/payments-worker:spec.template',
  ],
  order: [
    ['VaultDynamicSecret payments/payments-db', 'Deployment payments/payments'],
    ['VaultDynamicSecret payments/payments-db', 'Deployment payments/payments-worker'],
    ['VaultPKISecret payments/payments-tls', 'Deployment payments/payments'],
    ['VaultPKISecret payments/payments-tls', 'StatefulSet payments/payments-ledger'],
    ['HCPVaultSecretsApp payments/payments-config', 'Deployment payments/payments'],
  ],
  optedOut: [['StatefulSet payments/payments-ledger', 'VaultPKISecret payments/payments-tls']],
  results: [
    {
      severity: 'warning',
      on: 'Deployment payments/payments-worker',
      has: [
        'Vault Secrets Operator',
        'VaultDynamicSecret payments/payments-db',
        'rolloutRestartTargets',
      ],
    },
  ],
  changes: [
    {
      name: 'the dynamic secret path changed',
      edit: [['path: creds/payments-app', 'path: creds/payments-app-v2']],
      moves: [
        'Deployment payments/payments:spec.template',
        'Deployment payments/payments-worker:spec.template',
      ],
    },
    {
      name: 'renewalPercent changed (VSO issues new credentials on any spec change)',
      edit: [['renewalPercent: 67', 'renewalPercent: 50']],
      moves: [
        'Deployment payments/payments:spec.template',
        'Deployment payments/payments-worker:spec.template',
      ],
    },
    {
      name: 'the certificate common name changed',
      edit: [['commonName: payments.payments.svc', 'commonName: api.payments.svc']],
      moves: ['Deployment payments/payments:spec.template'],
    },
    {
      name: 'the HCP app changed',
      edit: [['appName: payments', 'appName: payments-v2']],
      moves: ['Deployment payments/payments:spec.template'],
    },
    {
      name: 'refreshAfter, destination labels and defaults spelled out changed',
      edit: [
        ['refreshAfter: 600s', 'refreshAfter: 300s'],
        ['app.kubernetes.io/part-of: payments #', 'app.kubernetes.io/part-of: payments-platform #'],
        ['  renewalPercent: 67 # the CRD default, written out: not a change\n', ''],
        ['  format: pem\n', ''],
      ],
      moves: [],
    },
  ],
};

// --- 1Password ------------------------------------------------------------------------------

const onePassword: Scenario = {
  name: '1Password OnePasswordItem',
  docs: [
    `# The operator syncs the item into a Secret named like this resource: "shop-db".
apiVersion: onepassword.com/v1
kind: OnePasswordItem
metadata:
  name: shop-db
  namespace: shop
  labels:
    app.kubernetes.io/part-of: shop # copied onto the Secret; not part of the checksum
type: kubernetes.io/basic-auth
spec:
  itemPath: vaults/shop-prod/items/database
`,
    `apiVersion: onepassword.com/v1
kind: OnePasswordItem
metadata:
  name: shop-stripe
  namespace: shop
spec:
  itemPath: vaults/shop-prod/items/stripe
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-api
  namespace: shop
  annotations:
    operator.1password.io/auto-restart: "true"
spec:
  selector:
    matchLabels:
      app: shop-api
  template:
    metadata:
      labels:
        app: shop-api
    spec:
      containers:
        - name: api
          image: ghcr.io/example/shop-api:3.2.0
          env:
            - name: DB_USER
              valueFrom:
                secretKeyRef:
                  name: shop-db
                  key: username
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-worker
  namespace: shop
spec:
  selector:
    matchLabels:
      app: shop-worker
  template:
    metadata:
      labels:
        app: shop-worker
    spec:
      containers:
        - name: worker
          image: ghcr.io/example/shop-worker:3.2.0
          envFrom:
            - secretRef:
                name: shop-db
            - secretRef:
                name: shop-stripe
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-admin
  namespace: shop
  annotations:
    secret-rollout/ignore: "true"
spec:
  selector:
    matchLabels:
      app: shop-admin
  template:
    metadata:
      labels:
        app: shop-admin
    spec:
      containers:
        - name: admin
          image: ghcr.io/example/shop-admin:1.0.0
          envFrom:
            - secretRef:
                name: shop-db
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-web
  namespace: shop
spec:
  selector:
    matchLabels:
      app: shop-web
  template:
    metadata:
      labels:
        app: shop-web
    spec:
      containers:
        - name: web
          image: ghcr.io/example/shop-web:3.2.0
          envFrom:
            - secretRef:
                name: shop-web-config
`,
  ],
  carriers: ['Deployment shop/shop-api:spec.template', 'Deployment shop/shop-worker:spec.template'],
  order: [
    ['OnePasswordItem shop/shop-db', 'Deployment shop/shop-api'],
    ['OnePasswordItem shop/shop-db', 'Deployment shop/shop-worker'],
    ['OnePasswordItem shop/shop-db', 'Deployment shop/shop-admin'],
    ['OnePasswordItem shop/shop-stripe', 'Deployment shop/shop-worker'],
  ],
  optedOut: [['Deployment shop/shop-admin', 'OnePasswordItem shop/shop-db']],
  results: [
    {
      severity: 'warning',
      on: 'Deployment shop/shop-api',
      has: ['1Password', 'operator.1password.io/auto-restart'],
    },
  ],
  changes: [
    {
      name: 'itemPath changed',
      edit: [
        [
          'itemPath: vaults/shop-prod/items/database',
          'itemPath: vaults/shop-prod/items/database-v2',
        ],
      ],
      moves: [
        'Deployment shop/shop-api:spec.template',
        'Deployment shop/shop-worker:spec.template',
      ],
    },
    {
      name: 'the top-level type changed',
      edit: [['type: kubernetes.io/basic-auth', 'type: Opaque']],
      moves: [
        'Deployment shop/shop-api:spec.template',
        'Deployment shop/shop-worker:spec.template',
      ],
    },
    {
      name: 'the other item changed',
      edit: [
        ['itemPath: vaults/shop-prod/items/stripe', 'itemPath: vaults/shop-prod/items/stripe-live'],
      ],
      moves: ['Deployment shop/shop-worker:spec.template'],
    },
    {
      name: 'labels changed and the default type written out',
      edit: [
        ['app.kubernetes.io/part-of: shop #', 'app.kubernetes.io/part-of: shop-platform #'],
        [
          '  namespace: shop\nspec:\n  itemPath: vaults/shop-prod/items/stripe',
          '  namespace: shop\ntype: Opaque\nspec:\n  itemPath: vaults/shop-prod/items/stripe',
        ],
      ],
      moves: [],
    },
  ],
};

// --- Doppler -------------------------------------------------------------------------------

const doppler: Scenario = {
  name: 'Doppler DopplerSecret',
  docs: [
    `# In the operator's namespace, writing the managed Secret into the app's namespace.
apiVersion: secrets.doppler.com/v1alpha1
kind: DopplerSecret
metadata:
  name: shop-prd
  namespace: doppler-operator-system
spec:
  tokenSecret:
    name: doppler-token-secret
  project: shop
  config: prd
  resyncSeconds: 60 # not part of the checksum
  managedSecret:
    name: shop-env
    namespace: shop
    type: Opaque # the default: not a change
`,
    `# No managedSecret.namespace: the Secret lands in the DopplerSecret's own namespace.
apiVersion: secrets.doppler.com/v1alpha1
kind: DopplerSecret
metadata:
  name: jobs-prd
  namespace: jobs
spec:
  tokenSecret:
    name: doppler-token-jobs
  project: jobs
  config: prd
  managedSecret:
    name: jobs-env
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-api
  namespace: shop
  annotations:
    secrets.doppler.com/reload: "true"
spec:
  selector:
    matchLabels:
      app: shop-api
  template:
    metadata:
      labels:
        app: shop-api
    spec:
      containers:
        - name: api
          image: ghcr.io/example/shop-api:3.2.0
          envFrom:
            - secretRef:
                name: shop-env
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-legacy
  namespace: shop
spec:
  selector:
    matchLabels:
      app: shop-legacy
  template:
    metadata:
      labels:
        app: shop-legacy
      annotations:
        secret-rollout/ignore: "true"
    spec:
      containers:
        - name: legacy
          image: ghcr.io/example/shop-legacy:0.9.0
          envFrom:
            - secretRef:
                name: shop-env
`,
    `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: jobs
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: nightly
        spec:
          restartPolicy: OnFailure
          containers:
            - name: nightly
              image: ghcr.io/example/nightly:1.0.0
              envFrom:
                - secretRef:
                    name: jobs-env
`,
  ],
  carriers: [
    'Deployment shop/shop-api:spec.template',
    'CronJob jobs/nightly:spec.jobTemplate.spec.template',
  ],
  order: [
    ['DopplerSecret doppler-operator-system/shop-prd', 'Deployment shop/shop-api'],
    ['DopplerSecret doppler-operator-system/shop-prd', 'Deployment shop/shop-legacy'],
    ['DopplerSecret jobs/jobs-prd', 'CronJob jobs/nightly'],
  ],
  optedOut: [['Deployment shop/shop-legacy', 'DopplerSecret doppler-operator-system/shop-prd']],
  results: [
    {
      severity: 'warning',
      on: 'Deployment shop/shop-api',
      has: ['Doppler', 'secrets.doppler.com/reload'],
    },
  ],
  changes: [
    {
      name: 'the config changed',
      edit: [['project: shop\n  config: prd', 'project: shop\n  config: prd_eu']],
      moves: ['Deployment shop/shop-api:spec.template'],
    },
    {
      name: 'the other DopplerSecret changed',
      edit: [['project: jobs', 'project: jobs-v2']],
      moves: ['CronJob jobs/nightly:spec.jobTemplate.spec.template'],
    },
    {
      name: 'resyncSeconds changed and the default type removed',
      edit: [
        ['resyncSeconds: 60', 'resyncSeconds: 300'],
        ['    type: Opaque # the default: not a change\n', ''],
      ],
      moves: [],
    },
  ],
};

// --- Bitwarden -----------------------------------------------------------------------------

const bitwarden: Scenario = {
  name: 'Bitwarden BitwardenSecret',
  docs: [
    `apiVersion: k8s.bitwarden.com/v1
kind: BitwardenSecret
metadata:
  name: shop-db
  namespace: shop
  labels:
    app.kubernetes.io/part-of: shop
spec:
  organizationId: a08a8157-129e-4002-bab4-b118014ca9c7
  secretName: shop-db
  map:
    - bwSecretId: 6c230265-d472-45f7-b763-b11b01023ca6
      secretKeyName: username
    - bwSecretId: d132a5ed-12bd-49af-9b74-b11b01025d58
      secretKeyName: password
  authToken:
    secretName: bw-auth-token
    secretKey: token
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-api
  namespace: shop
spec:
  selector:
    matchLabels:
      app: shop-api
  template:
    metadata:
      labels:
        app: shop-api
    spec:
      containers:
        - name: api
          image: ghcr.io/example/shop-api:3.2.0
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: shop-db
                  key: password
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-migrate
  namespace: shop
spec:
  selector:
    matchLabels:
      app: shop-migrate
  template:
    metadata:
      labels:
        app: shop-migrate
    spec:
      containers:
        - name: migrate
          image: ghcr.io/example/shop-migrate:3.2.0
          env:
            - name: DB_USERNAME
              valueFrom:
                secretKeyRef:
                  name: shop-db
                  key: username
`,
    `apiVersion: batch/v1
kind: CronJob
metadata:
  name: shop-backup
  namespace: shop
  annotations:
    secret-rollout/ignore: "true"
spec:
  schedule: "0 1 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: backup
              image: ghcr.io/example/shop-backup:1.0.0
              envFrom:
                - secretRef:
                    name: shop-db
`,
  ],
  carriers: [
    'Deployment shop/shop-api:spec.template',
    'Deployment shop/shop-migrate:spec.template',
  ],
  order: [
    ['BitwardenSecret shop/shop-db', 'Deployment shop/shop-api'],
    ['BitwardenSecret shop/shop-db', 'Deployment shop/shop-migrate'],
    ['BitwardenSecret shop/shop-db', 'CronJob shop/shop-backup'],
  ],
  optedOut: [['CronJob shop/shop-backup', 'BitwardenSecret shop/shop-db']],
  results: [],
  changes: [
    {
      name: 'the secret mapped to password changed',
      edit: [
        [
          'bwSecretId: d132a5ed-12bd-49af-9b74-b11b01025d58',
          'bwSecretId: 0e4b7f8a-1c2d-4e5f-8a9b-b11b01025d59',
        ],
      ],
      moves: ['Deployment shop/shop-api:spec.template'],
    },
    {
      name: 'the organization changed',
      edit: [
        [
          'organizationId: a08a8157-129e-4002-bab4-b118014ca9c7',
          'organizationId: b19b9268-230f-4113-cbc5-c229125db8d8',
        ],
      ],
      moves: [
        'Deployment shop/shop-api:spec.template',
        'Deployment shop/shop-migrate:spec.template',
      ],
    },
    {
      name: 'labels changed and the defaults written out',
      edit: [
        ['app.kubernetes.io/part-of: shop', 'app.kubernetes.io/part-of: shop-platform'],
        [
          '  secretName: shop-db\n  map:',
          '  secretName: shop-db\n  onlyMappedSecrets: true\n  useSecretNames: false\n  map:',
        ],
      ],
      moves: [],
    },
  ],
};

// --- Infisical -----------------------------------------------------------------------------

const infisical: Scenario = {
  name: 'Infisical InfisicalSecret',
  docs: [
    `apiVersion: secrets.infisical.com/v1alpha1
kind: InfisicalSecret
metadata:
  name: shop-secrets
  namespace: infisical
spec:
  hostAPI: https://app.infisical.com/api
  resyncInterval: 60 # not part of the checksum
  authentication:
    universalAuth:
      credentialsRef:
        secretName: universal-auth-credentials
        secretNamespace: infisical
      secretsScope:
        projectSlug: shop
        envSlug: prod
        secretsPath: /
  managedKubeSecretReferences:
    - secretName: shop-env
      secretNamespace: shop
      creationPolicy: Orphan # ownership only: not part of the checksum
    - secretName: shop-db-url
      secretNamespace: jobs
      template:
        includeAllSecrets: false
        data:
          DATABASE_URL: "postgres://{{ .DB_USER.Value }}:{{ .DB_PASSWORD.Value }}@db.shop:5432/shop"
`,
    `# The deprecated single reference.
apiVersion: secrets.infisical.com/v1alpha1
kind: InfisicalSecret
metadata:
  name: legacy
  namespace: infisical
spec:
  hostAPI: https://app.infisical.com/api
  authentication:
    universalAuth:
      credentialsRef:
        secretName: universal-auth-credentials
        secretNamespace: infisical
      secretsScope:
        projectSlug: legacy
        envSlug: prod
        secretsPath: /legacy
  managedSecretReference:
    secretName: legacy-env
    secretNamespace: legacy
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-api
  namespace: shop
  annotations:
    secrets.infisical.com/auto-reload: "true"
spec:
  selector:
    matchLabels:
      app: shop-api
  template:
    metadata:
      labels:
        app: shop-api
    spec:
      containers:
        - name: api
          image: ghcr.io/example/shop-api:3.2.0
          envFrom:
            - secretRef:
                name: shop-env
`,
    `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: shop-cache
  namespace: shop
  annotations:
    secret-rollout/ignore: "true"
spec:
  serviceName: shop-cache
  selector:
    matchLabels:
      app: shop-cache
  template:
    metadata:
      labels:
        app: shop-cache
    spec:
      containers:
        - name: cache
          image: ghcr.io/example/shop-cache:1.0.0
          envFrom:
            - secretRef:
                name: shop-env
`,
    `apiVersion: batch/v1
kind: CronJob
metadata:
  name: shop-cleanup
  namespace: jobs
spec:
  schedule: "30 2 * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: shop-cleanup
        spec:
          restartPolicy: OnFailure
          containers:
            - name: cleanup
              image: ghcr.io/example/shop-cleanup:0.9.0
              env:
                - name: DATABASE_URL
                  valueFrom:
                    secretKeyRef:
                      name: shop-db-url
                      key: DATABASE_URL
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: legacy-app
  namespace: legacy
spec:
  selector:
    matchLabels:
      app: legacy-app
  template:
    metadata:
      labels:
        app: legacy-app
    spec:
      containers:
        - name: app
          image: ghcr.io/example/legacy-app:4.0.0
          envFrom:
            - secretRef:
                name: legacy-env
`,
  ],
  carriers: [
    'Deployment shop/shop-api:spec.template',
    'CronJob jobs/shop-cleanup:spec.jobTemplate.spec.template',
    'Deployment legacy/legacy-app:spec.template',
  ],
  order: [
    ['InfisicalSecret infisical/shop-secrets', 'Deployment shop/shop-api'],
    ['InfisicalSecret infisical/shop-secrets', 'StatefulSet shop/shop-cache'],
    ['InfisicalSecret infisical/shop-secrets', 'CronJob jobs/shop-cleanup'],
    ['InfisicalSecret infisical/legacy', 'Deployment legacy/legacy-app'],
  ],
  optedOut: [['StatefulSet shop/shop-cache', 'InfisicalSecret infisical/shop-secrets']],
  results: [
    {
      severity: 'warning',
      on: 'Deployment shop/shop-api',
      has: ['Infisical', 'secrets.infisical.com/auto-reload'],
    },
  ],
  changes: [
    {
      name: 'the environment changed',
      edit: [
        ['projectSlug: shop\n        envSlug: prod', 'projectSlug: shop\n        envSlug: staging'],
      ],
      moves: [
        'Deployment shop/shop-api:spec.template',
        'CronJob jobs/shop-cleanup:spec.jobTemplate.spec.template',
      ],
    },
    {
      name: 'one reference template changed',
      edit: [['@db.shop:5432/shop', '@db.shop:6432/shop']],
      moves: ['CronJob jobs/shop-cleanup:spec.jobTemplate.spec.template'],
    },
    {
      name: 'the deprecated reference source changed',
      edit: [['secretsPath: /legacy', 'secretsPath: /legacy/v2']],
      moves: ['Deployment legacy/legacy-app:spec.template'],
    },
    {
      name: 'resyncInterval and creationPolicy changed',
      edit: [
        ['resyncInterval: 60', 'resyncInterval: 30'],
        ['creationPolicy: Orphan', 'creationPolicy: Owner'],
      ],
      moves: [],
    },
  ],
};

// --- double restarts and opt-outs on ExternalSecret consumers -----------------------------------

const deployment = (
  name: string,
  opts: { meta?: string; template?: string; kind?: string; secret?: string } = {},
) =>
  `apiVersion: apps/v1
kind: ${opts.kind ?? 'Deployment'}
metadata:
  name: ${name}
  namespace: shop
${opts.meta ? `  annotations:\n    ${opts.meta}\n` : ''}spec:
${opts.kind === 'StatefulSet' ? `  serviceName: ${name}\n` : ''}  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
${opts.template ? `      annotations:\n        ${opts.template}\n` : ''}    spec:
      containers:
        - name: ${name}
          image: registry.example.com/shop/${name}:1.0.0
          envFrom:
            - secretRef:
                name: ${opts.secret ?? 'shop-db'}
`;

const doubleRestart: Scenario = {
  name: 'double restarts and opt-outs',
  docs: [
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: shop-db
  namespace: shop
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault-backend
    kind: ClusterSecretStore
  data:
    - secretKey: password
      remoteRef:
        key: shop/db
        property: password
        version: "4"
`,
    `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultStaticSecret
metadata:
  name: checkout-signing
  namespace: shop
spec:
  vaultAuthRef: shop-auth
  mount: kvv2
  type: kv-v2
  path: shop/checkout/signing
  version: 2
  destination:
    name: checkout-signing
    create: true
  rolloutRestartTargets:
    - kind: Deployment
      name: checkout
`,
    deployment('catalog', { meta: 'reloader.stakater.com/auto: "true"' }),
    deployment('inventory', { template: 'reloader.stakater.com/auto: "true"' }),
    deployment('search', { template: 'secret.reloader.stakater.com/reload: shop-db' }),
    deployment('cart', { meta: 'wave.pusher.com/update-on-config-change: "true"' }),
    deployment('accounts', { meta: 'operator.1password.io/auto-restart: "true"' }),
    deployment('profile', { meta: 'secrets.doppler.com/reload: "true"' }),
    deployment('orders', {
      meta: 'secrets.infisical.com/auto-reload: "true"',
      kind: 'StatefulSet',
    }),
    deployment('checkout', { secret: 'checkout-signing' }),
    deployment('legacy-worker', {
      meta: 'secret-rollout/ignore: "true"\n    reloader.stakater.com/auto: "true"',
    }),
    deployment('ledger', {
      template: 'secret-rollout/ignore: "true"\n        reloader.stakater.com/auto: "true"',
      kind: 'StatefulSet',
    }),
    deployment('plain'),
  ],
  carriers: [
    'Deployment shop/catalog:spec.template',
    'Deployment shop/inventory:spec.template',
    'Deployment shop/search:spec.template',
    'Deployment shop/cart:spec.template',
    'Deployment shop/accounts:spec.template',
    'Deployment shop/profile:spec.template',
    'StatefulSet shop/orders:spec.template',
    'Deployment shop/checkout:spec.template',
    'Deployment shop/plain:spec.template',
  ],
  order: [
    ...[
      'Deployment shop/catalog',
      'Deployment shop/inventory',
      'Deployment shop/search',
      'Deployment shop/cart',
      'Deployment shop/accounts',
      'Deployment shop/profile',
      'StatefulSet shop/orders',
      'Deployment shop/legacy-worker',
      'StatefulSet shop/ledger',
      'Deployment shop/plain',
    ].map((w): [string, string] => ['ExternalSecret shop/shop-db', w]),
    ['VaultStaticSecret shop/checkout-signing', 'Deployment shop/checkout'],
  ],
  optedOut: [
    ['Deployment shop/legacy-worker', 'ExternalSecret shop/shop-db'],
    ['StatefulSet shop/ledger', 'ExternalSecret shop/shop-db'],
  ],
  results: [
    {
      severity: 'warning',
      on: 'Deployment shop/catalog',
      has: ['Stakater Reloader', 'reloader.stakater.com/auto'],
    },
    {
      severity: 'warning',
      on: 'Deployment shop/inventory',
      has: ['Stakater Reloader', 'reloader.stakater.com/auto', 'pod template'],
    },
    {
      severity: 'warning',
      on: 'Deployment shop/search',
      has: ['Stakater Reloader', 'secret.reloader.stakater.com/reload'],
    },
    {
      severity: 'warning',
      on: 'Deployment shop/cart',
      has: ['wave', 'wave.pusher.com/update-on-config-change'],
    },
    {
      severity: 'warning',
      on: 'Deployment shop/accounts',
      has: ['1Password', 'operator.1password.io/auto-restart'],
    },
    {
      severity: 'warning',
      on: 'Deployment shop/profile',
      has: ['Doppler', 'secrets.doppler.com/reload'],
    },
    {
      severity: 'warning',
      on: 'StatefulSet shop/orders',
      has: ['Infisical', 'secrets.infisical.com/auto-reload'],
    },
    {
      severity: 'warning',
      on: 'Deployment shop/checkout',
      has: [
        'Vault Secrets Operator',
        'VaultStaticSecret shop/checkout-signing',
        'rolloutRestartTargets',
      ],
    },
  ],
  changes: [
    {
      name: 'the ExternalSecret version bumped',
      edit: [['version: "4"', 'version: "5"']],
      moves: [
        'Deployment shop/catalog:spec.template',
        'Deployment shop/inventory:spec.template',
        'Deployment shop/search:spec.template',
        'Deployment shop/cart:spec.template',
        'Deployment shop/accounts:spec.template',
        'Deployment shop/profile:spec.template',
        'StatefulSet shop/orders:spec.template',
        'Deployment shop/plain:spec.template',
      ],
    },
    {
      name: 'the VaultStaticSecret version bumped',
      edit: [['  version: 2\n', '  version: 3\n']],
      moves: ['Deployment shop/checkout:spec.template'],
    },
    {
      name: 'refreshInterval changed',
      edit: [['refreshInterval: 1h', 'refreshInterval: 10m']],
      moves: [],
    },
  ],
};

// --- As the operators' own docs and samples write them, quirks included ---------------------------
// Trailing spaces, `key  :`, comment-only lines, single-quoted 'true', kind before apiVersion,
// quoted names, blank lines inside a mapping, unindented lists, items without a namespace.

const ws = '  ';

const verbatim: Scenario = {
  name: 'manifests verbatim from the operators docs',
  docs: [
    `apiVersion: external-secrets.io/v1
kind: SecretStore
metadata:
  name: vault-backend
  namespace: default
spec:
  provider:
    vault:
      server: "http://my.vault.server:8200"
      path: "secret"
      # Version is the Vault KV secret engine version.
      # This can be either "v1" or "v2", defaults to "v2"
      version: "v2"
      auth:
        # points to a secret that contains a vault token
        # https://www.vaultproject.io/docs/auth/token
        tokenSecretRef:
          name: "vault-token"
          key: "token"
`,
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: "rabbitmq-consumer-secrets"
  namespace: default
spec:
  refreshInterval: "30m"
  secretStoreRef:
    name: vault-backend
    kind: SecretStore
  target:
    name: rabbitmq-consumer-secrets
  data:
  - secretKey: RabbitMqHost
    remoteRef:
      key: rabbitmq
      property: host
      version: "2"
`,
    `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata:
  name: rabbitmq-consumer
  namespace: default
spec:
  jobTargetRef:
    template:
      spec:
        containers:
          - name: rabbitmq-client
            image: ghcr.io/kedacore/rabbitmq-client:v1.0
            imagePullPolicy: Always
            command: ["receive",  "amqp://user:PASSWORD@rabbitmq.default.svc.cluster.local:5672", "job"]
            envFrom:
              - secretRef:
                  name: rabbitmq-consumer-secrets
        restartPolicy: Never
    backoffLimit: 4${ws}
  pollingInterval: 10             # Optional. Default: 30 seconds
  maxReplicaCount: 30             # Optional. Default: 100
  successfulJobsHistoryLimit: 3   # Optional. Default: 100. How many completed jobs should be kept.
  failedJobsHistoryLimit: 2       # Optional. Default: 100. How many failed jobs should be kept.
  scalingStrategy:
    strategy: "custom"
    customScalingQueueLengthDeduction: 1
    customScalingRunningJobPercentage: "0.5"
  triggers:
  - type: rabbitmq
    metadata:
      queueName: hello
      host: RabbitMqHost
      queueLength  : '5'
`,
    `apiVersion: secrets-store.csi.x-k8s.io/v1
kind: SecretProviderClass
metadata:
  name: azure-sync
spec:
  provider: azure${ws}${ws}
  secretObjects:                              # [OPTIONAL] SecretObjects defines the desired state of synced Kubernetes secret objects
  - data:
    - key: username                           # data field to populate
      objectName: foo1                        # name of the mounted content to sync; this could be the object name or the object alias
    secretName: foosecret                     # name of the Kubernetes secret object
    type: Opaque                              # type of Kubernetes secret object (for example, Opaque, kubernetes.io/tls)
  parameters:
    usePodIdentity: "false"
    keyvaultName: "$KEYVAULT_NAME"
    objects:  |
      array:
        - |
          objectName: foo1
          objectType: secret
    tenantId: "$TENANT_ID"
`,
    `kind: Pod
apiVersion: v1
metadata:
  name: busybox-secrets-store-inline
spec:
  containers:
  - name: busybox
    image: registry.k8s.io/e2e-test-images/busybox:1.29-4
    command:
    - "/bin/sleep"
    - "10000"
    volumeMounts:
    - name: secrets-store-inline
      mountPath: "/mnt/secrets-store"
      readOnly: true
  volumes:
    - name: secrets-store-inline
      csi:
        driver: secrets-store.csi.k8s.io
        readOnly: true
        volumeAttributes:
          secretProviderClass: "azure-sync"
        nodePublishSecretRef:                       # Only required when using service principal mode
          name: secrets-store-creds                 # Only required when using service principal mode
`,
    `kind: Deployment
apiVersion: apps/v1
metadata:
  name: busybox-deployment
  labels:
    app: busybox
spec:
  replicas: 1
  selector:
    matchLabels:
      app: busybox
  template:
    metadata:
      labels:
        app: busybox
    spec:
      terminationGracePeriodSeconds: 0
      containers:
      - image: registry.k8s.io/e2e-test-images/busybox:1.29-4
        name: busybox
        imagePullPolicy: IfNotPresent
        command:
        - "/bin/sleep"
        - "10000"
        env:
        - name: SECRET_USERNAME
          valueFrom:
            secretKeyRef:
              name: foosecret
              key: username
        volumeMounts:
        - name: secrets-store-inline
          mountPath: "/mnt/secrets-store"
          readOnly: true
      volumes:
        - name: secrets-store-inline
          csi:
            driver: secrets-store.csi.k8s.io
            readOnly: true
            volumeAttributes:
              secretProviderClass: "azure-sync"
            nodePublishSecretRef:
              name: secrets-store-creds
`,
    `apiVersion: secrets.doppler.com/v1alpha1
kind: DopplerSecret
metadata:
  name: dopplersecret-test # DopplerSecret Name
  namespace: doppler-operator-system
spec:
  tokenSecret: # Kubernetes service token secret (namespace defaults to doppler-operator-system)
    name: doppler-token-secret
  managedSecret: # Kubernetes managed secret (will be created if does not exist)
    name: doppler-test-secret
    namespace: default # Should match the namespace of deployments that will use the secret
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: doppler-test-deployment-envfrom
  namespace: default
  annotations:
    secrets.doppler.com/reload: 'true'
spec:
  replicas: 2
  selector:
    matchLabels:
      app: doppler-test
  template:
    metadata:
      labels:
        app: doppler-test
    spec:
      containers:
        - name: doppler-test
          image: alpine
          command:
            - /bin/sh
            - -c
            # Print all non-Kubernetes environment variables
            - apk add --no-cache tini > /dev/null 2>&1 &&
              echo "### This is a simple deployment running with this env:" &&
              printenv | grep -v KUBERNETES_ &&
              tini -s tail -f /dev/null
          imagePullPolicy: Always
          envFrom:
            - secretRef:
                name: doppler-test-secret # Kubernetes secret name
          resources:
            requests:
              memory: '250Mi'
              cpu: '250m'
            limits:
              memory: '250Mi'
              cpu: '500m'
`,
    `apiVersion: onepassword.com/v1
kind: OnePasswordItem
metadata:
  name: my-item #this name will also be used for naming the generated kubernetes secret
spec:
  itemPath: "vaults/Production/items/Database"${ws}
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: example-deployment
  annotations:
    operator.1password.io/auto-restart: "true"
spec:
  selector:
    matchLabels:
      app: example
  template:
    metadata:
      labels:
        app: example
    spec:
      containers:
      - name: example
        image: ghcr.io/example/app:1.0.0
        env:
          - name: DB_PASSWORD
            valueFrom:
              secretKeyRef:
                name: my-item
                key: password
`,
    `apiVersion: secrets.infisical.com/v1alpha1
kind: InfisicalSecret
metadata:
  name: infisicalsecret-sample
  labels:
    label-to-be-passed-to-managed-secret: sample-value
  annotations:
    example.com/annotation-to-be-passed-to-managed-secret: "sample-value"
spec:
  hostAPI: https://app.infisical.com/api
  resyncInterval: 10
  authentication:
    universalAuth:
      secretsScope:
        projectSlug: my-project
        envSlug: prod # "dev", "staging", "prod", etc..
        secretsPath: "/path"
        recursive: true
      credentialsRef:
        secretName: universal-auth-credentials
        secretNamespace: default

  managedKubeSecretReferences:
    - secretName: managed-secret
      secretNamespace: default
      creationPolicy: "Orphan"
      template:
        includeAllSecrets: true
        data:
          NEW_KEY_NAME: "{{ .KEY.SecretPath }} {{ .KEY.Value }}"
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  namespace: default
  labels:
    app: nginx
  annotations:
    secrets.infisical.com/auto-reload: "true"
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        envFrom:
        - secretRef:
            name: managed-secret
        ports:
        - containerPort: 80
`,
    `apiVersion: k8s.bitwarden.com/v1
kind: BitwardenSecret
metadata:
  labels:
    app.kubernetes.io/name: bitwardensecret
    app.kubernetes.io/instance: bitwardensecret-sample
    app.kubernetes.io/part-of: sm-operator
    app.kubernetes.io/managed-by: kustomize
    app.kubernetes.io/created-by: sm-operator
  name: bitwardensecret-sample
spec:
  organizationId: "a08a8157-129e-4002-bab4-b118014ca9c7"
  secretName: bw-sample-secret
  map:
    - bwSecretId: 6c230265-d472-45f7-b763-b11b01023ca6
      secretKeyName: test__secret__1
    - bwSecretId: d132a5ed-12bd-49af-9b74-b11b01025d58
      secretKeyName: test__secret__2
  authToken:
    secretName: bw-auth-token
    secretKey: token
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bw-consumer
spec:
  selector:
    matchLabels:
      app: bw-consumer
  template:
    metadata:
      labels:
        app: bw-consumer
    spec:
      containers:
        - name: app
          image: ghcr.io/example/app:1.0.0
          env:
            - name: SECRET_1
              valueFrom:
                secretKeyRef:
                  name: bw-sample-secret
                  key: test__secret__1
`,
    `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultDynamicSecret
metadata:
  namespace: app
  name: vso-db-demo
spec:
  mount: db
  path: creds/dev-postgres
  destination:
    create: true
    name: vso-db-demo
  rolloutRestartTargets:
  - kind: Deployment
    name: vso-db-demo
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: vso-db-demo
  namespace: app
  labels:
    test: vso-db-demo
spec:
  replicas: 3
  strategy:
    rollingUpdate:
      maxUnavailable: 1
  selector:
    matchLabels:
      test: vso-db-demo
  template:
    metadata:
      labels:
        test: vso-db-demo
    spec:
      volumes:
        - name: secrets
          secret:
            secretName: "vso-db-demo"
      containers:
        - name: example
          image: nginx:latest
          volumeMounts:
            - name: secrets
              mountPath: /etc/secrets
              readOnly: true
`,
    `apiVersion: generators.external-secrets.io/v1alpha1
kind: Password
metadata:
  name: my-password
spec:
  length: 42
  digits: 5
  symbols: 5
  symbolCharacters: "-_$@"
  noUpper: false
  allowRepeat: true
`,
    `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: "password"
spec:
  refreshPolicy: OnChange
  target:
    name: password-secret
  dataFrom:
  - sourceRef:
      generatorRef:
        apiVersion: generators.external-secrets.io/v1alpha1
        kind: Password
        name: "my-password"
`,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: password-consumer
spec:
  selector:
    matchLabels:
      app: password-consumer
  template:
    metadata:
      labels:
        app: password-consumer
    spec:
      containers:
        - name: app
          image: ghcr.io/example/app:1.0.0
          envFrom:
            - secretRef:
                name: password-secret
`,
  ],
  carriers: [
    'ScaledJob default/rabbitmq-consumer:spec.jobTargetRef.template',
    'Deployment busybox-deployment:spec.template',
    'Deployment default/doppler-test-deployment-envfrom:spec.template',
    'Deployment example-deployment:spec.template',
    'Deployment default/nginx-deployment:spec.template',
    'Deployment bw-consumer:spec.template',
    'Deployment app/vso-db-demo:spec.template',
    'Deployment password-consumer:spec.template',
  ],
  deps: ['ExternalSecret password'],
  order: [
    ['SecretStore default/vault-backend', 'ExternalSecret default/rabbitmq-consumer-secrets'],
    ['ExternalSecret default/rabbitmq-consumer-secrets', 'ScaledJob default/rabbitmq-consumer'],
    ['SecretProviderClass azure-sync', 'Deployment busybox-deployment'],
    ['SecretProviderClass azure-sync', 'Pod busybox-secrets-store-inline'],
    [
      'DopplerSecret doppler-operator-system/dopplersecret-test',
      'Deployment default/doppler-test-deployment-envfrom',
    ],
    ['OnePasswordItem my-item', 'Deployment example-deployment'],
    ['InfisicalSecret infisicalsecret-sample', 'Deployment default/nginx-deployment'],
    ['BitwardenSecret bitwardensecret-sample', 'Deployment bw-consumer'],
    ['VaultDynamicSecret app/vso-db-demo', 'Deployment app/vso-db-demo'],
    ['Password my-password', 'ExternalSecret password'],
    ['ExternalSecret password', 'Deployment password-consumer'],
  ],
  optedOut: [],
  results: [
    { severity: 'info', on: 'ScaledJob default/rabbitmq-consumer', has: ['KEDA'] },
    {
      severity: 'info',
      on: 'Pod busybox-secrets-store-inline',
      has: ['bare Pod', 'SecretProviderClass azure-sync'],
    },
    {
      severity: 'warning',
      on: 'Deployment default/doppler-test-deployment-envfrom',
      has: ['Doppler', 'secrets.doppler.com/reload'],
    },
    {
      severity: 'warning',
      on: 'Deployment example-deployment',
      has: ['1Password', 'operator.1password.io/auto-restart'],
    },
    {
      severity: 'warning',
      on: 'Deployment default/nginx-deployment',
      has: ['Infisical', 'secrets.infisical.com/auto-reload'],
    },
    {
      severity: 'warning',
      on: 'Deployment app/vso-db-demo',
      has: [
        'Vault Secrets Operator',
        'VaultDynamicSecret app/vso-db-demo',
        'rolloutRestartTargets',
      ],
    },
  ],
  changes: [
    {
      name: 'remoteRef.version bumped',
      edit: [['version: "2"\n', 'version: "3"\n']],
      moves: ['ScaledJob default/rabbitmq-consumer:spec.jobTargetRef.template'],
    },
    {
      name: 'the key vault changed',
      edit: [['keyvaultName: "$KEYVAULT_NAME"', 'keyvaultName: "prod-kv"']],
      moves: ['Deployment busybox-deployment:spec.template'],
    },
    {
      name: 'the Doppler token changed',
      edit: [['name: doppler-token-secret', 'name: doppler-token-secret-v2']],
      moves: ['Deployment default/doppler-test-deployment-envfrom:spec.template'],
    },
    {
      name: 'the 1Password item changed',
      edit: [['items/Database', 'items/Database-v2']],
      moves: ['Deployment example-deployment:spec.template'],
    },
    {
      name: 'the Infisical environment changed',
      edit: [['envSlug: prod', 'envSlug: staging']],
      moves: ['Deployment default/nginx-deployment:spec.template'],
    },
    {
      name: 'the Bitwarden secret read changed',
      edit: [
        [
          'bwSecretId: 6c230265-d472-45f7-b763-b11b01023ca6',
          'bwSecretId: 7d341376-e583-56f8-c874-c22c12134db7',
        ],
      ],
      moves: ['Deployment bw-consumer:spec.template'],
    },
    {
      name: 'the Vault role changed',
      edit: [['path: creds/dev-postgres', 'path: creds/prod-postgres']],
      moves: ['Deployment app/vso-db-demo:spec.template'],
    },
    {
      name: 'the Password generator changed',
      edit: [['length: 42', 'length: 64']],
      moves: ['Deployment password-consumer:spec.template'],
      deps: ['ExternalSecret password'],
    },
    {
      name: 'comments, refresh settings, keys not read and defaults changed',
      edit: [
        ['# DopplerSecret Name', '# the DopplerSecret'],
        ['refreshInterval: "30m"', 'refreshInterval: "1h"'],
        ['resyncInterval: 10', 'resyncInterval: 60'],
        [
          'bwSecretId: d132a5ed-12bd-49af-9b74-b11b01025d58',
          'bwSecretId: e243b6fe-23ce-5ab0-9c85-c22c12136e69',
        ],
        ['  noUpper: false\n', ''],
      ],
      moves: [],
    },
  ],
};

const scenarios: Scenario[] = [
  scaledJobs,
  declaredTemplates,
  spc,
  templateFrom,
  generators,
  vso,
  onePassword,
  doppler,
  bitwarden,
  infisical,
  doubleRestart,
  verbatim,
];

// ---------------------------------------------------------------------------------------------
// The checks

function checkRun(sc: Scenario, format: Format, out: Output) {
  // Nothing else in the input changes.
  const changes = changedLines(out.input, out.stdout, format === 'resource list');
  expect(changes.length).toBeGreaterThan(0);

  // Exactly the right templates carry a checksum; exactly the right items checksum/dependencies.
  const sums = annotated(out.items, CHECKSUM);
  expect(Object.keys(sums).sort()).toEqual([...sc.carriers].sort());
  for (const v of Object.values(sums)) expect(v).toMatch(/^[0-9a-f]{64}$/);
  const deps = annotated(out.items, DEPS);
  expect(Object.keys(deps).sort()).toEqual((sc.deps ?? []).map((r) => `${r}:`).sort());

  // A checksum line for each carrier, a dependencies line for each: inserted, as the input has none.
  const inserted = changes.filter((c) => c.kind === 'inserted').map((c) => c.line.trim());
  expect(inserted.filter((l) => l.startsWith(`${CHECKSUM}:`))).toHaveLength(sc.carriers.length);
  expect(inserted.filter((l) => l.startsWith(`${DEPS}:`))).toHaveLength(sc.deps?.length ?? 0);

  // Waves order each source before what reads it.
  for (const [before, after] of sc.order) {
    expect(waveOf(out.items, before), `${before} before ${after}`).toBeLessThan(
      waveOf(out.items, after),
    );
  }

  // The opt-out holds: no checksum anywhere in the item, an info naming a source it reads.
  for (const [workload, source] of sc.optedOut) {
    expect(Object.keys(sums).filter((k) => k.startsWith(`${workload}:`))).toEqual([]);
    expect(
      out.results.some((r) => matches(r, { severity: 'info', on: workload, has: [source] })),
      `an info on ${workload} naming ${source}\n${out.results.join('\n')}`,
    ).toBe(true);
  }

  // Expected results are there; every warning and error is expected; absent ones are absent.
  for (const e of sc.results) {
    expect(
      out.results.some((r) => matches(r, e)),
      `${e.severity} on ${e.on} with ${e.has.join(', ')}\n${out.results.join('\n')}`,
    ).toBe(true);
  }
  const serious = out.results.filter((r) => !r.startsWith('info: '));
  for (const r of serious) {
    expect(
      sc.results.some((e) => e.severity !== 'info' && matches(r, e)),
      `unexpected: ${r}`,
    ).toBe(true);
  }
  for (const e of sc.absent ?? []) {
    expect(out.results.filter((r) => matches(r, e))).toEqual([]);
  }
}

const formats: Format[] = ['stream', 'resource list'];

describe.each(scenarios)('#15 acceptance: $name', (sc) => {
  const base: Partial<Record<Format, Output>> = {};
  const baseline = (format: Format): Output => {
    base[format] ??= render(format, sc.docs, sc);
    return base[format] as Output;
  };

  it.each(formats)(
    '%s: checksums, waves, opt-out, results, and only our lines changed',
    (format) => {
      checkRun(sc, format, baseline(format));
    },
  );

  it.each(formats)(
    '%s: a second run changes nothing; check passes on the output, fails on the input',
    (format) => {
      const first = baseline(format);
      const args = format === 'stream' ? (sc.args ?? []) : [];
      const again = cliRun(first.stdout, args);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe(first.stdout);
      const rendered = cliRun(first.stdout, ['check', ...args]);
      expect(rendered.code, rendered.stderr + rendered.stdout).toBe(0);
      const stale = cliRun(first.input, ['check', ...args]);
      expect(stale.code).toBe(1);
    },
  );

  it('stream and ResourceList agree on every checksum, wave and result', () => {
    const [s, r] = formats.map((f) => baseline(f)) as [Output, Output];
    expect(annotated(r.items, CHECKSUM)).toEqual(annotated(s.items, CHECKSUM));
    expect(annotated(r.items, DEPS)).toEqual(annotated(s.items, DEPS));
    expect(annotated(r.items, WAVE)).toEqual(annotated(s.items, WAVE));
    expect(r.results).toEqual(s.results);
  });

  describe.each(sc.changes)('$name', (change) => {
    it.each(formats)('%s: moves exactly what it should', (format) => {
      const before = baseline(format);
      const after = render(format, applyEdits(sc.docs, change.edit), sc);
      // The changed input is rendered with the same guarantees.
      changedLines(after.input, after.stdout, format === 'resource list');
      const moved = (key: string) => {
        const a = annotated(before.items, key);
        const b = annotated(after.items, key);
        expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
        return Object.keys(a)
          .filter((k) => a[k] !== b[k])
          .sort();
      };
      expect(moved(CHECKSUM)).toEqual([...change.moves].sort());
      expect(moved(DEPS)).toEqual((change.deps ?? []).map((r) => `${r}:`).sort());
    });
  });
});

describe('#15 acceptance: podTemplates is what makes the declared kind a consumer', () => {
  it.each(formats)('%s: without the option the Worker gets no checksum', (format) => {
    const out = render(format, declaredTemplates.docs, {
      ...declaredTemplates,
      args: [],
      functionConfig: undefined,
    });
    expect(annotated(out.items, CHECKSUM)).toEqual({});
    changedLines(out.input, out.stdout, format === 'resource list');
  });

  it('a ResourceList with the option as a key=value argument behaves as with the ConfigMap', () => {
    const input = asResourceList(declaredTemplates.docs);
    const out = cliRun(input, declaredTemplates.args ?? []);
    expect(out.code, out.stderr).toBe(0);
    const items = (load(out.stdout) as Obj).items as Obj[];
    expect(annotated(items, CHECKSUM)).toEqual(
      annotated(render('resource list', declaredTemplates.docs, declaredTemplates).items, CHECKSUM),
    );
  });
});

describe('the line comparison helper', () => {
  it('rejects any change that is not one of our annotation lines', () => {
    const input = 'a:\n  b: 1\n';
    expect(() => changedLines(input, 'a:\n  b: 2\n', false)).toThrow(/neither an input line/);
    expect(() => changedLines(input, 'a:\n  b: 1\n  c: 1\n', false)).toThrow(
      /neither an input line/,
    );
    expect(() => changedLines(input, 'a:\n', false)).toThrow(/missing/);
    expect(
      changedLines(input, `a:\n  annotations:\n    ${WAVE}: "-1"\n  b: 1\n`, false),
    ).toHaveLength(2);
    expect(() => changedLines(input, 'a:\n  annotations:\n  b: 1\n', false)).toThrow(
      /neither an input line/,
    );
  });
});
