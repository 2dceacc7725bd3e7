// Operator resources that read Secrets (issue #23 §2): ordered after the sources of those
// Secrets in every ordering form, an info each, no checksum; the reader table's fields are built.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/model/config.js';
import { readPlan } from '../src/rules/read-plan.js';
import {
  type ReaderNamespace,
  readerFields,
  readerRows,
} from '../src/rules/workloads/operator-references.js';
import { plan, run } from '../src/run.js';
import {
  elementsWalked,
  find,
  itemsOf,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
  wave,
} from './helpers.js';

const store = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider:
    vault: {server: "https://vault"}
`;

/** An ExternalSecret from the store: writes Secret `name` in `ci`. */
const fromStore = (name: string) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${name}
  namespace: ci
spec:
  secretStoreRef: {kind: ClusterSecretStore, name: vault}
  data:
  - secretKey: key
    remoteRef: {key: ${name}}
`;

const generator = `apiVersion: generators.external-secrets.io/v1alpha1
kind: GithubAccessToken
metadata:
  name: gh
  namespace: ci
spec:
  appID: "1"
  installID: "2"
  auth:
    privateKey:
      secretRef: {name: github-app-key, key: key}
`;

/** An ExternalSecret made by the generator. */
const fromGenerator = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: gh-token
  namespace: ci
spec:
  refreshInterval: 30m
  dataFrom:
  - sourceRef:
      generatorRef: {apiVersion: generators.external-secrets.io/v1alpha1, kind: GithubAccessToken, name: gh}
`;

/** A KEDA TriggerAuthentication reading Secret ci/rabbit-conn; `metadata`: lines to add. */
const trigger = (metadata = '') => `apiVersion: keda.sh/v1alpha1
kind: TriggerAuthentication
metadata:
  name: rabbit
  namespace: ci
${metadata}spec:
  secretTargetRef:
  - {parameter: host, name: rabbit-conn, key: host}
`;

/** A custom kind the table does not know, in `ci` unless `namespace` is empty. */
const backup = (spec: string, namespace = 'ci') =>
  `apiVersion: example.com/v1\nkind: Backup\nmetadata:\n  name: nightly\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n${spec}`;

/** The s3-creds ExternalSecret and `custom`, read by the option with a namespace path. */
const withNamespacePath = (custom: string) =>
  resourceList(
    [fromStore('s3-creds'), custom],
    'apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: x}\nsecretReferences:\n- example.com/Backup:spec.auth.secret:secretNamespace\n',
  );

type Obj = Record<string, unknown>;
const annotationsOf = (item: Obj) =>
  ((item.metadata as Obj).annotations ?? {}) as Record<string, string>;
const ruleOf = (result: Obj) => (result.tags as Obj | undefined)?.rule;
const at = (result: Obj) => (result.field as Obj | undefined)?.path;
/** The fields the `secret-reader` infos of a run's output name. */
const readFields = (out: string) =>
  resultsOf(out)
    .filter((r) => ruleOf(r) === 'secret-reader')
    .map(at);
const refKind = (result: Obj) => (result.resourceRef as Obj | undefined)?.kind;

describe('operator readers', () => {
  it('orders a generator after the ExternalSecret whose Secret it reads (was backwards: -2 before -1)', () => {
    const input = resourceList([store, fromStore('github-app-key'), generator, fromGenerator]);
    const first = runOk(input).stdout;
    const items = itemsOf(first);
    const waves = [
      wave(find(items, 'ClusterSecretStore', 'vault')),
      wave(find(items, 'ExternalSecret', 'github-app-key')),
      wave(find(items, 'GithubAccessToken', 'gh')),
      wave(find(items, 'ExternalSecret', 'gh-token')),
    ].map(Number);
    // store < key's ExternalSecret < generator < token's ExternalSecret.
    expect(waves).toEqual([...waves].sort((a, b) => a - b));
    expect(new Set(waves).size).toBe(4);
    expect(runOk(first).stdout).toBe(first);
    const infos = resultsOf(first).filter((r) => ruleOf(r) === 'secret-reader');
    expect(infos.map((r) => [refKind(r), at(r)])).toEqual([
      ['GithubAccessToken', 'spec.auth.privateKey.secretRef.name'],
    ]);
  });

  it('writes the same edge as depends-on and kapp', () => {
    const input = resourceList([fromStore('github-app-key'), generator]);
    const gh = find(
      itemsOf(runOk(input, { ordering: 'depends-on,kapp' }).stdout),
      'GithubAccessToken',
      'gh',
    );
    const annotations = annotationsOf(gh);
    expect(annotations['config.kubernetes.io/depends-on']).toBe(
      'external-secrets.io/namespaces/ci/ExternalSecret/github-app-key',
    );
    expect(
      Object.entries(annotations).some(
        ([k, v]) =>
          k.startsWith('kapp.k14s.io/change-rule') &&
          v.includes('ExternalSecret.external-secrets.io_ci_github-app-key'),
      ),
    ).toBe(true);
  });

  it('reports a store reading the Secret of an ExternalSecret that uses it as a cycle', () => {
    const reading = `apiVersion: external-secrets.io/v1
