// VSO VaultStaticSecret: the Secret is spec.destination.name; mount, path, version, type and the
// destination's type and transformation decide its content.
import { describe, expect, it } from 'vitest';
import {
  messagesAbout,
  moved,
  reader,
  render,
  secretReaders,
  shopReaders,
  sourceTests,
} from './harness.js';

const vss = (opts: { spec?: string; destination?: string; meta?: string } = {}) =>
  `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultStaticSecret
metadata:
  name: db-vss
  namespace: shop
${opts.meta ?? ''}spec:
  vaultAuthRef: shop-auth
  mount: kvv2
  path: shop/db
  type: kv-v2
  version: 3
  refreshAfter: 30s
${opts.spec ?? ''}  destination:
    name: db
    create: true
${opts.destination ?? ''}`;

const world = (text = vss()) => [
  text,
  ...secretReaders('db'),
  reader('shop/by-resource-name', 'db-vss'),
];
const both = shopReaders;
const t = sourceTests({ kind: 'VaultStaticSecret', name: 'db-vss', text: vss(), world });

describe('VaultStaticSecret', () => {
  t.itChecksums('checksums the consumers of the destination Secret and gets a wave below them', {
    consumers: both,
    // Keys come from Vault, not the spec: never narrowed.
    same: ['shop/one-key', 'shop/all-keys'],
  });

  t.itMovesOn('moves every consumer on %s', both, [
    ['version', 'version: 3', 'version: 4'],
    ['path', 'path: shop/db', 'path: shop/db2'],
    ['mount', 'mount: kvv2', 'mount: kv'],
    ['type', 'type: kv-v2\n  version: 3', 'type: kv-v1'],
    ['Vault namespace', 'mount: kvv2', 'mount: kvv2\n  namespace: team-a'],
    ['vaultAuthRef', 'shop-auth', 'other-auth'],
    ['destination type', 'create: true', 'create: true\n    type: kubernetes.io/tls'],
    [
      'transformation',
      'create: true',
      'create: true\n    transformation:\n      excludes: [".*"]\n      templates:\n        url: {text: "{{ .Secrets.host }}"}',
    ],
    ['excludeRaw', 'create: true', 'create: true\n    transformation: {excludeRaw: true}'],
  ]);

  t.itMovesNone(
    'does not move on labels, annotations, refresh, sync, HMAC, restart or lifecycle settings',
    vss({
      meta: '  labels: {a: b}\n  annotations: {note: n}\n',
      spec: '  hmacSecretData: false\n  syncConfig: {instantUpdates: true}\n  rolloutRestartTargets: [{kind: Deployment, name: all-keys}]\n',
      destination:
        '    overwrite: true\n    labels: {x: y}\n    annotations: {z: w}\n    type: Opaque\n    transformation: {resync: false, excludeRaw: false}\n',
    }).replace('refreshAfter: 30s', 'refreshAfter: 1h'),
  );

  it('warns on the workloads rolloutRestartTargets name (not the source), once', () => {
    const text = vss({
      spec: '  rolloutRestartTargets:\n  - {kind: Deployment, name: all-keys}\n',
    });
    const rendered = render(world(text));
    expect(messagesAbout(rendered, 'VaultStaticSecret', 'db-vss')).toEqual([
      'sync-wave -1, before Deployment shop/all-keys, Deployment shop/one-key',
    ]);
    const warnings = rendered.results.filter((r) => /restart/.test(String(r.message)));
    expect(warnings).toEqual([
      expect.objectContaining({
        message:
          'Deployment shop/all-keys is restarted by secret-rollout\'s checksum/external-secrets and also by the Vault Secrets Operator (VaultStaticSecret shop/db-vss spec.rolloutRestartTargets[0]): a change can restart it twice. Remove it from rolloutRestartTargets, or opt out here with secret-rollout/ignore: "true"',
        resourceRef: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'all-keys',
          namespace: 'shop',
        },
        field: { path: 'spec.template.metadata.annotations[checksum/external-secrets]' },
      }),
    ]);
  });

  it('notes destination.create false', () => {
    const notCreated = render(world(vss().replace('create: true', 'create: false')));
    expect(messagesAbout(notCreated, 'VaultStaticSecret', 'db-vss')[0]).toContain(
      'spec.destination.create is false: VSO only writes the data of the existing Secret db',
    );
    // Without create VSO ignores the destination type: it does not count.
    const typed = (create: string) =>
      world(vss().replace('create: true', `create: ${create}\n    type: kubernetes.io/tls`));
    const untyped = world(vss().replace('create: true', 'create: false'));
    expect(moved(untyped, typed('false'))).toEqual([]);
    expect(moved(typed('true'), typed('false'))).toEqual(both);
  });

  t.itReportsMalformed([
    [vss().replace('    name: db\n', ''), 'spec.destination.name', 'is missing'],
    [
      vss().replace('  destination:\n    name: db\n    create: true\n', ''),
      'spec.destination',
      'not a mapping',
    ],
    [vss().replace('path: shop/db', 'path: ""'), 'spec.path', 'is missing'],
    [vss().replace('type: kv-v2', 'type: kv'), 'spec.type', 'must be one of kv-v1, kv-v2'],
    [vss().replace('version: 3', 'version: -1'), 'spec.version', 'not a non-negative integer'],
    [
      vss().replace('create: true', 'create: "yes"'),
      'spec.destination.create',
      'not true or false',
    ],
    [
      vss({ spec: '  rolloutRestartTargets: [{kind: Deployment}]\n' }),
      'spec.rolloutRestartTargets[0].name',
      'is missing',
    ],
  ]);
});
