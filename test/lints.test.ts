// Each lint: a case that must fire and a case that must not, plus severity and the Vault fix.
import { describe, expect, it } from 'vitest';
import { knownKinds, nearMiss } from '../src/rules/lints/kind-near-miss.js';
import { kindsNoRuleReads } from '../src/rules/read-plan.js';
import { sourceKinds, storeKinds } from '../src/rules/sources/index.js';
import { run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  resourceList,
  resultsOf,
  secretKeyRef,
} from './helpers.js';

const pinned = (name: string, extra = '') =>
  externalSecret(name).replace(
    '      property: user\n',
    '      property: user\n      version: "1"\n',
  ) + extra;

/** A ClusterExternalSecret making Secret `shared` in shop and billing; `version`: its remoteRef's. */
const clusterExternalSecret = (version: string) => `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: shared
spec:
  namespaces: [shop, billing]
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    data:
    - secretKey: token
      remoteRef:
        key: shared/token
${version}`;

const job = (name: string, annotations: string, secret = 'db') => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
${annotations ? `  annotations:\n${annotations.replace(/^/gm, '    ')}\n` : ''}spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        envFrom:
        - secretRef: {name: ${secret}}
`;

const vaultCronJob = (templateAnnotations: string) => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
${templateAnnotations.replace(/^/gm, '            ')}
        spec:
          restartPolicy: Never
          containers:
          - name: c
            image: report:1
`;

/** Messages of results at `severity` that match `pattern`. */
function findings(items: string[], pattern: RegExp, config = '', severity = 'warning') {
  const cm = config
    ? `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n${config}`
    : undefined;
  const out = run(resourceList(items, cm));
  return resultsOf(out.stdout)
    .filter((r) => r.severity === severity && pattern.test(String(r.message)))
    .map((r) => ({
      ref: (r.resourceRef as { name: string } | undefined)?.name,
      message: String(r.message),
    }));
}

describe('lints', () => {
  it.each([
    {
      lint: 'hook phase',
      pattern: /phase beats wave/,
      fires: [pinned('db'), job('migrate', 'argocd.argoproj.io/hook: PreSync')],
      quiet: [
        pinned('db').replace(
          '  name: db\n',
          '  name: db\n  annotations:\n    argocd.argoproj.io/hook: PreSync\n',
        ),
        job('migrate', 'argocd.argoproj.io/hook: PreSync'),
      ],
      on: 'migrate',
    },
    {
      lint: 'hook phase (Helm hook)',
      pattern: /runs in the PreSync phase/,
      fires: [pinned('db'), job('migrate', 'helm.sh/hook: pre-install,pre-upgrade')],
      quiet: [pinned('db'), job('migrate', 'helm.sh/hook: post-install')],
      on: 'migrate',
    },
    {
      // A source in a later phase than every item that is no hook: the Deployment runs in Sync.
      lint: 'hook phase (a PostSync source)',
      pattern: /runs in the Sync phase but reads Secret db .* applied in the PostSync phase/,
      fires: [
        pinned('db').replace(
          '  name: db\n',
          '  name: db\n  annotations:\n    argocd.argoproj.io/hook: PostSync\n',
        ),
        deployment('app', envFrom('db')),
      ],
      quiet: [pinned('db'), deployment('app', envFrom('db'))],
      on: 'app',
    },
    {
      lint: 'job checksum',
      pattern: /template is immutable/,
      fires: [pinned('db'), job('seed', '')],
      quiet: [
        pinned('db'),
        job('seed', 'argocd.argoproj.io/sync-options: Force=true,Replace=true'),
      ],
      on: 'seed',
    },
    {
      lint: 'unpinned version',
      pattern: /cannot follow a rotation/,
      fires: [externalSecret('db'), deployment('app', envFrom('db'))],
      quiet: [pinned('db'), deployment('app', envFrom('db'))],
      on: 'db',
    },
    {
      // The fix names the field that pins an extract (main said remoteRef.version, which it has not).
      lint: 'unpinned version (extract)',
      pattern:
        /dataFrom\[0\]\.extract has no fixed version\): the input has no ClusterSecretStore vault: if its provider can pin, pin dataFrom\[\]\.extract\.version so that/,
      fires: [
        pinned('db', '  dataFrom:\n  - extract: {key: db}\n'),
        deployment('app', envFrom('db')),
      ],
      quiet: [
        pinned('db', '  dataFrom:\n  - extract: {key: db, version: "4"}\n'),
        deployment('app', envFrom('db')),
      ],
      on: 'db',
    },
    {
      // find has no version field (ExternalSecretFind): no "pin" advice for it.
      lint: 'unpinned version (find)',
      pattern:
        /dataFrom\[0\] uses find\): dataFrom\[\]\.find cannot be pinned: name its keys in data\[\] or dataFrom\[\]\.extract with a version so that a new version rolls its consumers, or/,
      fires: [
        pinned('db', '  dataFrom:\n  - find: {name: {regexp: "^db-"}}\n'),
        deployment('app', envFrom('db')),
      ],
      quiet: [pinned('db'), deployment('other', envFrom('unrelated'))],
      on: 'db',
    },
    {
      // One warning for the resource, though it is a source in each namespace it selects.
      lint: 'unpinned version (ClusterExternalSecret)',
      pattern:
        /ClusterExternalSecret shared cannot follow a rotation .*data\[0\]\.remoteRef has no fixed version/,
      fires: [
        clusterExternalSecret(''),
        deployment('a', envFrom('shared'), { namespace: 'shop' }),
        deployment('b', envFrom('shared'), { namespace: 'billing' }),
      ],
      quiet: [
        clusterExternalSecret('        version: "3"\n'),
        deployment('a', envFrom('shared'), { namespace: 'shop' }),
        deployment('b', envFrom('shared'), { namespace: 'billing' }),
      ],
      on: 'shared',
    },
    {
      lint: 'vault agent job',
      pattern: /never completes/,
      fires: [vaultCronJob('vault.hashicorp.com/agent-inject: "true"')],
      quiet: [
        vaultCronJob(
          'vault.hashicorp.com/agent-inject: "true"\nvault.hashicorp.com/agent-pre-populate-only: "true"',
        ),
      ],
      on: 'report',
    },
    {
      lint: 'cross namespace',
      pattern: /never cross namespaces/,
      fires: [
        externalSecret('db', { namespace: 'prod' }).replace(
          '      property: user\n',
          '      property: user\n      version: "1"\n',
        ),
        deployment('app', envFrom('db'), { namespace: 'staging' }),
      ],
      quiet: [
        externalSecret('db', { namespace: 'prod' }).replace(
          '      property: user\n',
          '      property: user\n      version: "1"\n',
        ),
        deployment('app', envFrom('db'), { namespace: 'staging' }),
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: staging\nstringData: {a: b}\n',
      ],
      on: 'app',
    },
  ])('$lint: fires on the trap, quiet without it', ({ pattern, fires, quiet, on }) => {
    expect(findings(fires, pattern).map((f) => f.ref)).toEqual([on]);
    expect(findings(quiet, pattern)).toEqual([]);
  });

  it('a consumer with nothing wrong gets no warning at all', () => {
    const out = run(resourceList([pinned('db'), deployment('app', envFrom('db'))]));
    expect(out.exitCode).toBe(0);
    expect(resultsOf(out.stdout).filter((r) => r.severity !== 'info')).toEqual([]);
  });

  it('takes a severity per lint, including off', () => {
    const items = [externalSecret('db'), deployment('app', envFrom('db'))];
    expect(
      findings(items, /cannot follow/, '  unpinnedVersionSeverity: info\n', 'info'),
    ).toHaveLength(1);
    expect(
      findings(items, /cannot follow/, '  unpinnedVersionSeverity: off\n', 'info'),
    ).toHaveLength(0);
    const errors = run(
      resourceList(
        items,
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  unpinnedVersionSeverity: error\n',
      ),
    );
    expect(errors.exitCode).toBe(1);
  });

  it('sets agent-pre-populate-only when asked to', () => {
    const input = resourceList(
      [vaultCronJob('vault.hashicorp.com/agent-inject: "true"')],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  fixVaultAgentJobs: "true"\n',
    );
    const out = run(input);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      // (inside the ResourceList the template's annotations sit at column 14)
      `${' '.repeat(14)}vault.hashicorp.com/agent-pre-populate-only: "true"\n${' '.repeat(14)}vault.hashicorp.com/agent-inject: "true"\n`,
    );
    const messages = resultsOf(out.stdout).map((r) => String(r.message));
    expect(messages.filter((m) => /never completes/.test(m))).toEqual([]);
    expect(messages).toContain(
      'fixVaultAgentJobs: vault.hashicorp.com/agent-pre-populate-only is "true", so the Job can complete',
    );
    // Idempotent, results included: they describe the state, not the change.
    expect(run(out.stdout).stdout).toBe(out.stdout);
  });
});