kind: SecretStore
metadata:
  name: vault
  namespace: ci
spec:
  provider:
    vault:
      server: https://vault
      auth:
        tokenSecretRef: {name: vault-token, key: token}
`;
    const es = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: vault-token
  namespace: ci
spec:
  secretStoreRef: {kind: SecretStore, name: vault}
  data:
  - secretKey: token
    remoteRef: {key: token}
`;
    const out = run(resourceList([reading, es]));
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /depend on each other \(a store or generator that reads the Secret of an ExternalSecret that uses it\)/,
      ),
    ]);
  });

  it('orders a ClusterSecretStore after the ExternalSecret whose Secret its auth names (namespace beside it)', () => {
    const tokenStore = (namespace: string) => `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault-ci
spec:
  provider:
    vault:
      server: https://vault
      auth:
        tokenSecretRef: {name: vault-token, key: token, namespace: ${namespace}}
`;
    const user = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: app
  namespace: ci
spec:
  secretStoreRef: {kind: ClusterSecretStore, name: vault-ci}
  data:
  - secretKey: k
    remoteRef: {key: app}
`;
    const wavesFor = (namespace: string) => {
      const items = itemsOf(
        runOk(resourceList([store, fromStore('vault-token'), tokenStore(namespace), user])).stdout,
      );
      return [
        wave(find(items, 'ExternalSecret', 'vault-token')),
        wave(find(items, 'ClusterSecretStore', 'vault-ci')),
        wave(find(items, 'ExternalSecret', 'app')),
      ];
    };
    expect(wavesFor('ci')).toEqual(['-3', '-2', '-1']);
    // The Secret in another namespace is not the one the ExternalSecret writes: no edge.
    expect(wavesFor('other')).toEqual(['-1', '-2', '-1']);
  });

  it('counts as a reader for unread-source: a Secret only an operator resource reads is read', () => {
    const unread = (items: string[]) =>
      resultsOf(runOk(resourceList(items)).stdout).filter((r) => ruleOf(r) === 'unread-source');
    expect(unread([store, fromStore('rabbit-conn')])).toHaveLength(1);
    expect(unread([store, fromStore('rabbit-conn'), trigger()])).toEqual([]);
  });

  it('orders a source before a reader it never moves, and writes no checksum on it', () => {
    const early = trigger('  annotations:\n    argocd.argoproj.io/sync-wave: "-5"\n');
    const items = itemsOf(runOk(resourceList([store, fromStore('rabbit-conn'), early])).stdout);
    expect(wave(find(items, 'ExternalSecret', 'rabbit-conn'))).toBe('-6');
    expect(wave(find(items, 'TriggerAuthentication', 'rabbit'))).toBe('-5');
    const reader = find(items, 'TriggerAuthentication', 'rabbit');
    expect(Object.keys(annotationsOf(reader))).toEqual(['argocd.argoproj.io/sync-wave']);
  });

  it('reads a PersistentVolume (cluster-scoped) in the namespace beside the name', () => {
    const pv = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: data
spec:
  csi:
    driver: example.csi
    volumeHandle: x
    nodeStageSecretRef: {name: csi-creds, namespace: ci}
`;
    const out = runOk(resourceList([fromStore('csi-creds'), pv]), {
      ordering: 'depends-on',
    }).stdout;
    const annotations = annotationsOf(find(itemsOf(out), 'PersistentVolume', 'data'));
    expect(annotations['config.kubernetes.io/depends-on']).toBe(
      'external-secrets.io/namespaces/ci/ExternalSecret/csi-creds',
    );
  });

  it('orders the ExternalSecret before the AlertmanagerConfig that reads its Secret (onedr0p/home-ops shape)', () => {
    // onedr0p/home-ops@2eb6f2fee9 kubernetes/apps/observability/kube-prometheus-stack/app/
    // alertmanagerconfig.yaml (receivers only) and externalsecret.yaml (@d6becc5cdb), one namespace.
    const amcfg = `apiVersion: monitoring.coreos.com/v1alpha1
kind: AlertmanagerConfig
metadata: {name: alertmanager, namespace: ci}
spec:
  route: {receiver: pushover}
  receivers:
    - name: blackhole
    - name: buddy-heartbeat
      webhookConfigs:
        - httpConfig:
            bearerTokenSecret: {name: alertmanager-secret, key: BUDDY_HEARTBEAT_TOKEN}
          urlSecret: {name: alertmanager-secret, key: BUDDY_HEARTBEAT_URL}
    - name: pushover
      pushoverConfigs:
        - token: {name: alertmanager-secret, key: ALERTMANAGER_PUSHOVER_TOKEN}
          userKey: {name: alertmanager-secret, key: PUSHOVER_USER_KEY}
`;
    // Its ExternalSecret (from the store here) writes alertmanager-secret.
    const external = fromStore('alertmanager').replace(
      'spec:\n',
      'spec:\n  target: {name: alertmanager-secret}\n',
    );
    const out = runOk(resourceList([store, external, amcfg])).stdout;
    const items = itemsOf(out);
    // The reader is never moved (wave 0, unannotated): its source goes below it.
    expect(wave(find(items, 'ExternalSecret', 'alertmanager'))).toBe('-1');
    expect(wave(find(items, 'AlertmanagerConfig', 'alertmanager'))).toBeUndefined();
    // One info for the reader and its Secret, at the first field, counting the four places.
    expect(readFields(out)).toEqual(['spec.receivers[2].pushoverConfigs[0].token.name']);
    const infos = resultsOf(out).filter((r) => ruleOf(r) === 'secret-reader');
    expect(String(infos[0]?.message)).toContain('(named at 4 places, the first here)');
    expect(runOk(out).stdout).toBe(out);
  });

  it('reads the Secrets a Prometheus mounts (spec.secrets, a list of names)', () => {
    const prometheus = `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s, namespace: ci}
spec: {secrets: [etcd-client-cert]}
`;
    const out = runOk(resourceList([store, fromStore('etcd-client-cert'), prometheus])).stdout;
    expect(readFields(out)).toEqual(['spec.secrets[0]']);
  });

  it('takes secretReferences entries for kinds the table does not know', () => {
    const custom = backup('  targets:\n  - credentials: s3-creds\n');
    const input = resourceList([fromStore('s3-creds'), custom]);
    expect(resultsOf(runOk(input).stdout).some((r) => ruleOf(r) === 'secret-reader')).toBe(false);
    const out = runOk(input, {
      secretReferences: 'example.com/Backup:spec.targets[].credentials',
    }).stdout;
    expect(readFields(out)).toEqual(['spec.targets[0].credentials']);
  });

  it('has its table built by the read plan: every row path and namespace path is projected', () => {
    const plan = readPlan({ ...defaultConfig });
    for (const row of readerFields) {
      const apiVersion = row.group === '' ? 'v1' : `${row.group}/v1`;
      expect(
        plan.passesThrough(apiVersion, row.kind),
        `${row.kind} passes through`,
      ).toBeUndefined();
      const projection = plan.projection(apiVersion, row.kind);
      if (projection === true) continue;
      let tree: unknown = projection;
      for (const step of row.path.split('.')) {
        if (tree === true) break;
        tree = (tree as Map<string, unknown>).get(step.replace(/\[\]$/, ''));
        expect(tree, `${row.kind} ${row.path}`).toBeDefined();
      }
    }
  });
});

