// The option `ordering`: the order graph in each deployer's annotations (depends-on for kpt live
// apply and Config Sync, kapp's change groups and rules), checked against the deployers' own
// parse rules and test cases (testdata/cli-utils, testdata/kapp; provenance in SOURCES.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { impact } from '../src/impact-run.js';
import { readConfig } from '../src/model/config.js';
import { ruleCatalog } from '../src/rules/rule-table.js';
import { check, plan, run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  find,
  itemsOf,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
} from './helpers.js';

type Obj = Record<string, unknown>;
const dependsOnKey = 'config.kubernetes.io/depends-on';
const annotations = (item: Obj) =>
  ((item.metadata as Obj).annotations ?? {}) as Record<string, string>;
const testdata = (file: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, 'testdata', file), 'utf8'));

// cli-utils pkg/object/dependson/strings.go, UnmarshalDependencySet/UnmarshalObjMetadata: split
// on ",", trim, 3 or 5 "/" fields, "namespaces" second of 5; CreateObjMetadata: kind and name
// not empty. Ported here (not into src) so the writer is checked by an independent reading.
interface ObjRef {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
}
function parseObj(text: string): ObjRef {
  const fields = text.trim().split('/');
  if (fields.length !== 3 && fields.length !== 5) throw new Error('field count');
  const [group = '', a = '', b = '', c = '', d = ''] = fields;
  if (fields.length === 5 && a !== 'namespaces') throw new Error('missing namespaces');
  const ref: ObjRef =
    fields.length === 3 ? { group, kind: a, name: b } : { group, kind: c, namespace: b, name: d };
  if (ref.kind === '' || ref.name === '') throw new Error('empty kind or name');
  return ref;
}
const parseSet = (text: string) => text.split(',').map(parseObj);
const format = (o: ObjRef) =>
  o.namespace === undefined
    ? `${o.group}/${o.kind}/${o.name}`
    : `${o.group}/namespaces/${o.namespace}/${o.kind}/${o.name}`;

// kapp pkg/kapp/diffgraph: change_group.go (IsQualifiedName without the 63-character limit) and
// change_rule.go (split on one space, 4 pieces, known words, then a valid group).
function validGroup(name: string): boolean {
  if (name === '') return false;
  const parts = name.split('/');
  if (parts.length > 2) return false;
  const last = parts.pop() as string;
  const prefix = parts[0];
  const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
  if (prefix !== undefined && (prefix.length > 253 || !subdomain.test(prefix))) return false;
  return /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(last);
}
function validRule(rule: string): boolean {
  const pieces = rule.split(' ');
  if (pieces.length !== 4) return false;
  const [action, order, target, group] = pieces as [string, string, string, string];
  return (
    ['upsert', 'delete'].includes(action) &&
    ['before', 'after'].includes(order) &&
    ['upserting', 'deleting'].includes(target) &&
    validGroup(group)
  );
}

const store = (name: string, namespace = 'prod') => `apiVersion: external-secrets.io/v1
kind: SecretStore
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  provider:
    vault: {server: "https://vault"}
`;
const es = (name: string, storeName: string, namespace = 'prod') =>
  externalSecret(name, { namespace }).replace(
    'name: vault\n    kind: ClusterSecretStore',
    `name: ${storeName}\n    kind: SecretStore`,
  );
/** Two stores, two ExternalSecrets, a consumer of each and one of both, in prod. */
const pkg = (extra: readonly string[] = []) => [
  store('vault-a'),
  store('vault-b'),
  es('db', 'vault-a'),
  es('cache', 'vault-b'),
  deployment('api', envFrom('db'), { namespace: 'prod' }),
  deployment('worker', `${envFrom('db')}\n- secretRef:\n    name: cache`, { namespace: 'prod' }),
  ...extra,
];
const config = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;