/** A Deployment whose pod reads `keys` of Secret `secret` through a volume's items. */
const volumeItems = (name: string, secret: string, keys: string[]) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  template:
    spec:
      containers:
      - name: app
        image: app:1
      volumes:
      - name: s
        secret:
          secretName: ${secret}
          items:
${keys.map((k) => `          - {key: ${k}, path: ${k}}`).join('\n')}
`;

const sealed = (extra = '') => `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: db
spec:
  encryptedData:
    password: AgBy3i4OJSWK+PiTySYZZA==
${extra}`;

const kes = (data: string) => `apiVersion: kubernetes-client.io/v1
kind: ExternalSecret
metadata:
  name: db
spec:
  backendType: vault
  data:
${data}`;

const clusterEs = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: db
spec:
  namespaces: [shop]
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    data:
    - secretKey: password
      remoteRef: {key: db, version: "1"}
`;

const plainSecret =
  'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: cHc=\nstringData:\n  user: u\n';
const plainConfigMap =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db\ndata:\n  password: x\nbinaryData:\n  blob: AA==\n';

/** A store of `provider` (its spec.provider field) named `name`, with an empty provider spec. */
const store = (name: string, provider: string, kind = 'ClusterSecretStore') =>
  `apiVersion: external-secrets.io/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n${kind === 'SecretStore' ? '  namespace: shop\n' : ''}spec:\n  provider:\n    ${provider}: {}\n`;

/** ExternalSecret `name` on ClusterSecretStore `on`, one remoteRef without a version. */
const unpinnedOn = (name: string, on: string) =>
  externalSecret(name, { namespace: 'shop' }).replace('name: vault', `name: ${on}`);