describe('operator readers with targetNames hashed', () => {
  it('keeps the name of a Secret an operator resource reads, with a warning naming the field', () => {
    const cluster = `apiVersion: postgresql.cnpg.io/v1
kind: Cluster
metadata:
  name: db
  namespace: ci
spec:
  backup:
    barmanObjectStore:
      destinationPath: s3://backups/db
      s3Credentials:
        accessKeyId: {name: db-backup, key: ACCESS_KEY_ID}
        secretAccessKey: {name: db-backup, key: ACCESS_SECRET_KEY}
`;
    const out = runOk(resourceList([store, fromStore('db-backup'), fromStore('other'), cluster]), {
      targetNames: 'hashed',
    }).stdout;
    const items = itemsOf(out);
    const target = (name: string) =>
      ((find(items, 'ExternalSecret', name).spec as Obj).target as Obj | undefined)?.name;
    expect(target('db-backup')).toBeUndefined();
    expect(target('other')).toMatch(/^other-/);
    const unsafe = resultsOf(out).filter((r) => ruleOf(r) === 'target-name-unsafe');
    expect(unsafe.map((r) => r.message)).toEqual([
      'ExternalSecret ci/db-backup: not renamed: Cluster ci/db reads its Secret by name (spec.backup.barmanObjectStore.s3Credentials.accessKeyId.name), which a hashed name would break',
    ]);
  });

  it('a Secret read by name by a HelmRelease and an operator resource: one warning naming both', () => {
    // Each kind of by-name reader was refused in its own block, and the first to match hid the rest.
    const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: queue
  namespace: ci
  annotations:
    secret-rollout/consumes: rabbit-conn
spec:
  chart: {spec: {chart: queue, sourceRef: {kind: HelmRepository, name: charts}}}
`;
    const out = runOk(resourceList([store, fromStore('rabbit-conn'), release, trigger()]), {
      targetNames: 'hashed',
    }).stdout;
    const unsafe = resultsOf(out).filter((r) => ruleOf(r) === 'target-name-unsafe');
    expect(unsafe.map((r) => r.message)).toEqual([
      'ExternalSecret ci/rabbit-conn: not renamed: HelmRelease ci/queue reads its Secret by name (metadata.annotations[secret-rollout/consumes]) through Helm values, which targetNames: hashed cannot rewrite; TriggerAuthentication ci/rabbit reads its Secret by name (spec.secretTargetRef[0].name), which a hashed name would break',
    ]);
  });
});

describe('operator readers in plan', () => {
  const input = resourceList([store, fromStore('rabbit-conn'), trigger()]);

  it('lists a reader with what it reads, after its source', () => {
    const lines = plan(input).stdout.split('\n');
    const reader = lines.findIndex((l) => l.includes('TriggerAuthentication'));
    expect(lines[reader]).toMatch(
      /^0 +TriggerAuthentication +ci\/rabbit +reads Secret ci\/rabbit-conn \(ordered only: its controller re-reads it\)$/,
    );
    expect(lines.findIndex((l) => l.includes('ExternalSecret'))).toBeLessThan(reader);
  });

  it('gives it role reader in JSON and a dotted arrow in Mermaid', () => {
    const json = JSON.parse(plan(input, { format: 'json' }).stdout) as { nodes: Obj[] };
    const node = json.nodes.find((n) => n.kind === 'TriggerAuthentication');
    expect(node?.role).toBe('reader');
    expect(plan(input, { format: 'mermaid' }).stdout).toMatch(/ -\.-> /);
  });
});

describe('docs/secret-readers.md', () => {
  it('renders the reader table row for row', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs/secret-readers.md'), 'utf8');
    const start = doc.indexOf('<!-- readers-table');
    const rows = doc
      .slice(doc.indexOf('\n', start) + 1, doc.indexOf('<!-- /readers-table -->'))
      .trimEnd()
      .split('\n')
      .slice(2);
    const namespace = (n: ReaderNamespace) =>
      n === 'own'
        ? 'its own'
        : 'fixed' in n
          ? `\`${n.fixed}\` (fixed)`
          : `\`${n.beside}\` beside the name, else its own`;
    expect(rows).toEqual(
      readerFields.map(
        (r) =>
          `| \`${r.group || 'core'}\` | ${r.kind} | \`${r.path}\` | ${namespace(r.namespace)} |`,
      ),
    );
  });
});

