// Bitwarden BitwardenSecret: the Secret is spec.secretName in its namespace; the whole spec
// decides it, per key when only mapped secrets are synced.
import { describe, expect, it } from 'vitest';
import { expectWarning, moved, reader, sourceTests } from './harness.js';

const bw = (opts: { spec?: string } = {}) =>
  `apiVersion: k8s.bitwarden.com/v1
kind: BitwardenSecret
metadata:
  name: shop-bw
  namespace: shop
spec:
  organizationId: 2c1a4c1e-0000-4000-8000-000000000001
  secretName: shop-db
  map:
  - bwSecretId: 6f1b0c3e-0000-4000-8000-000000000002
    secretKeyName: password
  - bwSecretId: 6f1b0c3e-0000-4000-8000-000000000003
    secretKeyName: user
  authToken:
    secretName: bw-auth-token
    secretKey: token
${opts.spec ?? ''}`;

const world = (text = bw()) => [
  text,
  reader('shop/all-keys', 'shop-db'),
  reader('shop/password', 'shop-db', 'password'),
  reader('shop/user', 'shop-db', 'user'),
];
const all = ['shop/all-keys', 'shop/password', 'shop/user'];
const t = sourceTests({ kind: 'BitwardenSecret', name: 'shop-bw', text: bw(), world });

describe('BitwardenSecret', () => {
  t.itChecksums('checksums the consumers of spec.secretName and gets a wave below them', {
    consumers: all,
  });

  t.itMovesOn('moves every consumer on %s', all, [
    ['organizationId', '000000000001', '000000000009'],
    ['the auth token', 'secretKey: token', 'secretKey: token2'],
    [
      'useSecretNames',
      'secretKey: token',
      'secretKey: token\n  onlyMappedSecrets: false\n  useSecretNames: true',
    ],
  ]);

  it('moves only the readers of a mapped key when its mapping changes', () => {
    const remapped = bw().replace('000000000003', '000000000004');
    expect(moved(world(), world(remapped))).toEqual(['shop/all-keys', 'shop/user']);
    // Without onlyMappedSecrets other secrets land too: not narrowed.
    const all = bw({ spec: '  onlyMappedSecrets: false\n' });
    expect(moved(world(all), world(all.replace('000000000003', '000000000004')))).toEqual([
      'shop/all-keys',
      'shop/password',
      'shop/user',
    ]);
  });

  t.itMovesNone(
    'does not move on defaults written out or metadata',
    bw({ spec: '  onlyMappedSecrets: true\n  useSecretNames: false\n' }).replace(
      'namespace: shop',
      'namespace: shop\n  labels: {a: b}',
    ),
  );

  it('knows the keys the map produces', () => {
    expectWarning([bw(), reader('shop/reader', 'shop-db', 'passwrd')], 'passwrd');
  });

  t.itReportsMalformed([
    [bw().replace('  secretName: shop-db\n', ''), 'spec.secretName', 'is missing'],
    [
      bw().replace('  organizationId: 2c1a4c1e-0000-4000-8000-000000000001\n', ''),
      'spec.organizationId',
      'is missing',
    ],
    [bw().replace('    secretKey: token\n', ''), 'spec.authToken.secretKey', 'is missing'],
    [bw().replace('    secretKeyName: user\n', ''), 'spec.map[1].secretKeyName', 'is missing'],
    [
      bw({ spec: '  useSecretNames: true\n' }),
      'spec.useSecretNames',
      'needs spec.onlyMappedSecrets: false',
    ],
  ]);
});