describe('unpinned version, per store', () => {
  const messages = (items: string[]) =>
    resultsOf(run(resourceList(items)).stdout)
      .filter((r) => /rotation/.test(String(r.message)))
      .map((r) => ({
        severity: r.severity,
        on: `${(r.resourceRef as { kind: string }).kind} ${(r.resourceRef as { name: string }).name}`,
        message: String(r.message),
        field: (r.field as { path: string } | undefined)?.path,
      }));
  const read = (name: string, kind?: string) => {
    const app = deployment(`${name}-app`, envFrom(name), { namespace: 'shop' });
    return kind ? app.replace('apps/v1\nkind: Deployment', `batch/v1\nkind: ${kind}`) : app;
  };
  const pad = (i: number) => String(i).padStart(2, '0');

  it('names the field that pins each kind of entry, and says find cannot be pinned', () => {
    const mixed = pinned(
      'mixed',
      '  dataFrom:\n  - find: {name: {regexp: "^db-"}}\n  - extract: {key: db}\n',
    ).replace('      version: "1"\n', '');
    const [found] = messages([store('vault', 'vault'), mixed, deployment('app', envFrom('mixed'))]);
    expect(found?.message).toMatch(
      /: pin remoteRef\.version and dataFrom\[\]\.extract\.version so that a new version rolls its consumers; dataFrom\[\]\.find cannot be pinned: name its keys in data\[\] or dataFrom\[\]\.extract with a version, or set unpinnedVersionSeverity to info or off$/,
    );
  });

  it('20 on 1Password and 10 on AWS: one info for the store that cannot pin, one warning for the rest', () => {
    const items = [store('op', 'onepasswordSDK'), store('aws', 'aws')];
    for (let i = 0; i < 20; i++) items.push(unpinnedOn(`op-${pad(i)}`, 'op'), read(`op-${pad(i)}`));
    for (let i = 0; i < 10; i++)
      items.push(unpinnedOn(`aws-${pad(i)}`, 'aws'), read(`aws-${pad(i)}`));
    const found = messages(items);
    expect(found.map((f) => [f.severity, f.on, f.field])).toEqual([
      // Warnings before info, as every run reports them.
      ['warning', 'ExternalSecret aws-00', 'spec'],
      ['info', 'ClusterSecretStore op', 'spec.provider.onepasswordSDK'],
    ]);
    expect(found[1]?.message).toMatch(
      /^20 ExternalSecrets \(ExternalSecret shop\/op-00, ExternalSecret shop\/op-01, ExternalSecret shop\/op-02, ExternalSecret shop\/op-03, ExternalSecret shop\/op-04 and 15 more\) read from ClusterSecretStore op, whose provider onepasswordSDK rejects remoteRef.version .*Stakater Reloader/,
    );
    expect(found[1]?.message).not.toMatch(/pin remoteRef/);
    expect(found[0]?.message).toBe(
      'the checksums of 10 ExternalSecrets reading ClusterSecretStore aws (ExternalSecret shop/aws-00, ExternalSecret shop/aws-01, ExternalSecret shop/aws-02, ExternalSecret shop/aws-03, ExternalSecret shop/aws-04 and 5 more) cannot follow a rotation of the remote value (10 entries; in ExternalSecret shop/aws-00: data[1].remoteRef has no fixed version): pin remoteRef.version so that a new version rolls their consumers, or set unpinnedVersionSeverity to info or off',
    );
  });

  it.each([
    ['bitwardensecretsmanager', 'ignores'],
    ['doppler', 'ignores'],
    ['kubernetes', 'ignores'],
    ['infisical', 'ignores'],
    ['onepassword', 'rejects'],
    ['webhook', 'only hands'],
  ])('a %s store gets the rotation info, no advice to pin', (provider, does) => {
    const found = messages([store('s', provider), unpinnedOn('db', 's'), read('db')]);
    expect(found.map((f) => [f.severity, f.on])).toEqual([['info', 'ClusterSecretStore s']]);
    expect(found[0]?.message).toContain(`whose provider ${provider} ${does}`);
  });

  it('a SecretStore resolves in the namespace of the ExternalSecret', () => {
    const items = [
      store('s', 'doppler', 'SecretStore'),
      unpinnedOn('db', 's').replace('kind: ClusterSecretStore', 'kind: SecretStore'),
      read('db'),
    ];
    expect(messages(items).map((f) => f.on)).toEqual(['SecretStore s']);
  });

  it('is quiet when only Jobs and CronJobs read the Secret, and for the fake provider', () => {
    expect(messages([store('s', 'aws'), unpinnedOn('db', 's'), read('db', 'Job')])).toEqual([]);
    expect(messages([store('s', 'doppler'), unpinnedOn('db', 's'), read('db', 'Job')])).toEqual([]);
    expect(messages([store('s', 'fake'), unpinnedOn('db', 's'), read('db')])).toEqual([]);
    // One long-running reader is enough.
    const mixed = [store('s', 'aws'), unpinnedOn('db', 's'), read('db', 'Job'), read('db')];
    expect(messages(mixed).map((f) => f.severity)).toEqual(['warning']);
  });

  it('an entry on another store counts with that store', () => {
    const es = unpinnedOn('db', 'aws').replace(
      '      property: user\n',
      '      property: user\n    sourceRef:\n      storeRef: {name: op, kind: ClusterSecretStore}\n',
    );
    const found = messages([store('op', 'onepassword'), store('aws', 'aws'), es, read('db')]);
    expect(found.map((f) => [f.severity, f.on])).toEqual([['info', 'ClusterSecretStore op']]);
  });
});

describe('cross namespace', () => {
  it('is one warning per workload and Secret, at the first reference, naming every reference', () => {
    const twice = `env:\n- name: A\n  valueFrom:\n    secretKeyRef: {name: db, key: user}\n- name: B\n  valueFrom:\n    secretKeyRef: {name: db, key: password}`;
    const out = run(
      resourceList([
        pinned('db').replace('  name: db\n', '  name: db\n  namespace: prod\n'),
        deployment('app', twice, { namespace: 'staging' }),
      ]),
    );
    const found = resultsOf(out.stdout).filter((r) => /never cross/.test(String(r.message)));
    expect(found).toHaveLength(1);
    expect(found[0]?.field).toEqual({
      path: 'spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.name',
    });
    expect(found[0]?.message).toBe(
      'Deployment staging/app reads Secret db (2 references: spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.name and spec.template.spec.containers[0].env[1].valueFrom.secretKeyRef.name), which ExternalSecret prod/db produces only in namespace prod: references never cross namespaces; check the namespace of both',
    );
  });
});

describe('duplicate item', () => {
  const rule = (stdout: string, id: string) =>
    resultsOf(stdout).filter((r) => (r.tags as { rule?: string } | undefined)?.rule === id);

  it('says once, on the first copy, how many copies of an item there are; a copied source is one writer', () => {
    const es = externalSecret('db');
    const out = run(resourceList([es, deployment('app', envFrom('db')), es, es]));
    expect(out.exitCode).toBe(0);
    const found = rule(out.stdout, 'duplicate-item');
    expect(found.map((r) => [r.severity, r.message])).toEqual([
      [
        'warning',
        'ExternalSecret db is in the input 3 times: an apply keeps only one of them; keep one copy',
      ],
    ]);
    expect(rule(out.stdout, 'duplicate-writer')).toEqual([]);
    // Nor named three times where several ExternalSecrets are named (unpinned-version).
    const unpinned = rule(out.stdout, 'unpinned-version').map((r) => String(r.message));
    expect(unpinned).toHaveLength(1);
    expect(unpinned[0]).toMatch(/^the checksum of ExternalSecret db cannot follow/);
  });

  it('is quiet for the same name in another namespace or of another kind', () => {
    const other = externalSecret('db').replace('name: db\n', 'name: db\n  namespace: other\n');
    const out = run(resourceList([externalSecret('db'), other, deployment('db', envFrom('db'))]));
    expect(rule(out.stdout, 'duplicate-item')).toEqual([]);
  });

  it('is quiet for items without a name: nothing makes them one object', () => {
    // Lists with no metadata (kubectl's), ConfigMaps a hand forgot to name: never "  is in the input".
    const nameless = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: b\n';
    const list = 'apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: ConfigMap}]\n';
    const out = run(resourceList([nameless, nameless, list, list]));
    expect(rule(out.stdout, 'duplicate-item')).toEqual([]);
    // Copies of a nameless source are still one writer: never "X and X all write Secret db".
    const source = externalSecret('db', { target: 'db' }).replace('  name: db\n', '');
    const copied = run(resourceList([source, source, deployment('app', envFrom('db'))]));
    expect(copied.stdout).toContain('checksum/external-secrets');
    expect(rule(copied.stdout, 'duplicate-writer')).toEqual([]);
    expect(rule(copied.stdout, 'duplicate-item')).toEqual([]);
  });
});

