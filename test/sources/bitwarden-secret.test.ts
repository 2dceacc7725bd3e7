// Bitwarden BitwardenSecret: the Secret is spec.secretName in its namespace; the whole spec
// decides it, per key when only mapped secrets are synced.
import { describe, expect, it } from 'vitest';
import { deployment, envFrom, resourceList, resultsOf, runOk, secretKeyRef } from '../helpers.js';
import {
  annotated,
  expectError,
  expectOnlyAnnotationLines,
  moved,
  render,
  waveOf,
} from './harness.js';

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
  deployment('all-keys', envFrom('shop-db'), { namespace: 'shop' }),
  deployment('password', secretKeyRef('shop-db', 'password'), { namespace: 'shop' }),
  deployment('user', secretKeyRef('shop-db', 'user'), { namespace: 'shop' }),
];
const all = ['shop/all-keys', 'shop/password', 'shop/user'];

describe('BitwardenSecret', () => {
  it('checksums the consumers of spec.secretName and gets a wave below them', () => {
    const rendered = render(world());
    expect(annotated(world())).toEqual(all);
    expect(waveOf(rendered, 'BitwardenSecret', 'shop-bw')).toBe('-1');
    expectOnlyAnnotationLines(rendered);
  });

  it.each([
    ['organizationId', '000000000001', '000000000009'],
    ['the auth token', 'secretKey: token', 'secretKey: token2'],
    [
      'useSecretNames',
      'secretKey: token',
      'secretKey: token\n  onlyMappedSecrets: false\n  useSecretNames: true',
    ],
  ])('moves every consumer on %s', (_, from, to) => {
    expect(moved(world(), world(bw().replace(from, to)))).toEqual(all);
  });

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

  it('does not move on defaults written out or metadata', () => {
    const same = bw({ spec: '  onlyMappedSecrets: true\n  useSecretNames: false\n' }).replace(
      'namespace: shop',
      'namespace: shop\n  labels: {a: b}',
    );
    expect(moved(world(), world(same))).toEqual([]);
  });

  it('knows the keys the map produces', () => {
    const reader = deployment('reader', secretKeyRef('shop-db', 'passwrd'), { namespace: 'shop' });
    const results = resultsOf(runOk(resourceList([bw(), reader])).stdout);
    expect(results).toContainEqual(
      expect.objectContaining({ severity: 'warning', message: expect.stringContaining('passwrd') }),
    );
  });

  it.each([
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
  ])('reports a malformed field: %#', (text, field, message) => {
    expectError(world(text), field, message);
  });
});
