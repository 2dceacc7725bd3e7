// Acceptance test for issue #15 ("Done when"), end to end through the built CLI
// (dist/secret-rollout.cjs, spawned with node, input on stdin; `npm test` builds it first).
//
// Each scenario is a package of realistic manifests (as the operators' own docs write them, in
// testdata/reach/<package>/manifests.yaml, see testdata/reach/README.md), run both as a plain
// YAML stream and as a KRM ResourceList, and checked for:
// - exactly the right pod templates carry a checksum (searched anywhere in every item);
// - a relevant spec change moves exactly the expected checksums, an irrelevant one moves none;
//   a templateFrom or generator change also moves `checksum/dependencies` on exactly that
//   ExternalSecret;
// - sync waves order every source (and store, and dependency) before what reads it;
// - opted-out templates get no checksum and an info naming what they read;
// - double-restart warnings name the other mechanism, csi-sync-mount warnings the workloads that
//   mount the class; the expected warnings are all there are;
// - nothing else in the input changes: the output is the input plus (or with updated) annotation
//   lines, and for a ResourceList the results.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/secret-rollout.cjs');
// The packages' manifests, byte for byte, quirks included (testdata/reach/README.md).
const reach = path.join(root, 'testdata/reach');

const CHECKSUM = 'checksum/external-secrets';
const WAVE = 'argocd.argoproj.io/sync-wave';
const DEPS = 'checksum/dependencies';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Input builders

/** A file under testdata/reach, as it is. */
const fixture = (file: string): string => readFileSync(path.join(reach, file), 'utf8');

/**
 * The documents of testdata/reach/<dir>/manifests.yaml, each with its final newline: the file is
 * the package as asStream writes it, so splitting at the `---` lines gives the documents back.
 */
const manifests = (dir: string): string[] => fixture(`${dir}/manifests.yaml`).split(/^---\n/m);

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
    // As the stream's lines (formatResult): no brackets for a result on no resource.
    const rule = ` (${(r.tags as Obj).rule})`;
    if (r.resourceRef === undefined && r.field === undefined) {
      return `${r.severity}: ${r.message}${rule}`;
    }
    const where = `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
    return `${r.severity}: ${r.message} [${where}${field.path ? ` ${field.path}` : ''}]${rule}`;
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
  /** `Kind ns/name` the result is on; absent: a result about the run, on no resource. */
  on?: string;
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
  (e.on === undefined
    ? !line.endsWith(']')
    : line.includes(`[${e.on} `) || line.includes(`[${e.on}]`)) &&
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
  docs: manifests('keda-scaledjob'),
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
  functionConfig: fixture('pod-templates/function-config.yaml'),
  docs: manifests('pod-templates'),
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
  docs: manifests('secret-provider-class'),
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
    {
      // Reads the synced Secret without mounting the class: it exists while the others' pods run.
      severity: 'warning',
      on: 'CronJob shop/shop-report',
      has: [
        'reads Secret shop-db, which SecretProviderClass shop/shop-kv syncs, but does not mount',
        'here only pods of Deployment shop/shop-api and DaemonSet shop/shop-agent.',
      ],
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
  docs: manifests('eso-template-from'),
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
  results: [
    {
      // Without secretChecksumKey no digest of the Secret's values is written: said once.
      severity: 'warning',
      has: ['secretChecksumKey is not set', 'Secret billing/billing-ca', 'nothing rolls'],
    },
  ],
  changes: [
    {
      name: 'the template key read changed',
      edit: [['      pool: 10', '      pool: 20']],
      moves: ['Deployment billing/billing-api:spec.template'],
      deps: ['ExternalSecret billing/billing-db'],
    },
    {
      // Covered only with secretChecksumKey (test/sources/eso-dependencies.test.ts).
      name: 'the value of the Secret key read changed, without secretChecksumKey',
      edit: [
        [
          'ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==',
          'ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCgo=',
        ],
      ],
      moves: [],
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
  docs: manifests('eso-generators'),
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
  docs: manifests('vault-secrets-operator'),
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
  docs: manifests('1password'),
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
  docs: manifests('doppler'),
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
  docs: manifests('bitwarden'),
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
  docs: manifests('infisical'),
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

const doubleRestart: Scenario = {
  name: 'double restarts and opt-outs',
  docs: manifests('double-restarts'),
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

const verbatim: Scenario = {
  name: 'manifests verbatim from the operators docs',
  docs: manifests('operators-docs-verbatim'),
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