describe('near name', () => {
  const near = (items: string[], config = '', severity = 'info') =>
    findings(items, /which nothing in the input makes/, config, severity).map((f) => f.message);
  const made = (name: string) => pinned(name);
  const reads = (secret: string) => deployment('app', secretKeyRef(secret, 'user'));

  it.each([
    // A typo (within the edits its length allows, the same digits): a likely mistake.
    ['postgress', 'postgres', 'warning'],
    ['grafana-admin', 'grafana-admn', 'warning'],
    ['payment-db', 'payments-db', 'warning'],
    ['db-1', 'db1', 'warning'],
    // A prefix or suffix (a chart's release name), or other digits (numbered siblings): such a
    // Secret may well come from elsewhere.
    ['act-runner', 'gitea-act-runner', 'info'],
    ['gitea-act-runner', 'act-runner', 'info'],
    ['redis', 'redis-auth', 'info'],
    ['redis-auth', 'redis', 'info'],
    ['auth', 'auth2', 'info'],
    ['api-creds-6297', 'api-creds-6692', 'info'],
    ['reporter-ca', 'reporter-17', 'info'],
  ])('%s read, %s made: a %s naming it', (read, source, severity) => {
    const message = `Deployment app reads Secret ${read}, which nothing in the input makes, while ExternalSecret ${source} makes Secret ${source} in its namespace: if that is the one meant, fix the name; if ${read} comes from elsewhere (the cluster, a chart not in the input), silence near-name for this workload (secret-rollout/silence) or set it off`;
    expect(near([made(source), reads(read)], '', severity)).toEqual([message]);
    expect(near([made(source), reads(read)], '', severity === 'info' ? 'warning' : 'info')).toEqual(
      [],
    );
  });

  it('sets a typo at nearNameSeverity; a prefix, suffix or other digits stay info', () => {
    const typo = [made('postgres'), reads('postgress')];
    expect(near(typo, '  nearNameSeverity: info\n', 'info')).toHaveLength(1);
    expect(near(typo, '  nearNameSeverity: error\n', 'error')).toHaveLength(1);
    const affix = [made('gitea-act-runner'), reads('act-runner')];
    expect(near(affix, '  nearNameSeverity: error\n', 'info')).toHaveLength(1);
  });

  it.each([
    ['unrelated', 'gitea-act-runner', ''],
    ['db', 'da', 'short names: everything is near'],
    ['runner-x', 'act-runner', 'a shared segment is not a prefix'],
    ['act-runner', 'act-runner', 'made'],
  ])('%s read, %s made: quiet (%s)', (read, source) => {
    expect(near([made(source), reads(read)])).toEqual([]);
  });

  it('is quiet when the name is made in another namespace (cross-namespace says it) or by a plain Secret', () => {
    const elsewhere = made('act-runner').replace(
      '  name: act-runner\n',
      '  name: act-runner\n  namespace: ci\n',
    );
    expect(near([made('gitea-act-runner'), elsewhere, reads('act-runner')])).toEqual([]);
    const plain =
      'apiVersion: v1\nkind: Secret\nmetadata: {name: act-runner}\nstringData: {user: u}\n';
    expect(near([made('gitea-act-runner'), plain, reads('act-runner')])).toEqual([]);
  });

  it('compares only within the namespace and kind, once per workload and Secret, and can be off', () => {
    const other = made('gitea-act-runner').replace(
      '  name: gitea-act-runner\n',
      '  name: gitea-act-runner\n  namespace: ci\n',
    );
    expect(near([other, reads('act-runner')])).toEqual([]);
    const twice = `${secretKeyRef('act-runner', 'user')}\n- name: Y\n  valueFrom:\n    secretKeyRef: {name: act-runner, key: password}`;
    const found = findings(
      [made('gitea-act-runner'), deployment('app', twice)],
      /nothing in the input makes/,
      '',
      'info',
    );
    expect(found).toHaveLength(1);
    expect(
      near([made('gitea-act-runner'), reads('act-runner')], '  nearNameSeverity: "off"\n'),
    ).toEqual([]);
    expect(
      findings(
        [made('postgres'), reads('postgress')],
        /nothing in the input makes/,
        '  nearNameSeverity: "off"\n',
      ),
    ).toEqual([]);
  });

  it('names a plain Secret of the input as what the input has', () => {
    const plain =
      'apiVersion: v1\nkind: Secret\nmetadata: {name: gitea-act-runner}\nstringData: {user: u}\n';
    expect(near([plain, reads('act-runner')])).toEqual([
      'Deployment app reads Secret act-runner, which nothing in the input makes, while the input has Secret gitea-act-runner in its namespace: if that is the one meant, fix the name; if act-runner comes from elsewhere (the cluster, a chart not in the input), silence near-name for this workload (secret-rollout/silence) or set it off',
    ]);
  });

  it('never finds a name over 253 characters near', () => {
    const long = `${'a'.repeat(250)}-xyz`;
    expect(near([made(`${long}1`), reads(long)])).toEqual([]);
  });
});

