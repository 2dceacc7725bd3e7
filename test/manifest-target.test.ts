// ESO generic targets (issue #23 §4): `spec.target.manifest` makes an ExternalSecret write a
// ConfigMap (a source whose ConfigMap pods read like a Secret) or a custom resource (no PodSpec
// field reads it: ordered after its store, one info). On main both were skipped: no checksum, no
// wave, a "skipped" info.
import { describe, expect, it } from 'vitest';
import { impact } from '../src/impact-run.js';
import { plan, run } from '../src/run.js';
import {
  checksumKey,
  deployment,
  externalSecret,
  find,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
  templateAnnotation,
  wave,
} from './helpers.js';

type Obj = Record<string, unknown>;

/** ExternalSecret `name` in shop, writing `kind` (ConfigMap by default) named `app-config`. */
const generic = (name = 'config', manifest = '{apiVersion: v1, kind: ConfigMap}', extra = '') =>
  externalSecret(name, { namespace: 'shop', version: '1', extra }).replace(
    'spec:\n',
    `spec:\n  target:\n    name: app-config\n    manifest: ${manifest}\n`,
  );

/** The store helpers' ExternalSecrets read, a Vault (which pins by version). */
const store =
  'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata: {name: vault}\n' +
  'spec: {provider: {vault: {server: https://vault.example.com, path: kv, version: v2}}}\n';

const configMapRef = 'envFrom:\n- configMapRef:\n    name: app-config';
const configMapKeyRef = (key: string) =>
  `env:\n- name: X\n  valueFrom:\n    configMapKeyRef:\n      name: app-config\n      key: ${key}`;
/** A Deployment in shop whose container has `fields`, and whose pod has `volumes`. */
const reader = (name: string, fields: string, volumes = '') =>
  deployment(name, fields, { namespace: 'shop' }) +
  (volumes ? `      volumes:\n      - name: c\n        ${volumes}\n` : '');
const rule = (out: string, id: string) =>
  resultsOf(out).filter((r) => (r.tags as Obj | undefined)?.rule === id);

