// Option defaultNamespace (#21 §5): the namespace a deployer puts namespace-less namespaced items
// in. Matching, waves, plan and results read it; the items' text never gets it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveNamespace, isClusterScoped } from '../src/model/scope.js';
import { plan, run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  insertedLines,
  repoRoot,
  resourceList,
  resultsOf,
  secretKeyRef,
} from './helpers.js';

/** DopplerHQ/kubernetes-operator's config/samples (testdata/SOURCES.md), as `kubectl apply -f` reads them. */
const dopplerSample = () => {
  const dir = path.join(repoRoot, 'testdata/doppler/config/samples');
  return readdirSync(dir)
    .sort()
    .map((f) => `---\n${readFileSync(path.join(dir, f), 'utf8')}`)
    .join('');
};

/** Lines the run inserted into the items (a ResourceList's results left out). */
const inserted = (input: string, output: string) =>
  insertedLines(input, output.replace(/^results:\n[\s\S]*/m, '')).join('\n');
const crossNamespace = (stderr: string) =>
  stderr.split('\n').filter((l) => l.endsWith('(cross-namespace)'));

describe("DopplerHQ's own sample, applied with kubectl apply into default", () => {
  const input = dopplerSample();

  it('gives each of the 3 Deployments a checksum with defaultNamespace=default, and no cross-namespace warning', () => {
    const out = run(input, { settings: { defaultNamespace: 'default' } });
    expect(out.exitCode).toBe(0);
    // On main: no checksum, and 3 warnings that references never cross namespaces.
    expect(out.stdout.match(/checksum\/external-secrets: "[0-9a-f]{64}"/g)).toHaveLength(3);
    expect(crossNamespace(out.stderr)).toEqual([]);
    // Nothing but our annotations is written: no namespace goes into the items.
    expect(inserted(input, out.stdout)).not.toMatch(/namespace/);
    // The warnings left are true ones: the sample also asks Doppler's operator to restart them.
    expect(out.stderr.match(/\(double-restart\)/g)).toHaveLength(3);
    expect(out.stderr).toContain('[Deployment default/doppler-test-deployment-volume ');
    expect(run(out.stdout, { settings: { defaultNamespace: 'default' } }).stdout).toBe(out.stdout);
  });

  it('says, without the option, that the workload namespace is unset, and names the option', () => {
    const out = run(input);
    expect(out.stdout).not.toMatch(/checksum\/external-secrets/);
    const warnings = crossNamespace(out.stderr);
    expect(warnings).toHaveLength(3);
    // On main: "references never cross namespaces; check the namespace of both".
    expect(warnings[0]).toBe(
      "warning: Deployment doppler-test-deployment-envfrom reads Secret doppler-test-secret, which DopplerSecret doppler-operator-system/dopplersecret-test produces only in namespace default: the workload's namespace is unset, not different; if its deployer applies it in a namespace (Argo CD destination.namespace, Flux targetNamespace, kubectl or kpt live -n, else the kubeconfig context's), set the option defaultNamespace to that namespace, else set its metadata.namespace [Deployment doppler-test-deployment-envfrom spec.template.spec.containers[0].envFrom[0].secretRef.name] (cross-namespace)",
    );
    expect(out.stderr).not.toMatch(/never cross/);
  });
});

/** An Argo CD Application's files: destination.namespace shop, Deployments without a namespace. */
const infisical = `apiVersion: secrets.infisical.com/v1alpha1
kind: InfisicalSecret
metadata:
  name: api-env
  namespace: shop
spec:
  authentication:
    universalAuth:
      credentialsRef: {secretName: universal-auth, secretNamespace: shop}
      secretsScope: {projectSlug: shop, envSlug: prod, secretsPath: /}
  managedSecretReference:
    secretName: api-env
    secretNamespace: shop
`;