describe('the same info on many sources', () => {
  it('is one result naming them, for any source note (a custom resource target here)', () => {
    const manifest = (name: string) =>
      pinned(name).replace(
        'spec:\n',
        'spec:\n  target:\n    manifest: {apiVersion: config.example.com/v1, kind: AppConfig}\n',
      );
    const out = run(resourceList(['a', 'b', 'c'].map(manifest)));
    const noted = resultsOf(out.stdout).filter((r) =>
      /^its target is a custom resource, AppConfig /.test(String(r.message)),
    );
    expect(noted).toHaveLength(1);
    expect(noted[0]?.resourceRef).toMatchObject({ name: 'a' });
    expect(String(noted[0]?.message)).toMatch(
      /\(3 resources: ExternalSecret a, ExternalSecret b and ExternalSecret c\)$/,
    );
  });
});

describe('hook phase, for a source without a store', () => {
  it('does not tell to make a store a hook', () => {
    const doppler = `apiVersion: secrets.doppler.com/v1alpha1
kind: DopplerSecret
metadata:
  name: db
spec:
  tokenSecret: {name: doppler-token}
  managedSecret: {name: db}
`;
    const found = resultsOf(
      run(resourceList([doppler, job('migrate', 'argocd.argoproj.io/hook: PreSync')])).stdout,
    ).filter((r) => String(r.message).includes('phase beats wave'));
    expect(found).toHaveLength(1);
    expect(String(found[0]?.message)).toContain('or make the source a PreSync hook too, with');
    expect(String(found[0]?.message)).not.toContain('store');
  });
});

describe('missing key', () => {
  const missing = /reads keys? .* but .* produces/;
  it.each([
    {
      name: 'ExternalSecret, secretKeyRef',
      fires: [pinned('db'), deployment('app', secretKeyRef('db', 'pasword'))],
      quiet: [pinned('db'), deployment('app', secretKeyRef('db', 'password'))],
      message:
        'Deployment app reads key pasword of Secret db, but ExternalSecret db produces only password, user: check the key names on both sides',
    },
    {
      name: 'ExternalSecret, creationPolicy Orphan',
      fires: [
        pinned('db', '  target:\n    creationPolicy: Orphan\n'),
        deployment('app', secretKeyRef('db', 'pasword')),
      ],
      quiet: [
        pinned('db', '  target:\n    creationPolicy: Orphan\n'),
        deployment('app', secretKeyRef('db', 'user')),
      ],
      message:
        'Deployment app reads key pasword of Secret db, but ExternalSecret db produces only password, user: check the key names on both sides',
    },
    {
      name: 'ExternalSecret, volume items',
      fires: [pinned('db'), volumeItems('app', 'db', ['user', 'tls.crt', 'tls.key'])],
      quiet: [pinned('db'), volumeItems('app', 'db', ['user', 'password'])],
      message:
        'Deployment app reads keys tls.crt, tls.key of Secret db, but ExternalSecret db produces only password, user: check the key names on both sides',
    },
    {
      name: 'ClusterExternalSecret',
      fires: [clusterEs, deployment('app', secretKeyRef('db', 'user'), { namespace: 'shop' })],
      quiet: [clusterEs, deployment('app', secretKeyRef('db', 'password'), { namespace: 'shop' })],
      message:
        'Deployment shop/app reads key user of Secret db, but ClusterExternalSecret db produces only password: check the key names on both sides',
    },
    {
      name: 'SealedSecret',
      fires: [sealed(), deployment('app', secretKeyRef('db', 'user'))],
      quiet: [sealed(), deployment('app', secretKeyRef('db', 'password'))],
      message:
        'Deployment app reads key user of Secret db, but SealedSecret db produces only password: check the key names on both sides',
    },
    {
      name: 'KES',
      fires: [kes('  - {key: db, name: password}\n'), deployment('app', secretKeyRef('db', 'pw'))],
      quiet: [
        kes('  - {key: db, name: password}\n'),
        deployment('app', secretKeyRef('db', 'password')),
      ],
      message:
        'Deployment app reads key pw of Secret db, but ExternalSecret db produces only password: check the key names on both sides',
    },
    {
      name: 'plain Secret (opt-in)',
      config: '  secretChecksumAnnotation: checksum/secret\n',
      fires: [plainSecret, deployment('app', secretKeyRef('db', 'token'))],
      quiet: [plainSecret, deployment('app', secretKeyRef('db', 'user'))],
      message:
        'Deployment app reads key token of Secret db, but Secret db produces only password, user: check the key names on both sides',
    },
    {
      name: 'plain ConfigMap (opt-in)',
      config: '  configMapChecksumAnnotation: checksum/config\n',
      fires: [
        plainConfigMap,
        deployment(
          'app',
          'env:\n- name: X\n  valueFrom:\n    configMapKeyRef: {name: db, key: pw}',
        ),
      ],
      quiet: [
        plainConfigMap,
        deployment(
          'app',
          'env:\n- name: X\n  valueFrom:\n    configMapKeyRef: {name: db, key: blob}',
        ),
      ],
      message:
        'Deployment app reads key pw of ConfigMap db, but ConfigMap db produces only blob, password: check the key names on both sides',
    },
  ])('$name: fires on a key the source cannot produce, quiet on one it does', (c) => {
    expect(findings(c.fires, missing, c.config)).toEqual([{ ref: 'app', message: c.message }]);
    expect(findings(c.quiet, missing, c.config)).toEqual([]);
  });

  it('names the reference as the field', () => {
    const out = run(resourceList([pinned('db'), deployment('app', secretKeyRef('db', 'x'))]));
    const [result] = resultsOf(out.stdout).filter((r) => missing.test(String(r.message)));
    expect(result?.field).toEqual({
      path: 'spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.key',
    });
    const volume = run(resourceList([pinned('db'), volumeItems('app', 'db', ['x'])]));
    const [item] = resultsOf(volume.stdout).filter((r) => missing.test(String(r.message)));
    expect(item?.field).toEqual({ path: 'spec.template.spec.volumes[0].secret.items' });
  });

  it.each([
    {
      name: 'dataFrom adds keys',
      source: pinned('db', '  dataFrom:\n  - extract: {key: db/all, version: "1"}\n'),
    },
    {
      name: 'a template (Replace) decides the keys',
      source: pinned('db', '  target:\n    template:\n      data:\n        url: "{{ .user }}"\n'),
    },
    {
      name: 'a template (Merge) adds keys',
      source: pinned(
        'db',
        '  target:\n    template:\n      mergePolicy: Merge\n      templateFrom:\n      - literal: "{{ .user }}: x"\n',
      ),
    },
    {
      name: 'creationPolicy Merge (an existing Secret)',
      source: pinned('db', '  target:\n    creationPolicy: Merge\n'),
    },
    { name: 'creationPolicy None', source: pinned('db', '  target:\n    creationPolicy: None\n') },
    { name: 'SealedSecret template data', source: sealed('  template:\n    data:\n      x: y\n') },
    {
      name: 'SealedSecret patching an existing Secret',
      source: sealed().replace(
        '  name: db\n',
        '  name: db\n  annotations:\n    sealedsecrets.bitnami.com/patch: "true"\n',
      ),
    },
    { name: 'KES path entry', source: kes('  - {path: db/all}\n') },
    {
      name: 'VaultStaticSecret (keys come from Vault)',
      source:
        'apiVersion: secrets.hashicorp.com/v1beta1\nkind: VaultStaticSecret\nmetadata:\n  name: db\nspec:\n  mount: kv\n  path: db\n  type: kv-v2\n  destination: {name: db, create: true}\n',
    },
    {
      name: 'a service-account-token Secret (the token controller fills it)',
      source:
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: kubernetes.io/service-account-token\n',
      config: '  secretChecksumAnnotation: checksum/secret\n',
    },
  ])('is quiet when the keys are not known: $name', ({ source, config }) => {
    const items = [source, deployment('app', secretKeyRef('db', 'anything'))];
    expect(findings(items, /reads keys? /, config)).toEqual([]);
  });

  it('counts the keys of every source writing the Secret', () => {
    const other = pinned('db2', '  target:\n    name: db\n').replace(
      /secretKey: password/,
      'secretKey: token',
    );
    const items = [pinned('db'), other, deployment('app', secretKeyRef('db', 'token'))];
    expect(findings(items, /reads keys? /)).toEqual([]);
  });

  it('can be turned off', () => {
    const items = [pinned('db'), deployment('app', secretKeyRef('db', 'pasword'))];
    expect(findings(items, /reads key/, '  missingKeySeverity: "off"\n', 'info')).toEqual([]);
    expect(findings(items, /reads key/, '  missingKeySeverity: "off"\n')).toEqual([]);
  });
});