describe('cli-utils and kapp parse rules, as ported into this test', () => {
  it('agree with cli-utils’ own test cases', () => {
    const cases = testdata('cli-utils/dependson-cases.json');
    for (const c of cases.UnmarshalDependencySet) {
      if (c.isError) expect(() => parseSet(c.annotation), c.name).toThrow();
      else expect(parseSet(c.annotation), c.name).toEqual(c.expected);
    }
    for (const c of cases.UnmarshalObjMetadata) {
      if (c.isError) expect(() => parseObj(c.metaStr), c.name).toThrow();
      else expect(() => parseObj(c.metaStr), c.name).not.toThrow();
    }
    for (const c of cases.MarshalObjMetadata) expect(format(c.object), c.name).toBe(c.expected);
  });

  it('agree with kapp’s own test cases', () => {
    const cases = testdata('kapp/change-group-rule-cases.json');
    for (const name of cases.changeGroupValid) expect(validGroup(name), name).toBe(true);
    const long = cases.changeGroupValidLong;
    expect(validGroup(long.prefix + long.repeat.repeat(long.times))).toBe(true);
    for (const name of cases.changeGroupInvalid) expect(validGroup(name), name).toBe(false);
    for (const rule of cases.changeRuleValid) expect(validRule(rule), rule).toBe(true);
    expect(validRule('upsert after upserting')).toBe(false);
    expect(validRule('upsert  after upserting g')).toBe(false);
  });
});

