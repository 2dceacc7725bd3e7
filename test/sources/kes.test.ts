// Legacy KES ExternalSecret (kubernetes-client.io/v1): the Secret is named after it; the spec
// decides the content; a migration note.
import { describe, expect, it } from 'vitest';
import { externalSecret } from '../helpers.js';
import { checksums, messagesAbout, moved, reader, render, sourceTests } from './harness.js';

const defaultData = `  - key: secret/data/db
    name: password
    property: password
    version: 3
  - key: secret/data/db
    name: user
    property: user
`;

const kes = (opts: { data?: string; extra?: string; meta?: string } = {}) =>
  `apiVersion: kubernetes-client.io/v1
kind: ExternalSecret
metadata:
  name: db
  namespace: shop
${opts.meta ?? ''}spec:
  backendType: vault
  vaultMountPoint: kubernetes
  vaultRole: shop
${opts.extra ?? ''}  data:
${opts.data ?? defaultData}`;

const world = (kesText = kes()) => [
  kesText,
  reader('shop/all-keys', 'db'),
  reader('shop/user-only', 'db', 'user', '2'),
  reader('other/elsewhere', 'db'),
];
const both = ['shop/all-keys', 'shop/user-only'];
const allKeys = ['shop/all-keys'];
const t = sourceTests({ kind: 'ExternalSecret', name: 'db', text: kes(), world });

describe('KES ExternalSecret', () => {
  t.itChecksums('checksums its consumers, gets a wave below them, and recommends ESO', {
    consumers: both,
    more: (rendered) => {
      const [migrate] = messagesAbout(rendered, 'ExternalSecret', 'db');
      expect(migrate).toContain('migrate to ESO: apiVersion external-secrets.io/v1');
      expect(migrate).toContain('backendType vault and its options → a SecretStore');
      expect(migrate).toContain('provider vault');
      expect(migrate).toContain('data[].name → data[].secretKey');
    },
  });

  it('gives the migration note once for twelve KES items, naming them (issue #22)', () => {
    const names = Array.from({ length: 12 }, (_, i) => `db-${String(i).padStart(2, '0')}`);
    const rendered = render(names.map((n) => kes().replace('  name: db\n', `  name: ${n}\n`)));
    const notes = rendered.results.filter((r) => /KES is archived/.test(String(r.message)));
    expect(notes).toHaveLength(1);
    expect(notes[0]?.resourceRef).toMatchObject({ name: 'db-00' });
    expect(String(notes[0]?.message)).toMatch(
      /provider vault, named in .* \(12 resources: ExternalSecret shop\/db-00, ExternalSecret shop\/db-01, ExternalSecret shop\/db-02, ExternalSecret shop\/db-03, ExternalSecret shop\/db-04 and 7 more\)$/,
    );
  });

  it('is told apart from an ESO ExternalSecret of the same name', () => {
    const eso = externalSecret('db', { namespace: 'shop' }).replace('name: db\n', 'name: db-eso\n');
    // The ESO one writes Secret db-eso, so the KES alone decides the checksum of all-keys.
    expect(checksums([...world(), eso])['shop/all-keys']).toBe(checksums(world())['shop/all-keys']);
  });

  t.itMovesOn('moves only templates that read the key on %s', allKeys, [
    ['data[].version', 'version: 3', 'version: 4'],
    ['data[].versionStage', 'version: 3', 'versionStage: AWSPREVIOUS'],
    ['data[].property', 'property: password', 'property: pass'],
    ['data[].isBinary', 'version: 3', 'version: 3\n    isBinary: true'],
    [
      'data[].key',
      'key: secret/data/db\n    name: password',
      'key: secret/data/x\n    name: password',
    ],
  ]);

  t.itMovesOn('moves every consumer on %s', both, [
    ['backendType', 'backendType: vault', 'backendType: secretsManager'],
    ['backend options', 'vaultMountPoint: kubernetes', 'vaultMountPoint: k8s'],
    ['kvVersion', 'vaultRole: shop', 'vaultRole: shop\n  kvVersion: 1'],
    ['template', 'vaultRole: shop', 'vaultRole: shop\n  template: {type: kubernetes.io/tls}'],
    ['dataFrom', 'vaultRole: shop', 'vaultRole: shop\n  dataFrom: [secret/data/extra]'],
    [
      'dataFromWithOptions',
      'vaultRole: shop',
      'vaultRole: shop\n  dataFromWithOptions: [{key: x}]',
    ],
  ]);

  it.each([
    ['template', { extra: '  template: {type: kubernetes.io/tls}\n' }],
    ['dataFrom', { extra: '  dataFrom: [secret/data/extra]\n' }],
    ['dataFromWithOptions', { extra: '  dataFromWithOptions: [{key: secret/data/extra}]\n' }],
    ['a path entry', { data: `  - path: /shop/\n${defaultData}` }],
  ])('counts every data[] entry for every consumer when %s decides keys too', (_, opts) => {
    const bumped = kes(opts).replace('version: 3', 'version: 4');
    expect(moved(world(kes(opts)), world(bumped))).toEqual(both);
  });

  t.itMovesNone(
    'does not move on labels, annotations, controllerId or spelled-out defaults',
    kes({
      meta: '  labels: {a: b}\n  annotations: {note: n}\n',
      extra: '  controllerId: second\n  kvVersion: 2\n',
    }).replace('version: 3', 'version: 3\n    isBinary: false'),
  );

  t.itReportsMalformed([
    [kes({ data: '  - key: secret/data/db\n' }), 'spec.data[0].name', 'is missing'],
    [kes({ data: '  - name: password\n' }), 'spec.data[0].key', 'is missing'],
    [kes({ data: '  - path: [x]\n' }), 'spec.data[0].path', 'is not a string'],
    [kes({ data: '    []\n' }), 'spec', 'has none of spec.data, spec.dataFrom'],
    [kes({ extra: '  dataFrom: [{key: x}]\n' }), 'spec.dataFrom[0]', 'is not a string'],
    [kes().replace('backendType: vault', 'backendType: 3'), 'spec.backendType', 'is not a string'],
  ]);
});
