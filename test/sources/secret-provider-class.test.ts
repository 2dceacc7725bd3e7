// Secrets Store CSI driver SecretProviderClass: pods mounting a CSI volume of the driver that
// names it consume it directly (provider and parameters); its secretObjects are Secrets whose
// consumers are its consumers too (type and data, per key).
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/run.js';
import { find, templateAnnotation } from '../helpers.js';
import {
  annotated,
  checksums,
  expectWarning,
  moved,
  reader,
  render,
  sourceTests,
  waveOf,
} from './harness.js';

const spc = (opts: { parameters?: string; objects?: string; meta?: string } = {}) =>
  `apiVersion: secrets-store.csi.x-k8s.io/v1
kind: SecretProviderClass
metadata:
  name: azure-kv
  namespace: shop
${opts.meta ?? ''}spec:
  provider: azure
  parameters:
    keyvaultName: shop-kv
    tenantId: 00000000-0000-0000-0000-000000000000
    objects: |
      array:
        - |
          objectName: db-password
          objectType: secret
          objectVersion: "7"
${opts.parameters ?? ''}${
  opts.objects ??
  `  secretObjects:
  - secretName: db
    type: Opaque
    labels: {app: shop}
    data:
    - objectName: db-password
      key: password
    - objectName: db-user
      key: user
`
}`;

/** A pod template mounting a CSI volume (`csi` is the volume's source). */
const mounting = (name: string, csi: string, namespace = 'shop') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: app
        image: app:1
        volumeMounts:
        - {name: secrets, mountPath: /mnt/secrets, readOnly: true}
      volumes:
      - name: secrets
        csi:
${csi.replace(/^/gm, '          ')}
`;
const secretsStore = (spcName: string, extra = '') =>
  `driver: secrets-store.csi.k8s.io\nreadOnly: true\nvolumeAttributes:\n  secretProviderClass: ${spcName}${extra}`;

const world = (text = spc(), extra: string[] = []) => [
  text,
  mounting('mounts', secretsStore('azure-kv')),
  mounting(
    'other-driver',
    'driver: other.csi.example.com\nvolumeAttributes:\n  secretProviderClass: azure-kv',
  ),
  mounting('other-spc', secretsStore('elsewhere-kv')),
  mounting('other-namespace', secretsStore('azure-kv'), 'other'),
  reader('shop/all-keys', 'db'),
  reader('shop/password', 'db', 'password'),
  reader('shop/user', 'db', 'user'),
  ...extra,
];
const all = ['shop/mounts', 'shop/all-keys', 'shop/password', 'shop/user'];
const t = sourceTests({ kind: 'SecretProviderClass', name: 'azure-kv', text: spc(), world });

describe('SecretProviderClass', () => {
  t.itChecksums(
    'checksums pods mounting it and consumers of its secretObjects, and gets a wave below them',
    { consumers: all },
  );

  t.itMovesOn('moves every consumer on %s', all, [
    ['provider', 'provider: azure', 'provider: vault'],
    ['a parameter', 'keyvaultName: shop-kv', 'keyvaultName: shop-kv2'],
    ['the object version', 'objectVersion: "7"', 'objectVersion: "8"'],
  ]);

  it('moves the synced Secret consumers on its type and data, per key, not the mount', () => {
    const retype = spc().replace('type: Opaque', 'type: kubernetes.io/basic-auth');
    expect(moved(world(), world(retype))).toEqual(['shop/all-keys', 'shop/password', 'shop/user']);
    const remap = spc().replace('objectName: db-user', 'objectName: db-login');
    expect(moved(world(), world(remap))).toEqual(['shop/all-keys', 'shop/user']);
  });

  t.itMovesNone(
    'does not move on metadata, the synced Secret labels and annotations, or order',
    spc({ meta: '  labels: {team: shop}\n' })
      .replace('labels: {app: shop}', 'labels: {app: other}\n    annotations: {a: b}')
      .replace(
        '    keyvaultName: shop-kv\n    tenantId: 00000000-0000-0000-0000-000000000000\n',
        '    tenantId: 00000000-0000-0000-0000-000000000000\n    keyvaultName: shop-kv\n',
      )
      .replace('secretName: db', 'secretName: " db "'),
  );

  it('orders and checksums the nodePublishSecretRef Secret of the driver only', () => {
    const creds = `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata: {name: kv-creds, namespace: shop}
spec:
  encryptedData: {clientid: AgBy, clientsecret: AgCz}
`;
    const withRef = (name: string, driver: string) =>
      mounting(name, `${driver}\nnodePublishSecretRef:\n  name: kv-creds`);
    const items = (seal: string) => [
      seal,
      withRef('store-creds', secretsStore('elsewhere-kv')),
      withRef('disk-creds', 'driver: disk.csi.example.com'),
    ];
    const resealed = creds.replace('AgBy', 'AgBx');
    expect(annotated(items(creds))).toEqual(['shop/store-creds']);
    expect(moved(items(creds), items(resealed))).toEqual(['shop/store-creds']);
    expect(waveOf(render(items(creds)), 'SealedSecret', 'kv-creds')).toBe('-1');
  });

  it('keeps one SecretProviderClass checksum apart from another', () => {
    const second = spc()
      .replace('name: azure-kv', 'name: elsewhere-kv')
      .replace('secretName: db', 'secretName: db2');
    const sums = checksums(world(spc(), [second]));
    expect(sums['shop/other-spc']).toBeDefined();
    expect(sums['shop/other-spc']).not.toBe(sums['shop/mounts']);
  });

  it('plans the same in a stream as in a ResourceList', () => {
    const out = run(world().join('---\n'));
    expect(out.exitCode).toBe(0);
    const sums = checksums(world());
    const items = loadAll(out.stdout) as Parameters<typeof find>[0];
    for (const name of ['mounts', 'user']) {
      const item = find(items, 'Deployment', name);
      expect(templateAnnotation(item)).toBe(sums[`shop/${name}`]);
    }
  });

  it('knows the keys a synced Secret has, for the missing-key lint', () => {
    expectWarning([spc(), reader('shop/typo', 'db', 'passwd')], 'passwd');
  });

  it('warns when a pod mounts a SecretProviderClass that exists only in another namespace', () => {
    const lost = mounting('lost', secretsStore('azure-kv'), 'other');
    expectWarning([spc(), lost], 'reads SecretProviderClass azure-kv');
  });

  t.itReportsMalformed([
    [spc().replace('  provider: azure\n', ''), 'spec.provider', 'is missing'],
    [
      spc().replace('keyvaultName: shop-kv', 'keyvaultName: 3'),
      'spec.parameters[keyvaultName]',
      'not a string',
    ],
    [spc().replace('    type: Opaque\n', ''), 'spec.secretObjects[0].type', 'is missing'],
    [spc().replace('      key: user\n', ''), 'spec.secretObjects[0].data[1].key', 'is missing'],
    [
      spc({ objects: '  secretObjects:\n  - {secretName: db, type: Opaque}\n' }),
      'spec.secretObjects[0].data',
      'is missing',
    ],
    [
      spc({
        objects:
          '  secretObjects:\n  - {secretName: db, type: Opaque, data: [{objectName: a, key: a}]}\n  - {secretName: db, type: Opaque, data: [{objectName: b, key: b}]}\n',
      }),
      'spec.secretObjects[1].secretName',
      'names Secret db again',
    ],
  ]);
});