describe('kind near miss', () => {
  const item = (apiVersion: string, kind: string) =>
    `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\nspec: {}\n`;
  const nearMissResults = (text: string) =>
    resultsOf(run(resourceList([text])).stdout).filter(
      (r) => r.severity === 'warning' && /looks like an? |is read as an? /.test(String(r.message)),
    );

  it.each([
    ['external-secrets.io/v1', 'Externalsecret', 'ExternalSecret', 'its kind differs only in case'],
    ['external-secrets.io/v1', 'ExternalSecrets', 'ExternalSecret', 'its kind is a plural'],
    ['external-secrets.io/v1', 'externalsecrets', 'ExternalSecret', 'its kind is a plural'],
    ['external-secrets.io/v1', 'ExternalSecert', 'ExternalSecret', 'its kind is misspelled'],
    [
      'external-secret.io/v1',
      'ExternalSecret',
      'ExternalSecret',
      'its group is external-secret.io',
    ],
    [
      'external-secrets.com/v1',
      'ExternalSecret',
      'ExternalSecret',
      'its group is external-secrets.com',
    ],
    ['v1', 'ExternalSecret', 'ExternalSecret', 'its group is missing'],
    [
      'external-secret.io/v1',
      'ExternalSecrets',
      'ExternalSecret',
      'its kind is a plural and its group is external-secret.io',
    ],
    ['external-secrets.io/v1', 'ClusterSecretStores', 'ClusterSecretStore', 'is a plural'],
    ['external-secrets.io/v1', 'Secretstore', 'SecretStore', 'differs only in case'],
    ['external-secrets.io/v1', 'ClusterExternalSecert', 'ClusterExternalSecret', 'misspelled'],
    ['kubernetes-client.io/v1', 'ExternalSecrets', 'ExternalSecret', 'is a plural'],
    ['bitnami.com/v1alpha1', 'SealedSecrets', 'SealedSecret', 'is a plural'],
    ['bitnami.io/v1alpha1', 'SealedSecret', 'SealedSecret', 'its group is bitnami.io'],
    ['secrets.hashicorp.com/v1beta1', 'VaultStaticSecrets', 'VaultStaticSecret', 'is a plural'],
    ['secrets.hashicorp.com/v1beta1', 'VaultPkiSecret', 'VaultPKISecret', 'differs only in case'],
    ['onepassword.io/v1', 'OnePasswordItem', 'OnePasswordItem', 'its group is onepassword.io'],
    ['secrets.doppler.com/v1alpha1', 'DopplerSecrets', 'DopplerSecret', 'is a plural'],
    ['k8s.bitwarden.com/v1', 'BitwardenSecrets', 'BitwardenSecret', 'is a plural'],
    ['secrets.infisical.com/v1alpha1', 'InfisicalSecrt', 'InfisicalSecret', 'misspelled'],
    [
      'secrets-store.csi.k8s.io/v1',
      'SecretProviderClass',
      'SecretProviderClass',
      'its group is secrets-store.csi.k8s.io',
    ],
    ['v1', 'Secrets', 'Secret', 'is a plural'],
    ['v1', 'Configmap', 'ConfigMap', 'differs only in case'],
    ['core/v1', 'Secret', 'Secret', 'its group is core'],
  ])('%s %s looks like %s (%s)', (apiVersion, kind, known, why) => {
    const results = nearMissResults(item(apiVersion, kind));
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result?.resourceRef).toEqual({ apiVersion, kind, name: 'x' });
    expect(String(result?.message)).toMatch(
      new RegExp(`^${kind} x \\(${apiVersion}\\) looks like an? ${known} \\(.*\\), but .*${why}`),
    );
    expect(String(result?.message)).toMatch(/To count, set apiVersion: \S+ and kind: \S+$/);
  });

  it('says what it would take to count', () => {
    const [result] = nearMissResults(item('external-secret.io/v1beta1', 'Externalsecret'));
    expect(result?.message).toBe(
      'Externalsecret x (external-secret.io/v1beta1) looks like an ExternalSecret ' +
        '(external-secrets.io/v1), but its kind differs only in case and its group is ' +
        'external-secret.io, so secret-rollout does not read it (no checksum, no wave). To count, ' +
        'set apiVersion: external-secrets.io/v1 and kind: ExternalSecret',
    );
    expect(result?.field).toEqual({ path: 'kind' });
  });

  it.each([
    ['external-secrets.io/v1', 'ExternalSecret'],
    ['external-secrets.io/v1', 'ClusterExternalSecret'],
    ['external-secrets.io/v1', 'SecretStore'],
    ['external-secrets.io/v1', 'ClusterSecretStore'],
    ['external-secrets.io/v1alpha1', 'PushSecret'],
    ['external-secrets.io/v1alpha1', 'ClusterPushSecret'],
    ['generators.external-secrets.io/v1alpha1', 'Password'],
    ['generators.external-secrets.io/v1alpha1', 'ClusterGenerator'],
    ['kubernetes-client.io/v1', 'ExternalSecret'],
    ['bitnami.com/v1alpha1', 'SealedSecret'],
    ['secrets.hashicorp.com/v1beta1', 'VaultStaticSecret'],
    ['secrets.hashicorp.com/v1beta1', 'VaultDynamicSecret'],
    ['secrets.hashicorp.com/v1beta1', 'VaultPKISecret'],
    ['secrets.hashicorp.com/v1beta1', 'VaultAuth'],
    ['secrets.hashicorp.com/v1beta1', 'HCPVaultSecretsApp'],
    ['secrets.hashicorp.com/v1beta1', 'HCPAuth'],
    ['secrets.infisical.com/v1beta1', 'InfisicalStaticSecret'],
    ['secrets.infisical.com/v1alpha1', 'InfisicalDynamicSecret'],
    ['secrets-store.csi.x-k8s.io/v1', 'SecretProviderClassPodStatus'],
    ['secrets-store.csi.x-k8s.io/v1alpha1', 'SecretProviderClass'],
    ['example.com/v1', 'Secret'],
    ['example.com/v1', 'ConfigMap'],
    ['apps/v1', 'Deploymnet'],
    ['fn.kpt.dev/v1alpha1', 'SecretRollout'],
  ])('is quiet on %s %s', (apiVersion, kind) => {
    expect(nearMissResults(item(apiVersion, kind))).toEqual([]);
  });

  it('is never a built-in kind, parsed or copied through', () => {
    const core = [
      'Binding',
      'ComponentStatus',
      'Endpoints',
      'Event',
      'LimitRange',
      'List',
      'Namespace',
      'Node',
      'PersistentVolume',
      'PersistentVolumeClaim',
      'Pod',
      'PodTemplate',
      'ReplicationController',
      'ResourceQuota',
      'Service',
      'ServiceAccount',
    ].map((kind) => `v1/${kind}`);
    const ids = [...core, ...kindsNoRuleReads];
    const misses = ids.filter((id) => {
      const slash = id.lastIndexOf('/');
      return nearMiss(id.slice(0, slash), id.slice(slash + 1)) !== undefined;
    });
    expect(misses).toEqual([]);
    expect(ids.length).toBeGreaterThan(30);
  });

  it('is still found in a stream, where plain Secrets are copied through unparsed', () => {
    const out = run(`${item('v1', 'Secrets')}---\n${item('v1', 'Secret')}`);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toMatch(
      /^warning: Secrets x \(v1\) looks like a Secret \(v1\), but its kind is a plural/m,
    );
    expect(out.stderr.match(/looks like/g)).toHaveLength(1);
  });

  it('covers every source and store kind', () => {
    const known = knownKinds.map((k) => `${k.group}/${k.kind}`).sort();
    const read = [...sourceKinds, ...storeKinds].map((k) => `${k.group}/${k.kind}`).sort();
    expect(known).toEqual(read);
  });

  it.each([
    [
      'v1beta1',
      'ExternalSecret',
      'ESO v0.17.0 and later do not serve it (served: false in their CRDs)',
    ],
    ['v1beta1', 'ClusterExternalSecret', 'ESO v0.17.0 and later do not serve it'],
    ['v1beta1', 'SecretStore', 'ESO v0.17.0 and later do not serve it'],
    ['v1beta1', 'ClusterSecretStore', 'ESO v0.17.0 and later do not serve it'],
    ['v1alpha1', 'ExternalSecret', 'ESO v0.17.0 and later do not define it'],
    ['v2', 'ExternalSecret', 'its operator does not define that version'],
  ])('warns on %s %s, which still counts', (version, kind, why) => {
    const apiVersion = `external-secrets.io/${version}`;
    const results = nearMissResults(item(apiVersion, kind));
    expect(results.map((r) => r.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${kind} x \\(${apiVersion}\\) is read as an? ${kind}, but ${why.replace(/[()]/g, '\\$&')}.*Set apiVersion: external-secrets.io/v1$`,
        ),
      ),
    ]);
    expect(results[0]?.field).toEqual({ path: 'apiVersion' });
  });

  it('still reads an unserved version: the consumer gets its checksum', () => {
    const old = pinned('db').replace('external-secrets.io/v1', 'external-secrets.io/v1beta1');
    const out = run(resourceList([old, deployment('app', envFrom('db'))]));
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"/);
    expect(nearMissResults(pinned('db'))).toEqual([]);
  });

  it('can be turned off', () => {
    const items = [item('external-secrets.io/v1', 'ExternalSecrets')];
    expect(findings(items, /looks like/, '  kindNearMissSeverity: "off"\n', 'info')).toEqual([]);
    expect(findings(items, /looks like/, '  kindNearMissSeverity: "off"\n')).toEqual([]);
    expect(findings(items, /looks like/, '  kindNearMissSeverity: info\n', 'info')).toHaveLength(1);
  });
});

describe('csi sync mount', () => {
  /** A SecretProviderClass in `namespace` syncing each of `secrets` (one key each). */
  const spc = (name: string, secrets: string[], namespace = 'shop') =>
    `apiVersion: secrets-store.csi.x-k8s.io/v1
kind: SecretProviderClass
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  provider: vault
  parameters:
    objects: |
      - objectName: password
        secretPath: secret/data/db
        secretKey: password
  secretObjects:
${secrets.map((s) => `  - secretName: ${s}\n    type: Opaque\n    data:\n    - {objectName: password, key: password}\n`).join('')}`;

  /** A Deployment in shop reading `reads` (envFrom) and mounting the classes `mounts`. */
  const workload = (name: string, reads: string[], mounts: string[] = [], annotations = '') => {
    const refs = reads.map((s) => `- secretRef: {name: ${s}}`).join('\n');
    const base = deployment(name, `envFrom:\n${refs}`, { namespace: 'shop' });
    const volumes = mounts.map(
      (c, i) =>
        `      - name: v${i}\n        csi:\n          driver: secrets-store.csi.k8s.io\n          volumeAttributes: {secretProviderClass: ${c}}\n`,
    );
    const annotated = annotations
      ? base.replace(
          '  namespace: shop\n',
          `  namespace: shop\n  annotations:\n    ${annotations}\n`,
        )
      : base;
    return `${annotated}${volumes.length > 0 ? `      volumes:\n${volumes.join('')}` : ''}`;
  };

  const pattern = /syncs, but/;
  const optOut = 'secret-rollout/ignore: "true"';
  const fix =
    'Mount the class in this pod template: a csi volume with driver secrets-store.csi.k8s.io and volumeAttributes.secretProviderClass: kv';

  it('warns on a workload that reads a synced Secret another workload mounts the class for', () => {
    const found = findings(
      [spc('kv', ['db']), workload('api', ['db'], ['kv']), workload('report', ['db'])],
      pattern,
    );
    expect(found).toEqual([
      {
        ref: 'report',
        message:
          'Deployment shop/report reads Secret db, which SecretProviderClass shop/kv syncs, but does not mount that class: the Secrets Store CSI driver creates and updates a synced Secret only while a pod mounts its class, here only pods of Deployment shop/api. Its pods can be created before the driver writes the Secret (CreateContainerConfigError, or a secret volume that cannot mount) and work only while those pods run. ' +
          fix,
      },
    ]);
    expect(found[0]?.message).not.toMatch(/no pod template/);
  });

  it('counts every reference the table lists: a secret volume, imagePullSecrets', () => {
    const volume = `${deployment('files', 'imagePullPolicy: Always', { namespace: 'shop' })}      volumes:\n      - name: s\n        secret: {secretName: db}\n`;
    const pull = deployment('pull', 'imagePullPolicy: Always', { namespace: 'shop' }).replace(
      '      containers:\n',
      '      imagePullSecrets: [{name: db}]\n      containers:\n',
    );
    expect(findings([spc('kv', ['db']), volume, pull], pattern).map((f) => f.ref)).toEqual([
      'files',
      'pull',
    ]);
  });

  it('is quiet when the workload mounts the class itself', () => {
    expect(findings([spc('kv', ['db']), workload('api', ['db'], ['kv'])], pattern)).toEqual([]);
  });

  it('says so when no pod template in the input mounts the class', () => {
    expect(findings([spc('kv', ['db']), workload('report', ['db'])], pattern)).toEqual([
      {
        ref: 'report',
        message:
          'Deployment shop/report reads Secret db, which SecretProviderClass shop/kv syncs, but no pod template in the input mounts that class: the Secrets Store CSI driver creates a synced Secret only while a pod mounts its class, so nothing ever creates the Secret and its pods fail (CreateContainerConfigError, or a secret volume that cannot mount). ' +
          fix,
      },
    ]);
  });

  it('reports once per workload and class, naming every Secret of that class it reads', () => {
    const found = findings(
      [
        spc('kv', ['db', 'api-key']),
        spc('kv2', ['cache']),
        workload('report', ['db', 'api-key', 'cache']),
      ],
      pattern,
    );
    expect(found.map((f) => f.message.slice(0, f.message.indexOf(' syncs')))).toEqual([
      'Deployment shop/report reads Secrets db, api-key, which SecretProviderClass shop/kv',
      'Deployment shop/report reads Secret cache, which SecretProviderClass shop/kv2',
    ]);
  });

  it('mounting another class does not count', () => {
    const items = [spc('kv', ['db']), spc('other', ['x']), workload('report', ['db'], ['other'])];
    expect(findings(items, pattern).map((f) => f.ref)).toEqual(['report']);
  });

  it('is quiet for a class in another namespace (the cross-namespace lint reports that)', () => {
    const items = [spc('kv', ['db'], 'payments'), workload('report', ['db'])];
    expect(findings(items, pattern)).toEqual([]);
    expect(findings(items, /never cross namespaces/).map((f) => f.ref)).toEqual(['report']);
  });

  it('still warns on a workload that opts out: its pods need the Secret all the same', () => {
    const items = [spc('kv', ['db']), workload('report', ['db'], [], optOut)];
    expect(findings(items, /^opted out/, '', 'info').map((f) => f.ref)).toEqual(['report']);
    expect(findings(items, pattern).map((f) => f.ref)).toEqual(['report']);
  });

  it('counts an opted-out pod template that mounts the class: its pods make the driver sync', () => {
    const items = [
      spc('kv', ['db']),
      workload('agent', ['db'], ['kv'], optOut),
      workload('report', ['db']),
    ];
    expect(findings(items, /^opted out/, '', 'info').map((f) => f.ref)).toEqual(['agent']);
    const found = findings(items, pattern);
    expect(found.map((f) => f.ref)).toEqual(['report']);
    expect(found[0]?.message).toContain('here only pods of Deployment shop/agent.');
  });

  it('takes its severity from csiSyncMountSeverity, off included', () => {
    const items = [spc('kv', ['db']), workload('report', ['db'])];
    expect(findings(items, pattern, '  csiSyncMountSeverity: "off"\n')).toEqual([]);
    expect(findings(items, pattern, '  csiSyncMountSeverity: "off"\n', 'info')).toEqual([]);
    expect(findings(items, pattern, '  csiSyncMountSeverity: info\n', 'info')).toHaveLength(1);
  });
});