describe('ordering: depends-on', () => {
  const out = runOk(resourceList(pkg(), config('ordering: depends-on'))).stdout;
  const items = itemsOf(out);

  it('writes stores → sources → consumers, each only what it reads, and no wave', () => {
    const value = (kind: string, name: string) =>
      annotations(find(items, kind, name))[dependsOnKey];
    expect(value('ExternalSecret', 'db')).toBe(
      'external-secrets.io/namespaces/prod/SecretStore/vault-a',
    );
    expect(value('ExternalSecret', 'cache')).toBe(
      'external-secrets.io/namespaces/prod/SecretStore/vault-b',
    );
    expect(value('Deployment', 'api')).toBe(
      'external-secrets.io/namespaces/prod/ExternalSecret/db',
    );
    expect(value('Deployment', 'worker')).toBe(
      'external-secrets.io/namespaces/prod/ExternalSecret/cache,external-secrets.io/namespaces/prod/ExternalSecret/db',
    );
    expect(value('SecretStore', 'vault-a')).toBeUndefined();
    expect(out).not.toContain('argocd.argoproj.io/sync-wave');
  });

  it('writes values cli-utils parses, naming only items of the input', () => {
    const inInput = new Set(
      items.map((i) => {
        const m = i.metadata as Obj;
        const group = String(i.apiVersion).includes('/') ? String(i.apiVersion).split('/')[0] : '';
        return format({
          group: group as string,
          kind: String(i.kind),
          namespace: m.namespace as string,
          name: String(m.name),
        });
      }),
    );
    let count = 0;
    for (const item of items) {
      const value = annotations(item)[dependsOnKey];
      if (value === undefined) continue;
      const refs = parseSet(value).map(format);
      expect(new Set(refs).size).toBe(refs.length); // cli-utils: a duplicate is an error
      for (const ref of refs) expect(inInput).toContain(ref);
      count += refs.length;
    }
    expect(count).toBe(5);
  });

  it('keeps what the user wrote, adds once, and a second run is byte-identical', () => {
    const own = deployment('api', envFrom('db'), { namespace: 'prod' }).replace(
      'metadata:\n  name: api\n',
      `metadata:\n  name: api\n  annotations:\n    ${dependsOnKey}: " /namespaces/prod/ConfigMap/x , external-secrets.io/namespaces/prod/ExternalSecret/db"\n`,
    );
    const input = resourceList(
      [store('vault-a'), es('db', 'vault-a'), own],
      config('ordering: depends-on'),
    );
    const first = runOk(input).stdout;
    // The entry is there already (after trimming, as cli-utils reads it): nothing to add.
    expect(annotations(find(itemsOf(first), 'Deployment', 'api'))[dependsOnKey]).toBe(
      ' /namespaces/prod/ConfigMap/x , external-secrets.io/namespaces/prod/ExternalSecret/db',
    );
    expect(runOk(first).stdout).toBe(first);
    const other = runOk(
      resourceList(
        [
          store('vault-a'),
          es('db', 'vault-a'),
          own.replace(', external-secrets.io/namespaces/prod/ExternalSecret/db', ''),
        ],
        config('ordering: depends-on'),
      ),
    ).stdout;
    expect(annotations(find(itemsOf(other), 'Deployment', 'api'))[dependsOnKey]).toBe(
      ' /namespaces/prod/ConfigMap/x ,external-secrets.io/namespaces/prod/ExternalSecret/db',
    );
    expect(runOk(other).stdout).toBe(other);
  });

  it('writes no edge to an item without a namespace: a warning names both and the fix', () => {
    const input = resourceList(
      [
        store('vault-a'),
        es('db', 'vault-a').replace('  namespace: prod\n', ''),
        deployment('api', envFrom('db')),
      ],
      config('ordering: depends-on'),
    );
    const out = run(input);
    expect(out.exitCode).toBe(0);
    const skipped = resultsOf(out.stdout).filter((r) => (r.tags as Obj)?.rule === 'order-skipped');
    expect(skipped.map((r) => r.message)).toEqual([
      'Deployment api is not made to wait for ExternalSecret db in config.kubernetes.io/depends-on: ExternalSecret db has no namespace, and kpt live apply and Config Sync give it one the input does not say; set metadata.namespace on it, or the defaultNamespace option',
    ]);
    expect(
      annotations(find(itemsOf(out.stdout), 'Deployment', 'api'))[dependsOnKey],
    ).toBeUndefined();
  });

  it('refuses a cycle, as cli-utils does, and writes nothing', () => {
    // A store whose pod template reads the Secret of the ExternalSecret that uses it.
    const readingStore = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider:
    vault: {server: "https://vault"}
  template:
    spec:
      containers:
      - name: c
        envFrom:
        - secretRef: {name: db}
`;
    for (const ordering of ['depends-on', 'kapp']) {
      const out = run(resourceList([externalSecret('db'), readingStore]), {
        settings: { ordering },
      });
      expect(out.exitCode, ordering).toBe(1);
      const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
      expect(errors.map((r) => r.message)).toEqual([expect.stringMatching(/depend on each other/)]);
      for (const item of itemsOf(out.stdout)) {
        expect(
          Object.keys(annotations(item)).filter(
            (k) => k.includes('/depends-on') || k.startsWith('kapp.'),
          ),
        ).toEqual([]);
      }
    }
  });

  it('names a namespace-less item in the defaultNamespace option’s namespace', () => {
    const input = resourceList([
      store('vault-a'),
      es('db', 'vault-a').replace('  namespace: prod\n', ''),
      deployment('api', envFrom('db')),
    ]);
    const out = runOk(input, { ordering: 'depends-on', defaultNamespace: 'prod' });
    expect(resultsOf(out.stdout).filter((r) => (r.tags as Obj)?.rule === 'order-skipped')).toEqual(
      [],
    );
    const items = itemsOf(out.stdout);
    expect(annotations(find(items, 'Deployment', 'api'))[dependsOnKey]).toBe(
      'external-secrets.io/namespaces/prod/ExternalSecret/db',
    );
    expect((find(items, 'ExternalSecret', 'db').metadata as Obj).namespace).toBeUndefined();
  });

  it('names a cluster-scoped store in the three-field form', () => {
    const input = resourceList(
      [
        `apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault\nspec:\n  provider:\n    vault: {server: "https://vault"}\n`,
        externalSecret('db', { namespace: 'prod' }),
      ],
      config('ordering: depends-on'),
    );
    const value = annotations(find(itemsOf(runOk(input).stdout), 'ExternalSecret', 'db'))[
      dependsOnKey
    ];
    expect(value).toBe('external-secrets.io/ClusterSecretStore/vault');
    expect(parseSet(value as string)).toEqual([
      { group: 'external-secrets.io', kind: 'ClusterSecretStore', name: 'vault' },
    ]);
  });

  it('reads no namespace for a cluster-scoped store that names one, and warns: cli-utils refuses it', () => {
    // kustomize's `namespace: shop` writes one on every kind it does not know as cluster-scoped.
    // Main wrote `external-secrets.io/namespaces/shop/ClusterSecretStore/vault`, an object kpt
    // live apply cannot find, while kapp's group for it had no namespace.
    const namespaced = `apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault\n  namespace: shop\nspec:\n  provider:\n    vault: {server: "https://vault"}\n`;
    const items = [namespaced, externalSecret('db', { namespace: 'shop' })];
    const out = runOk(resourceList(items, config('ordering: depends-on')));
    expect(annotations(find(itemsOf(out.stdout), 'ExternalSecret', 'db'))[dependsOnKey]).toBe(
      'external-secrets.io/ClusterSecretStore/vault',
    );
    const warned = resultsOf(out.stdout).filter(
      (r) => (r.tags as Obj)?.rule === 'cluster-scoped-namespace',
    );
    expect(warned).toEqual([
      expect.objectContaining({
        severity: 'warning',
        resourceRef: {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ClusterSecretStore',
          name: 'vault',
        },
        field: { path: 'metadata.namespace' },
      }),
    ]);
    // Not under Argo CD alone (it applies the object), nor for a store without a namespace.
    expect(
      resultsOf(runOk(resourceList(items)).stdout).map((r) => (r.tags as Obj)?.rule),
    ).not.toContain('cluster-scoped-namespace');
    // The same store with and without the namespace is one object given twice.
    const twice = plan([namespaced, namespaced.replace('  namespace: shop\n', '')].join('---\n'));
    expect(twice.stderr).toContain('ClusterSecretStore vault is in the input 2 times');
  });
});

describe('ordering: kapp', () => {
  const out = runOk(resourceList(pkg(), config('ordering: kapp'))).stdout;
  const items = itemsOf(out);
  const groupsOf = (item: Obj) =>
    Object.entries(annotations(item))
      .filter(
        ([k]) => k === 'kapp.k14s.io/change-group' || k.startsWith('kapp.k14s.io/change-group.'),
      )
      .map(([, v]) => v);
  const rulesOf = (item: Obj) =>
    Object.entries(annotations(item))
      .filter(
        ([k]) => k === 'kapp.k14s.io/change-rule' || k.startsWith('kapp.k14s.io/change-rule.'),
      )
      .map(([, v]) => v)
      .sort();

  it('gives each item waited for a group, and each waiting item a rule per real edge', () => {
    const db = 'secret-rollout.dev/ExternalSecret.external-secrets.io_prod_db';
    const cache = 'secret-rollout.dev/ExternalSecret.external-secrets.io_prod_cache';
    expect(groupsOf(find(items, 'ExternalSecret', 'db'))).toEqual([db]);
    expect(rulesOf(find(items, 'Deployment', 'api'))).toEqual([`upsert after upserting ${db}`]);
    expect(rulesOf(find(items, 'Deployment', 'worker'))).toEqual([
      `upsert after upserting ${cache}`,
      `upsert after upserting ${db}`,
    ]);
    expect(rulesOf(find(items, 'ExternalSecret', 'db'))).toEqual([
      'upsert after upserting secret-rollout.dev/SecretStore.external-secrets.io_prod_vault-a',
    ]);
    expect(groupsOf(find(items, 'Deployment', 'api'))).toEqual([]);
  });

  it('writes groups and rules kapp parses, every rule naming a group of the input', () => {
    const groups = new Set(items.flatMap(groupsOf));
    expect(groups.size).toBe(4);
    for (const g of groups) expect(validGroup(g), g).toBe(true);
    let rules = 0;
    for (const item of items) {
      for (const [key, rule] of Object.entries(annotations(item))) {
        if (!key.startsWith('kapp.k14s.io/change-rule')) continue;
        expect(validRule(rule), rule).toBe(true);
        expect(groups).toContain(rule.split(' ')[3]);
        // An annotation key: the name part after the prefix is at most 63 characters.
        expect((key.split('/')[1] as string).length).toBeLessThanOrEqual(63);
        rules += 1;
      }
    }
    expect(rules).toBe(5);
    expect(runOk(out).stdout).toBe(out);
  });

  it('keeps a user’s change-group and change-rule, and does not repeat a rule they wrote', () => {
    const db = 'secret-rollout.dev/ExternalSecret.external-secrets.io_prod_db';
    const own = deployment('api', envFrom('db'), { namespace: 'prod' }).replace(
      'metadata:\n  name: api\n',
      `metadata:\n  name: api\n  annotations:\n    kapp.k14s.io/change-group: mine\n    kapp.k14s.io/change-rule: "upsert after upserting ${db}"\n`,
    );
    const input = resourceList(
      [store('vault-a'), es('db', 'vault-a'), own],
      config('ordering: kapp'),
    );
    const out = runOk(input).stdout;
    const api = annotations(find(itemsOf(out), 'Deployment', 'api'));
    expect(Object.keys(api).sort()).toEqual([
      'kapp.k14s.io/change-group',
      'kapp.k14s.io/change-rule',
    ]);
    expect(api['kapp.k14s.io/change-group']).toBe('mine');
  });
});

describe('ordering: the option', () => {
  const read = (data: Record<string, unknown>) =>
    readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data }, ruleCatalog).ordering;
  const typed = (fields: Record<string, unknown>) =>
    readConfig({ apiVersion: 'fn.kpt.dev/v1alpha1', kind: 'SecretRollout', ...fields }, ruleCatalog)
      .ordering;

  it('reads a comma list, a YAML list and none; argocd by default', () => {
    expect(read({})).toEqual(['argocd']);
    expect(read({ ordering: 'kapp, depends-on' })).toEqual(['depends-on', 'kapp']);
    expect(typed({ ordering: ['kapp', 'argocd'] })).toEqual(['argocd', 'kapp']);
    expect(read({ ordering: 'none' })).toEqual([]);
  });

  it('refuses an unknown entry (by position, with the nearest), none among others, nothing', () => {
    expect(() => read({ ordering: 'argocd,kap' })).toThrow(
      'data.ordering: entry 2 is not one of argocd, depends-on, kapp or none; did you mean kapp?',
    );
    expect(() => read({ ordering: 'none,kapp' })).toThrow(/entry 1 is none, which stands alone/);
    expect(() => read({ ordering: '' })).toThrow(/must be a list of/);
    expect(() => typed({ ordering: 3 })).toThrow(/must be a list of .*, got a number/);
  });

  it('takes syncWaves as its alias, and refuses the two disagreeing', () => {
    expect(read({ syncWaves: 'false' })).toEqual([]);
    expect(read({ syncWaves: 'true' })).toEqual(['argocd']);
    expect(read({ syncWaves: 'false', ordering: 'depends-on' })).toEqual(['depends-on']);
    expect(read({ syncWaves: 'true', ordering: 'argocd,kapp' })).toEqual(['argocd', 'kapp']);
    expect(() => read({ syncWaves: 'true', ordering: 'kapp' })).toThrow(
      /data.syncWaves and data.ordering disagree about argocd: give ordering only/,
    );
  });

  it('is shown by plan', () => {
    const out = plan(resourceList(pkg()), { settings: { ordering: 'depends-on,kapp' } });
    expect(out.stdout.split('\n')[0]).toBe('ordering: depends-on, kapp');
    const json = plan(resourceList(pkg()), { format: 'json', settings: { ordering: 'kapp' } });
    expect(JSON.parse(json.stdout).ordering).toEqual(['kapp']);
  });
});

describe('impact with another ordering', () => {
  const sideOf = (label: string, items: readonly string[]) => ({
    label,
    text: items.join('---\n'),
    origins: [],
  });
  // HEAD: worker stops reading cache.
  const head = sideOf('HEAD', [
    ...pkg().slice(0, 5),
    deployment('worker', envFrom('db'), { namespace: 'prod' }),
  ]);
  const orderOf = (ordering: string) =>
    JSON.parse(
      impact(sideOf('BASE', pkg()), head, { format: 'json', settings: { ordering } }).stdout,
    ).order;

  it('reports who waits for whom when the order is not Argo CD’s waves', () => {
    const es = (name: string) => ({
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      namespace: 'prod',
      name,
    });
    const worker = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'prod', name: 'worker' };
    expect(orderOf('depends-on')).toEqual([
      { resource: worker, added: [], removed: [es('cache')] },
    ]);
    expect(orderOf('kapp')).toEqual(orderOf('depends-on'));
    expect(orderOf('argocd')).toEqual([]);
    const md = impact(sideOf('BASE', pkg()), head, { settings: { ordering: 'depends-on' } }).stdout;
    expect(md).toContain('1 order change');
    expect(md).toContain('| `Deployment prod/worker` | - | `ExternalSecret prod/cache` |');
  });
});

describe('check on a render made with another ordering', () => {
  const rendered = (ordering: string) => runOk(resourceList(pkg()), { ordering }).stdout;
  const otherOrdering = (text: string, ordering: string) => {
    const out = check(text, { settings: { ordering } });
    return {
      exitCode: out.exitCode,
      other: resultsOf(out.stdout).filter((r) => (r.tags as Obj)?.rule === 'other-ordering'),
    };
  };

  it('fails and names the ordering the render used', () => {
    const waves = otherOrdering(rendered('argocd'), 'depends-on');
    expect(waves.exitCode).toBe(1);
    expect(waves.other.map((r) => r.message)).toEqual([
      'SecretStore prod/vault-a carries the order annotations of ordering: argocd, and those of ordering: depends-on, which this check asks for, are missing: the input was rendered with another ordering. Check with ordering=argocd (and any other deployer the render used), or render again with ordering=depends-on',
    ]);
    const dependsOn = otherOrdering(rendered('depends-on'), 'argocd');
    expect(dependsOn.exitCode).toBe(1);
    expect(dependsOn.other[0]?.message).toMatch(
      /of ordering: depends-on, .*Check with ordering=depends-on/,
    );
    expect(otherOrdering(rendered('kapp'), 'depends-on').other[0]?.message).toMatch(
      /of ordering: kapp, /,
    );
  });

  it('passes with the ordering the render used, and says nothing more when only entries are missing', () => {
    for (const o of ['argocd', 'depends-on', 'kapp', 'argocd,depends-on,kapp']) {
      expect(check(rendered(o), { settings: { ordering: o } }).exitCode, o).toBe(0);
    }
    const fresh = otherOrdering(resourceList(pkg()), 'depends-on');
    expect(fresh.exitCode).toBe(1);
    expect(fresh.other).toEqual([]);
    // A depends-on of the user's own is no sign of a depends-on render.
    const own = deployment('api', envFrom('db'), { namespace: 'prod' }).replace(
      'metadata:\n  name: api\n',
      `metadata:\n  name: api\n  annotations:\n    ${dependsOnKey}: /namespaces/prod/ConfigMap/x\n`,
    );
    const mixed = otherOrdering(resourceList([...pkg().slice(0, 4), own]), 'kapp');
    expect(mixed.exitCode).toBe(1);
    expect(mixed.other).toEqual([]);
  });
});

describe('advice follows the deployer', () => {
  const job = `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  namespace: prod
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: m
        image: m:1
        envFrom:
        - secretRef:
            name: db
`;
  const jobWarning = (ordering: string, item = job) =>
    resultsOf(
      runOk(resourceList([store('vault-a'), es('db', 'vault-a'), item]), { ordering }).stdout,
    ).find((r) => (r.tags as Obj)?.rule === 'job-checksum')?.message as string | undefined;

  it('names Argo CD hooks and sync options only with argocd', () => {
    expect(jobWarning('argocd')).toMatch(/argocd\.argoproj\.io\/hook: Sync/);
    for (const o of ['depends-on', 'kapp', 'none'])
      expect(jobWarning(o), o).not.toMatch(/argocd|Argo/);
    expect(jobWarning('depends-on')).toMatch(/Delete the Job before the apply that changes it/);
    expect(jobWarning('kapp')).toMatch(/Set kapp\.k14s\.io\/update-strategy: fallback-on-replace$/);
  });

  it('takes each deployer’s own replace setting as the fix, and only that deployer’s', () => {
    const kappReplaced = job.replace(
      '  namespace: prod\n',
      '  namespace: prod\n  annotations:\n    kapp.k14s.io/update-strategy: fallback-on-replace\n',
    );
    expect(jobWarning('kapp', kappReplaced)).toBeUndefined();
    expect(jobWarning('argocd', kappReplaced)).toBeDefined();
  });
});
