// No silent no-op (issue #23 §3): a source whose Secret nothing in the input reads gets an info,
// one per namespace, naming what there may read it out of sight. On main: no result at all.
import { describe, expect, it, vi } from 'vitest';
import type { Config } from '../src/model/config.js';
import type { Resource } from '../src/model/resource.js';
import type { LintOutput } from '../src/rules/lints/lint.js';
import { unreadSource } from '../src/rules/lints/unread-source.js';
import type { SecretSource } from '../src/rules/sources/source.js';
import { run } from '../src/run.js';
import { deployment, envFrom, externalSecret, resourceList, resultsOf } from './helpers.js';

type Obj = Record<string, unknown>;

const unread = (input: string, settings: Record<string, string> = {}) => {
  const out = run(input, { settings });
  expect(out.exitCode, out.stderr).toBe(0);
  return resultsOf(out.stdout)
    .filter((r) => (r.tags as Obj | undefined)?.rule === 'unread-source')
    .map((r) => ({ on: (r.resourceRef as Obj).name, message: String(r.message) }));
};

const es = (name: string, namespace = 'shop') => externalSecret(name, { namespace });

describe('unread-source', () => {
  it('says that nothing reads a lone ExternalSecret, and that nothing there shows a reader', () => {
    expect(unread(resourceList([es('db')]))).toEqual([
      {
        on: 'db',
        message:
          'nothing in the input reads what ExternalSecret shop/db writes (Secret db): no checksum or order follows it to a reader; nothing in namespace shop shows what reads it (a chart, an operator or another package may)',
      },
    ]);
  });

  it('says a source with no namespace has none, and points at defaultNamespace', () => {
    expect(unread(resourceList([externalSecret('db')]))).toEqual([
      {
        on: 'db',
        message:
          'nothing in the input reads what ExternalSecret db writes (Secret db): no checksum or order follows it to a reader; ExternalSecret db has no namespace, so only readers with none match it; set metadata.namespace or the defaultNamespace option to the namespace the deployer gives it',
      },
    ]);
  });

  it('is one short result for a namespace of fifty ExternalSecrets (a Flux secrets kustomization)', () => {
    const names = Array.from({ length: 50 }, (_, i) => `app-${String(i).padStart(2, '0')}`);
    const results = unread(resourceList([...names.map((n) => es(n)), es('other', 'billing')]));
    expect(results.map((r) => r.on)).toEqual(['app-00', 'other']);
    const [shop] = results;
    expect(shop?.message).toMatch(
      /^nothing in the input reads what 50 sources write \(ExternalSecret shop\/app-00, .*, ExternalSecret shop\/app-04 and 45 more\): /,
    );
    expect(shop?.message.length).toBeLessThan(400);
  });

  it('names a HelmRelease and an Application of the namespace, or deploying into it', () => {
    const helmRelease = (name: string, namespace: string, target = '') =>
      `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\nspec:\n${target ? `  targetNamespace: ${target}\n` : ''}  chart: {spec: {chart: app}}\n`;
    const application = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: shop-app
  namespace: argocd
spec:
  destination: {namespace: shop}
`;
    const [result] = unread(
      resourceList([
        es('db'),
        helmRelease('local', 'shop'),
        helmRelease('remote', 'flux-system', 'shop'),
        helmRelease('elsewhere', 'billing'),
        application,
      ]),
    );
    expect(result?.message).toMatch(
      /; Application argocd\/shop-app, HelmRelease flux-system\/remote and HelmRelease shop\/local in namespace shop may read it out of sight$/,
    );
  });

  it('names a workload of the namespace whose pod template could not be read', () => {
    const broken = deployment('api', 'envFrom: 7', { namespace: 'shop' });
    // A malformed field fails the run, which then reports no info: the rule raised to warning.
    const out = run(resourceList([es('db'), broken]), {
      settings: { unreadSourceSeverity: 'warning' },
    });
    expect(out.exitCode).toBe(1);
    const [result] = resultsOf(out.stdout).filter(
      (r) => (r.tags as Obj | undefined)?.rule === 'unread-source',
    );
    expect(String(result?.message)).toMatch(/; Deployment shop\/api in namespace shop may read it/);
  });

  it('is quiet when a pod, or another ExternalSecret through templateFrom, reads the Secret', () => {
    const reads = deployment('api', envFrom('db'), { namespace: 'shop' });
    expect(unread(resourceList([es('db'), reads]))).toEqual([]);
    const renders = es('config').replace(
      'spec:\n',
      'spec:\n  target:\n    template:\n      templateFrom:\n      - secret: {name: db, items: [{key: password}]}\n',
    );
    const readsConfig = deployment('api', envFrom('config'), { namespace: 'shop' });
    expect(unread(resourceList([es('db'), renders, readsConfig]))).toEqual([]);
  });

  it('leaves out plain Secrets, custom resource targets and silenced sources', () => {
    const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: pull\n  namespace: shop\n';
    const custom = es('settings').replace(
      'spec:\n',
      'spec:\n  target:\n    manifest: {apiVersion: config.example.com/v1, kind: AppConfig}\n',
    );
    const silenced = es('quiet').replace(
      '  namespace: shop\n',
      '  namespace: shop\n  annotations: {secret-rollout/silence: unread-source}\n',
    );
    expect(
      unread(resourceList([secret, custom, silenced]), { secretChecksumKey: 'k'.repeat(32) }),
    ).toEqual([]);
    const [group] = unread(resourceList([silenced, es('db')]));
    expect(group?.message).toContain('what ExternalSecret shop/db writes');
  });

  it('counts the readers later stages give (readersOf: HelmReleases, operator resources)', () => {
    const resource = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      name: 'db',
      namespace: 'shop',
    } as Resource;
    const source = {
      resource,
      ordered: true,
      produces: 'Secret',
      namespace: 'shop',
    } as SecretSource;
    const reader = { kind: 'HelmRelease', name: 'app', namespace: 'shop' } as Resource;
    const reported: string[] = [];
    const output = {
      report: (_: Resource, message: string) => reported.push(message),
      silenced: () => false,
    } as unknown as LintOutput;
    const context = (readersOf: Map<SecretSource, Set<Resource>>) => ({
      resources: [resource],
      copies: new Map(),
      bystanders: [],
      sources: [source],
      consumersOf: new Map(),
      readersOf,
      unreadable: new Set<Resource>(),
      checksummed: new Map(),
      unresolved: new Map(),
      keyedReads: [],
      config: {} as Config,
    });
    unreadSource.check(context(new Map([[source, new Set([reader])]])), output);
    expect(reported).toEqual([]);
    unreadSource.check(context(new Map()), output);
    expect(reported).toHaveLength(1);
  });

  it('costs linear work in what may read: 2,000 HelmReleases of one namespace (counted)', () => {
    const source = {
      resource: { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', name: 'db' },
      ordered: true,
      produces: 'Secret',
      namespace: 'shop',
    } as SecretSource;
    const releases = (n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          ({
            apiVersion: 'helm.toolkit.fluxcd.io/v2',
            kind: 'HelmRelease',
            name: `app-${i}`,
            namespace: 'shop',
            value: {},
          }) as unknown as Resource,
      );
    const output = { report: () => {}, silenced: () => false } as unknown as LintOutput;
    // What a list lookup scans (Array.prototype.includes, indexOf): the name list per namespace
    // was searched once per reader, n²/2 elements for n readers in one namespace.
    const scanned = (n: number) => {
      let elements = 0;
      const { includes, indexOf } = Array.prototype;
      const spies = [
        vi.spyOn(Array.prototype, 'includes').mockImplementation(function (this: unknown[], ...a) {
          elements += this.length;
          return includes.apply(this, a as [unknown]);
        }),
        vi.spyOn(Array.prototype, 'indexOf').mockImplementation(function (this: unknown[], ...a) {
          elements += this.length;
          return indexOf.apply(this, a as [unknown]);
        }),
      ];
      try {
        unreadSource.check(
          {
            resources: [source.resource, ...releases(n)],
            copies: new Map(),
            bystanders: [],
            sources: [source],
            consumersOf: new Map(),
            readersOf: new Map(),
            unreadable: new Set<Resource>(),
            checksummed: new Map(),
            unresolved: new Map(),
            keyedReads: [],
            config: {} as Config,
          },
          output,
        );
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      return elements;
    };
    expect(scanned(2000)).toBeLessThanOrEqual(4 * 2000);
  });

  it('names every namespace of a ClusterExternalSecret, not only its first', () => {
    const ces = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: shared
spec:
  namespaces: [billing, shop]
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    data:
    - secretKey: password
      remoteRef: {key: db}
`;
    const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: app
  namespace: shop
spec:
  chart: {spec: {chart: app}}
`;
    const [result] = unread(resourceList([ces, release]));
    // HelmRelease shop/app is not in namespace billing, the first of the two.
    expect(result?.message).toMatch(
      /; HelmRelease shop\/app in namespaces billing and shop may read it out of sight$/,
    );
  });
});

describe('results on stderr, one line each', () => {
  it('shows a line break in a name or a target kind as \\n: no line of its own, no forged result', () => {
    const forged = es('db')
      .replace('name: db', 'name: "db\\nerror: forged"')
      .replace('spec:\n', 'spec:\n  target:\n    name: db\n');
    const custom = es('settings').replace(
      'spec:\n',
      'spec:\n  target:\n    manifest: {apiVersion: config.example.com/v1, kind: "App\\rerror: forged\\u2028"}\n',
    );
    const stream = `---\n${forged}`;
    const out = run(stream, { settings: { verbose: 'true' } });
    // The last line is the run's summary (`secret-rollout: 1 item, …`).
    const lines = out.stderr.split('\n').filter((line) => !/^(secret-rollout: |$)/.test(line));
    // On main the names' line breaks made lines of their own, one of them 'error: forged …'.
    expect(lines.every((line) => /^(info|warning|error): /.test(line))).toBe(true);
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
    expect(out.stderr).toContain('ExternalSecret shop/db\\nerror: forged');
    // A target kind is a type name or an error that does not quote it (the run stops there).
    const kind = run(`---\n${custom}`, { settings: { verbose: 'true' } }).stderr;
    expect(kind.split('\n').filter((line) => line.startsWith('error'))).toEqual([
      'error: ExternalSecret shop/settings: spec.target.manifest.kind is not a Kubernetes kind (a letter, then letters or digits, at most 63) [ExternalSecret shop/settings spec.target.manifest.kind] (malformed-field)',
    ]);
    for (const text of [out.stderr, kind]) expect(text).not.toMatch(/[\r\u2028]|App/);
  });
});