describe('an Argo CD application: InfisicalSecret naming the namespace, Deployments without one', () => {
  const items = [
    infisical,
    deployment('api', envFrom('api-env')),
    deployment('worker', envFrom('api-env')),
  ];

  it('matches with defaultNamespace, and writes no namespace', () => {
    const input = resourceList(
      items,
      'apiVersion: v1\nkind: ConfigMap\ndata:\n  defaultNamespace: shop',
    );
    const out = run(input);
    expect(out.exitCode).toBe(0);
    const results = resultsOf(out.stdout);
    expect(results.filter((r) => (r.tags as { rule: string }).rule === 'cross-namespace')).toEqual(
      [],
    );
    const checksums = results.filter((r) => (r.tags as { rule: string }).rule === 'checksum');
    // Results name them in the namespace they live in.
    expect(checksums.map((r) => r.resourceRef)).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', namespace: 'shop' },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'worker', namespace: 'shop' },
    ]);
    expect(inserted(input, out.stdout)).not.toMatch(/namespace/);
  });

  it('is the plan, in that namespace', () => {
    const stream = items.map((i) => `---\n${i}`).join('');
    const json = JSON.parse(
      plan(stream, { format: 'json', settings: { defaultNamespace: 'shop' } }).stdout,
    );
    expect(JSON.stringify(json)).toContain('"namespace":"shop","name":"api"');
    const without = run(stream);
    expect(crossNamespace(without.stderr)).toHaveLength(2);
  });
});

describe('cluster-scoped kinds stay cluster-scoped', () => {
  const store = (kind: string, name: string) =>
    `apiVersion: external-secrets.io/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\nspec:\n  provider: {fake: {data: []}}\n`;
  const local = externalSecret('local').replace(
    'name: vault\n    kind: ClusterSecretStore',
    'name: local\n    kind: SecretStore',
  );
  const input = resourceList(
    [
      store('ClusterSecretStore', 'vault'),
      store('SecretStore', 'local').replace(
        '  name: local\n',
        '  name: local\n  namespace: shop\n',
      ),
      externalSecret('db'),
      local,
      deployment(
        'app',
        `${envFrom('db')}\n${secretKeyRef('local', 'user').replace('env:', 'env:')}`,
      ),
    ],
    'apiVersion: v1\nkind: ConfigMap\ndata:\n  defaultNamespace: shop',
  );

  it('orders a namespace-less source after its namespaced store, and names the ClusterSecretStore with no namespace', () => {
    const results = resultsOf(run(input).stdout);
    const waves = results
      .filter((r) => (r.tags as { rule: string }).rule === 'sync-wave')
      .map((r) => r.resourceRef as { kind: string; name: string; namespace?: string });
    expect(waves).toEqual([
      { apiVersion: 'external-secrets.io/v1', kind: 'ClusterSecretStore', name: 'vault' },
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'SecretStore',
        name: 'local',
        namespace: 'shop',
      },
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        name: 'db',
        namespace: 'shop',
      },
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        name: 'local',
        namespace: 'shop',
      },
    ]);
  });

  it('knows the kinds kyaml knows, and treats an unknown kind as namespaced, as kustomize does', () => {
    for (const [apiVersion, kind] of [
      ['v1', 'Namespace'],
      ['v1', 'PersistentVolume'],
      ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
      ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
      ['storage.k8s.io/v1', 'StorageClass'],
      ['external-secrets.io/v1', 'ClusterExternalSecret'],
      ['external-secrets.io/v1beta1', 'ClusterSecretStore'],
    ]) {
      expect(isClusterScoped(apiVersion as string, kind as string), kind).toBe(true);
      expect(effectiveNamespace(apiVersion as string, kind as string, undefined, 'shop')).toBe(
        undefined,
      );
    }
    expect(effectiveNamespace('example.com/v1', 'Widget', undefined, 'shop')).toBe('shop');
    expect(effectiveNamespace('apps/v1', 'Deployment', 'prod', 'shop')).toBe('prod');
    expect(effectiveNamespace('apps/v1', 'Deployment', undefined, undefined)).toBe(undefined);
    // A core kind named like a cluster-scoped one of another group is not it.
    expect(isClusterScoped('example.com/v1', 'Namespace')).toBe(false);
  });
});

