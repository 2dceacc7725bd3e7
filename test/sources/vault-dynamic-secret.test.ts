// VSO VaultDynamicSecret: the Secret is spec.destination.name; every sync issues new credentials
// and VSO syncs on every spec change, so all of the spec counts, except with static credentials.
import { describe, expect, it } from 'vitest';
import {
  messagesAbout,
  moved,
  render,
  secretReaders,
  shopReaders,
  sourceTests,
} from './harness.js';

const vds = (opts: { spec?: string; destination?: string; meta?: string } = {}) =>
  `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultDynamicSecret
metadata:
  name: db-creds
  namespace: shop
${opts.meta ?? ''}spec:
  vaultAuthRef: shop-auth
  mount: database
  path: creds/shop-app
  renewalPercent: 67
${opts.spec ?? ''}  destination:
    name: db
    create: true
${opts.destination ?? ''}`;

const world = (text = vds()) => [text, ...secretReaders('db')];
const both = shopReaders;
const t = sourceTests({ kind: 'VaultDynamicSecret', name: 'db-creds', text: vds(), world });

describe('VaultDynamicSecret', () => {
  t.itChecksums('checksums the consumers of the destination Secret and gets a wave below them', {
    consumers: both,
    same: ['shop/one-key', 'shop/all-keys'],
    notes: [
      'the checksum of Secret db cannot follow the credentials VSO requests when their lease can no longer be renewed',
    ],
  });

  t.itMovesOn('moves every consumer on %s', both, [
    ['path', 'path: creds/shop-app', 'path: creds/shop-admin'],
    ['mount', 'mount: database', 'mount: db2'],
    ['vaultAuthRef', 'shop-auth', 'other-auth'],
    ['params', 'renewalPercent: 67', 'renewalPercent: 67\n  params: {ttl: 1h}'],
    ['the method', 'renewalPercent: 67', 'renewalPercent: 67\n  requestHTTPMethod: POST'],
    // VSO requests new credentials on every spec change.
    ['renewalPercent', 'renewalPercent: 67', 'renewalPercent: 50'],
    ['refreshAfter', 'renewalPercent: 67', 'renewalPercent: 67\n  refreshAfter: 1h'],
    ['destination labels', 'create: true', 'create: true\n    labels: {a: b}'],
    ['destination type', 'create: true', 'create: true\n    type: kubernetes.io/basic-auth'],
  ]);

  it('does not move on metadata, rolloutRestartTargets or defaults written out', () => {
    const changed = vds({
      meta: '  labels: {a: b}\n  annotations: {note: n}\n',
      spec: '  revoke: false\n  allowStaticCreds: false\n  requestHTTPMethod: GET\n  rolloutRestartTargets: [{kind: Deployment, name: all-keys}]\n',
      destination: '    overwrite: false\n    type: Opaque\n',
    }).replace('  renewalPercent: 67\n', '');
    expect(moved(world(), world(changed))).toEqual([]);
    // POST and PUT are the same write; with params VSO always writes.
    const method = (m: string) =>
      world(vds({ spec: `  params: {ttl: 1h}\n  requestHTTPMethod: ${m}\n` }));
    expect(moved(method('POST'), method('PUT'))).toEqual([]);
    expect(moved(method('GET'), world(vds({ spec: '  params: {ttl: 1h}\n' })))).toEqual([]);
  });

  it('with static credentials, counts what selects them, not when VSO syncs', () => {
    const statics = (extra = '') => vds({ spec: `  allowStaticCreds: true\n${extra}` });
    const timing = statics('  refreshAfter: 1h\n  revoke: true\n').replace(
      'renewalPercent: 67',
      'renewalPercent: 30',
    );
    expect(moved(world(statics()), world(timing))).toEqual([]);
    expect(moved(world(statics()), world(statics().replace('shop-app', 'shop-admin')))).toEqual(
      both,
    );
    const labelled = statics().replace('create: true', 'create: true\n    labels: {a: b}');
    expect(moved(world(statics()), world(labelled))).toEqual([]);
    expect(
      messagesAbout(render(world(statics())), 'VaultDynamicSecret', 'db-creds'),
    ).toContainEqual(
      expect.stringContaining("cannot follow Vault's rotation of these static credentials"),
    );
  });

  t.itReportsMalformed([
    [vds().replace('    name: db\n', ''), 'spec.destination.name', 'is missing'],
    [vds().replace('  mount: database\n', ''), 'spec.mount', 'is missing'],
    [vds().replace('path: creds/shop-app', 'path: ""'), 'spec.path', 'is missing'],
    [
      vds({ spec: '  requestHTTPMethod: DELETE\n' }),
      'spec.requestHTTPMethod',
      'must be one of GET, POST, PUT',
    ],
    [vds({ spec: '  params: {ttl: 1}\n' }), 'spec.params[ttl]', 'is not a string'],
    [vds({ spec: '  allowStaticCreds: "yes"\n' }), 'spec.allowStaticCreds', 'not true or false'],
  ]);
});