describe('option secretReferences', () => {
  const errorOf = (value: string) => {
    const out = run(resourceList([store]), { settings: { secretReferences: value } });
    expect(out.exitCode).toBe(1);
    const [error] = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    return String(error?.message);
  };

  it('says what is wrong with an entry, by position, never quoting it', () => {
    for (const [value, problem] of [
      ['Backup:spec.x', 'entry 1 is not group/Kind:path.to.name[:namespace.path]'],
      ['ok.io/A:spec.a,v1/Backup:spec.x', 'entry 2 names a version, not an API group'],
      ['Example.IO/Backup:spec.x', 'entry 1 has an invalid API group'],
      ['example.io/backup-x:spec.x', 'entry 1 has an invalid kind'],
      ['example.io/Backup:spec..x', 'entry 1 has an invalid path'],
      ['example.io/Backup:spec.x:ns[]', 'entry 1 has an invalid namespace path'],
    ] as const) {
      const message = errorOf(value);
      expect(message).toMatch(
        new RegExp(`secretReferences: ${problem.replace(/[[\]().]/g, '\\$&')}`),
      );
      for (const text of ['Backup', 'backup-x', 'Example.IO', 'ns[]']) {
        if (!value.startsWith('ok.io') || text !== 'Backup') expect(message).not.toContain(text);
      }
    }
  });

  it('takes a namespace path from the mapping that holds the name, in the typed config too', () => {
    const custom = backup('  auth: {secret: s3-creds, secretNamespace: ci}\n', '');
    const input = withNamespacePath(custom);
    const infos = resultsOf(runOk(input).stdout).filter((r) => ruleOf(r) === 'secret-reader');
    expect(infos.map(at)).toEqual(['spec.auth.secret']);
  });
});