describe('plain Secrets copied through unparsed', () => {
  it('live in the default namespace too: a workload reading one is not sent elsewhere', () => {
    const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata: {}\n';
    const items = [
      externalSecret('db', { namespace: 'prod' }),
      secret,
      deployment('app', envFrom('db'), { namespace: 'default' }),
    ];
    const stream = items.map((i) => `---\n${i}`).join('');
    expect(crossNamespace(run(stream).stderr)).toHaveLength(1);
    const out = run(stream, { settings: { defaultNamespace: 'default' } });
    expect(out.exitCode).toBe(0);
    expect(crossNamespace(out.stderr)).toEqual([]);
  });
});

describe('the option', () => {
  it('takes a namespace name, and says what one is without quoting the value', () => {
    const input = deployment('app', envFrom('db'));
    const out = run(input, { settings: { defaultNamespace: 'Not_A_Namespace' } });
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain('defaultNamespace must be a namespace name');
    expect(out.stderr).not.toContain('Not_A_Namespace');
    expect(run(input, { settings: { defaultNamespace: '' } }).exitCode).toBe(0);
  });
});

describe('what sources read and select', () => {
  const checksumOf = (stream: string, settings: Record<string, string>) =>
    /checksum\/external-secrets: "([0-9a-f]{64})"/.exec(run(stream, { settings }).stdout)?.[1];

  it('a templateFrom ConfigMap without a namespace is a dependency of an ExternalSecret in the default namespace', () => {
    const items = (body: string) =>
      [
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\ndata:\n  config.yaml: "${body}"\n`,
        externalSecret('db', { namespace: 'shop' }).replace(
          '  data:\n',
          '  target:\n    template:\n      templateFrom:\n      - configMap: {name: tpl, items: [{key: config.yaml}]}\n  data:\n',
        ),
        deployment('app', envFrom('db')),
      ]
        .map((i) => `---\n${i}`)
        .join('');
    const settings = { defaultNamespace: 'shop' };
    const before = checksumOf(items('a'), settings);
    expect(before).toBeDefined();
    // On main the ConfigMap is another namespace's: the ExternalSecret's template reads none.
    expect(checksumOf(items('b'), settings)).not.toBe(before);
    expect(run(items('a'), { settings }).stderr).not.toMatch(/not in the input/);
  });

  it('a ClusterExternalSecret selecting all namespaces reaches a namespace-less workload there', () => {
    const ces = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: db
spec:
  namespaceSelectors: [{matchLabels: {team: shop}}]
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: db}
    data:
    - secretKey: user
      remoteRef: {key: db, property: user, version: "1"}
`;
    const stream = [ces, deployment('app', envFrom('db'))].map((i) => `---\n${i}`).join('');
    const settings = { clusterExternalSecretNamespaces: 'all' };
    expect(checksumOf(stream, settings)).toBeUndefined();
    expect(checksumOf(stream, { ...settings, defaultNamespace: 'shop' })).toBeDefined();
  });

  it("says the source's namespace is unset when the workload names one and no source does", () => {
    const stream = [externalSecret('db'), deployment('app', envFrom('db'), { namespace: 'shop' })]
      .map((i) => `---\n${i}`)
      .join('');
    const [warning] = crossNamespace(run(stream).stderr);
    expect(warning).toContain(
      "which ExternalSecret db produces only in namespace (none): the source's namespace is unset, not different; if its deployer applies it",
    );
    const out = run(stream, { settings: { defaultNamespace: 'shop' } });
    expect(crossNamespace(out.stderr)).toEqual([]);
    expect(out.stdout).toMatch(/checksum\/external-secrets/);
  });
});
