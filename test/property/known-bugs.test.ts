// Minimal inputs for the bugs the properties in invariants.test.ts found, shrunk by hand. Each is
// valid YAML the function should handle; each test states the expected behaviour, so it fails
// while the bug exists. PROPERTY_AVOID_KNOWN_BUGS=1 makes the generators avoid these layouts.
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/run.js';

const externalSecret = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
spec:
  data:
  - secretKey: password
    remoteRef: {key: db/prod, version: "1"}
`;
const deployment = (templateMetadata = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
${templateMetadata}    spec:
      containers:
      - name: web
        envFrom:
        - secretRef: {name: db}
`;

/** The items of a ResourceList text as a `- ` block sequence. */
const entries = (...docs: string[]) =>
  docs
    .map((d) =>
      d
        .trimEnd()
        .split('\n')
        .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
        .join('\n'),
    )
    .join('\n');

const list = (body: string) => `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${body}`;

type Obj = Record<string, unknown>;
const checksumOf = (item: Obj) =>
  (((item.spec as Obj).template as Obj).metadata as { annotations?: Obj } | undefined)
    ?.annotations?.['checksum/external-secrets'];

function ok(text: string) {
  const out = run(text);
  expect(out.exitCode, `${out.stderr}\n${out.stdout}`).toBe(0);
  return out;
}

describe('known bugs (each test fails while its bug exists)', () => {
  it('a quoted top-level key ("kind": ResourceList) still makes a ResourceList, not a silent no-op', () => {
    const text = `apiVersion: config.kubernetes.io/v1\n"kind": ResourceList\nitems:\n${entries(externalSecret, deployment())}\n`;
    const out = ok(text);
    const items = (load(out.stdout) as { items: Obj[] }).items;
    expect(String(checksumOf(items[1] as Obj))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a quoted "functionConfig" key after the items is read as the functionConfig', () => {
    const text = list(
      `items:\n${entries(externalSecret, deployment())}\n"functionConfig": {apiVersion: v1, kind: ConfigMap, data: {syncWaves: "false"}}\n`,
    );
    const out = ok(text);
    expect(out.stdout).not.toContain('argocd.argoproj.io/sync-wave');
  });

  it('an alias in one ResourceList item may refer to an anchor in an earlier item', () => {
    const es = externalSecret.replace('  name: db', '  name: &secret db');
    const dep = deployment().replace('{name: db}', '{name: *secret}');
    const out = ok(list(`items:\n${entries(es, dep)}\n`));
    const items = (load(out.stdout) as { items: Obj[] }).items;
    expect(String(checksumOf(items[1] as Obj))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an alias in functionConfig to an anchor in an item is read, not an internal error', () => {
    const es = externalSecret.replace('  name: db', '  name: db\n  labels: {off: &off "false"}');
    const text = list(
      `items:\n${entries(es, deployment())}\nfunctionConfig: {apiVersion: v1, kind: ConfigMap, data: {syncWaves: *off}}\n`,
    );
    expect(() => run(text)).not.toThrow();
    ok(text);
  });

  it('an existing checksum written as a block scalar is updated', () => {
    const meta =
      '    metadata:\n      annotations:\n        checksum/external-secrets: |-\n          0000\n';
    const out = ok(list(`items:\n${entries(externalSecret, deployment(meta))}\n`));
    const items = (load(out.stdout) as { items: Obj[] }).items;
    expect(String(checksumOf(items[1] as Obj))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an existing checksum whose value is an alias is updated', () => {
    const meta =
      '    metadata:\n      labels: {stale: &old "0000"}\n      annotations:\n        checksum/external-secrets: *old\n';
    const out = ok(list(`items:\n${entries(externalSecret, deployment(meta))}\n`));
    const items = (load(out.stdout) as { items: Obj[] }).items;
    expect(String(checksumOf(items[1] as Obj))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an annotation can be added to metadata whose first key is explicit (`? name`)', () => {
    const es = externalSecret.replace('  name: db', '  ? name\n  : db');
    const out = ok(list(`items:\n${entries(es)}\n`));
    expect(out.stdout).toContain('argocd.argoproj.io/sync-wave');
  });

  it('a ResourceList ended by a `...` document end marker is read', () => {
    ok(list(`items:\n${entries(externalSecret)}\n...\n`));
  });

  it('a comment after a tab on an updated plain checksum value is kept', () => {
    const meta =
      '    metadata:\n      annotations:\n        checksum/external-secrets: stale\t# previous value\n';
    const out = ok(list(`items:\n${entries(externalSecret, deployment(meta))}\n`));
    expect(out.stdout).toContain('\t# previous value');
  });
});