describe('secretReferences entries that are not strings', () => {
  it('are named by position and type', () => {
    const out = run(
      resourceList(
        [fromStore('s3-creds')],
        "apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: x}\nsecretReferences: ['example.com/Kind:a.b', 7]\n",
      ),
    );
    expect(out.exitCode).toBe(1);
    expect(resultsOf(out.stdout).map((r) => r.message)).toEqual([
      'functionConfig: secretReferences must be a list of group/Kind:path.to.name[:namespace.path] strings, got a list whose entry 2 is a number',
    ]);
  });
});

describe('secret-reader infos', () => {
  it('are one per reader and Secret, at the first field, counting the places', () => {
    const entries = Array.from(
      { length: 10_000 },
      (_, i) => `  - {parameter: p${i}, name: rabbit-conn, key: host}`,
    );
    const many = trigger().replace(
      '  - {parameter: host, name: rabbit-conn, key: host}',
      entries.join('\n'),
    );
    const infos = resultsOf(runOk(resourceList([fromStore('rabbit-conn'), many])).stdout).filter(
      (r) => ruleOf(r) === 'secret-reader',
    );
    expect(infos.map((r) => [r.message, at(r)])).toEqual([
      [
        'spec.secretTargetRef[0].name names Secret ci/rabbit-conn, which ExternalSecret ci/rabbit-conn writes: ordered after it; its controller re-reads the Secret, so no checksum (named at 10000 places, the first here)',
        'spec.secretTargetRef[0].name',
      ],
    ]);
  });
});

describe('a reader reference whose namespace is not a string', () => {
  it("is a malformed-field error for that field, not a look-up in the reader's own namespace", () => {
    const custom = backup('  auth: {secret: s3-creds, secretNamespace: 7}\n');
    const input = withNamespacePath(custom);
    const out = run(input);
    expect(out.exitCode).toBe(1);
    const results = resultsOf(out.stdout);
    expect(results.filter((r) => ruleOf(r) === 'secret-reader')).toEqual([]);
    expect(
      results.filter((r) => ruleOf(r) === 'malformed-field').map((r) => [r.message, at(r)]),
    ).toEqual([
      [
        'Backup ci/nightly: spec.auth.secretNamespace is a number, not a namespace',
        'spec.auth.secretNamespace',
      ],
    ]);
  });
});

describe('cost of the reader rows, counted', () => {
  it('builds the rows of 2,000 secretReferences entries of one kind in linear work', () => {
    const option = Array.from({ length: 2000 }, (_, i) => ({
      group: 'example.com',
      kind: 'Thing',
      path: `spec.f${i}.name`,
    }));
    const walked = elementsWalked(() => {
      expect(readerRows(option).get('example.com/Thing')).toHaveLength(2000);
    });
    expect(walked).toBeLessThanOrEqual(10 * 2000);
  });
});