describe('an ExternalSecret with a ConfigMap target', () => {
  it('gives every kind of ConfigMap reference its checksum, and is ordered before them', () => {
    const mount = 'volumeMounts:\n- {name: c, mountPath: /etc/c}';
    const readers = [
      reader('env-from', configMapRef),
      reader('key-ref', configMapKeyRef('password')),
      reader('volume', mount, 'configMap: {name: app-config}'),
      reader('projected', mount, 'projected: {sources: [{configMap: {name: app-config}}]}'),
    ];
    const out = runOk(resourceList([store, generic(), ...readers]));
    const items = itemsOf(out.stdout);
    for (const name of ['env-from', 'key-ref', 'volume', 'projected']) {
      expect(templateAnnotation(find(items, 'Deployment', name)), name).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(wave(find(items, 'ClusterSecretStore', 'vault'))).toBe('-2');
    expect(wave(find(items, 'ExternalSecret', 'config'))).toBe('-1');
    expect(out.stderr).not.toMatch(/skipped|unread-source|manifest-target/);
  });

  it('is not what a Secret reference of the same name reads', () => {
    const out = runOk(
      resourceList([generic(), deployment('api', 'envFrom:\n- secretRef: {name: app-config}')]),
    );
    expect(templateAnnotation(find(itemsOf(out.stdout), 'Deployment', 'api'))).toBeUndefined();
  });

  it('moves the checksum with what decides the content, not with the refresh interval', () => {
    const sum = (es: string) =>
      templateAnnotation(
        find(
          itemsOf(runOk(resourceList([es, reader('api', configMapRef)])).stdout),
          'Deployment',
          'api',
        ),
      );
    const before = sum(generic());
    expect(sum(generic().replace('version: "1"', 'version: "2"'))).not.toBe(before);
    expect(sum(generic().replace('refreshInterval: 1h', 'refreshInterval: 5m'))).toBe(before);
  });

  it('has the Secret target lints: missing key, unpinned version', () => {
    const out = run(resourceList([store, generic(), reader('api', configMapKeyRef('passwd'))]));
    const [missing] = rule(out.stdout, 'missing-key');
    expect(String(missing?.message)).toContain('ConfigMap app-config');
    // `user` has no remoteRef.version (helpers' externalSecret).
    expect(rule(out.stdout, 'unpinned-version')).toHaveLength(1);
  });

  it('a rotation on a store that cannot pin reaches its ConfigMap, not "its Secret"', () => {
    const onePassword = store.replace(
      '{vault: {server: https://vault.example.com, path: kv, version: v2}}',
      '{onepassword: {connectHost: https://op.example.com}}',
    );
    const out = runOk(resourceList([onePassword, generic(), reader('api', configMapRef)]));
    const [note] = rule(out.stdout, 'unpinned-version');
    expect(String(note?.message)).toContain(
      'a rotation reaches its ConfigMap at the next refresh (refreshInterval)',
    );
    expect(String(note?.message)).toContain('a restarter that watches ConfigMaps');
    expect(String(note?.message)).not.toMatch(/\bSecrets?\b/);
  });

  it('keeps its name under targetNames: hashed, with an info', () => {
    const out = runOk(resourceList([generic(), reader('api', configMapRef)]), {
      targetNames: 'hashed',
    });
    const items = itemsOf(out.stdout);
    const es = find(items, 'ExternalSecret', 'config');
    expect(((es.spec as Obj).target as Obj).name).toBe('app-config');
    expect(templateAnnotation(find(items, 'Deployment', 'api'))).toMatch(/^[0-9a-f]{64}$/);
    const [kept] = rule(out.stdout, 'target-name-kept');
    expect(String(kept?.message)).toMatch(
      /its ConfigMap keeps its name .*; the pods that read it roll by checksum$/,
    );
  });

  it('reaches the pods a ClusterExternalSecret writes it for', () => {
    const ces = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: shared
spec:
  namespaces: [shop]
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target:
      name: app-config
      manifest: {apiVersion: v1, kind: ConfigMap}
    data:
    - secretKey: password
      remoteRef: {key: k, version: "1"}
`;
    const out = runOk(resourceList([ces, reader('api', configMapRef)]));
    expect(templateAnnotation(find(itemsOf(out.stdout), 'Deployment', 'api'))).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it('needs the manifest kind: a malformed target is an error naming the field', () => {
    const out = run(resourceList([generic('config', '{apiVersion: v1}')]));
    expect(out.exitCode).toBe(1);
    expect(rule(out.stdout, 'malformed-field').map((r) => r.message)).toEqual([
      'ExternalSecret shop/config: spec.target.manifest.kind is not set',
    ]);
  });

  it('names a kind only when it is a type name: a long kind is an error that does not quote it', () => {
    const long = `K${'a'.repeat(3000)}`;
    const out = run(
      resourceList([generic('config', `{apiVersion: example.com/v1, kind: ${long}}`)]),
    );
    expect(out.exitCode).toBe(1);
    expect(rule(out.stdout, 'malformed-field').map((r) => r.message)).toEqual([
      'ExternalSecret shop/config: spec.target.manifest.kind is not a Kubernetes kind (a letter, then letters or digits, at most 63)',
    ]);
    expect(out.stderr).not.toContain('aaaaaaaa');
  });
});

describe('an ExternalSecret with a custom resource target', () => {
  const custom = generic('settings', '{apiVersion: config.example.com/v1, kind: AppConfig}');

  it('is ordered after its store, with one info and no checksum anywhere', () => {
    const out = runOk(
      resourceList([store, custom, reader('api', 'envFrom:\n- configMapRef: {name: app-config}')]),
    );
    const items = itemsOf(out.stdout);
    expect(wave(find(items, 'ClusterSecretStore', 'vault'))).toBe('-2');
    expect(wave(find(items, 'ExternalSecret', 'settings'))).toBe('-1');
    expect(templateAnnotation(find(items, 'Deployment', 'api'))).toBeUndefined();
    const notes = rule(out.stdout, 'manifest-target');
    expect(notes.map((r) => [r.message, (r.field as Obj).path])).toEqual([
      [
        'its target is a custom resource, AppConfig (target.manifest), which no PodSpec field reads: no checksum follows it; it is ordered after its store',
        'spec.target.manifest',
      ],
    ]);
    expect(out.stderr).not.toMatch(/skipped|unread-source/);
    expect(out.stdout).not.toContain(checksumKey);
  });

  it('a v1 Secret manifest is said to be a Secret written through the generic path', () => {
    const secretTarget = generic('settings', '{apiVersion: v1, kind: Secret}');
    const notes = rule(runOk(resourceList([store, secretTarget])).stdout, 'manifest-target');
    expect(notes.map((r) => r.message)).toEqual([
      "its target is a v1 Secret written through target.manifest (ESO's generic path, not its Secret target): it is not followed as a Secret, so no checksum follows it; it is ordered after its store. For a Secret target, drop target.manifest",
    ]);
  });

  it('is named by the kind it writes in the duplicate-writer warning, in run and impact', () => {
    const other = generic('settings-copy', '{apiVersion: config.example.com/v1, kind: AppConfig}');
    const input = resourceList([store, custom, other]);
    const messages = rule(runOk(input).stdout, 'duplicate-writer').map((r) => String(r.message));
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(m).toContain('all write AppConfig app-config;');
    const side = (label: string, text: string) => ({ label, text, origins: [] });
    const report = impact(side('BASE', resourceList([store, custom])), side('HEAD', input), {});
    expect(report.stdout).toContain('all write AppConfig app-config;');
    expect(report.stdout).not.toContain('CustomResource');
  });

  it('is shown by plan as the kind it writes', () => {
    const table = plan(resourceList([custom]));
    expect(table.stdout).toMatch(
      /ExternalSecret +shop\/settings +writes AppConfig shop\/app-config\n/,
    );
    const json = JSON.parse(plan(resourceList([custom]), { format: 'json' }).stdout);
    const [node] = json.nodes.filter((n: Obj) => n.kind === 'ExternalSecret');
    expect(node.writes).toEqual([{ kind: 'AppConfig', namespace: 'shop', name: 'app-config' }]);
  });
});
