// Doppler DopplerSecret: the Secret is spec.managedSecret.name in spec.managedSecret.namespace,
// by default the DopplerSecret's namespace.
import { describe, expect, it } from 'vitest';
import { annotated, expectWarning, moved, reader, sourceTests } from './harness.js';

const doppler = (opts: { spec?: string; managed?: string } = {}) =>
  `apiVersion: secrets.doppler.com/v1alpha1
kind: DopplerSecret
metadata:
  name: shop-doppler
  namespace: shop
spec:
  tokenSecret:
    name: doppler-token
  project: shop
  config: prd
  resyncSeconds: 60
${opts.spec ?? ''}  managedSecret:
    name: shop-env
${opts.managed ?? ''}`;

const world = (text = doppler()) => [
  text,
  reader('shop/api', 'shop-env'),
  reader('jobs/worker', 'shop-env'),
];
const api = ['shop/api'];
const t = sourceTests({ kind: 'DopplerSecret', name: 'shop-doppler', text: doppler(), world });

describe('DopplerSecret', () => {
  t.itChecksums(
    'checksums the consumers in its own namespace by default and gets a wave below them',
    { consumers: api },
  );

  it('follows spec.managedSecret.namespace', () => {
    const other = doppler({ managed: '    namespace: jobs\n' });
    expect(annotated(world(other))).toEqual(['jobs/worker']);
    // Its own namespace written out is the default.
    expect(moved(world(), world(doppler({ managed: '    namespace: shop\n' })))).toEqual([]);
  });

  t.itMovesOn('moves the consumer on %s', api, [
    ['config', 'config: prd', 'config: stg'],
    ['project', 'project: shop', 'project: shop2'],
    ['the token Secret', 'name: doppler-token', 'name: other-token'],
    ['secrets', 'resyncSeconds: 60', 'resyncSeconds: 60\n  secrets: [DB_URL]'],
    ['nameTransformer', 'resyncSeconds: 60', 'resyncSeconds: 60\n  nameTransformer: lower-snake'],
    ['format', 'resyncSeconds: 60', 'resyncSeconds: 60\n  format: json'],
    [
      'a processor',
      'resyncSeconds: 60',
      'resyncSeconds: 60\n  processors:\n    TLS_CERT: {type: base64, asName: tls.crt}',
    ],
    ['the host', 'resyncSeconds: 60', 'resyncSeconds: 60\n  host: https://doppler.example.com'],
    ['the Secret type', '    name: shop-env', '    name: shop-env\n    type: kubernetes.io/tls'],
  ]);

  t.itMovesNone(
    'does not move on sync, TLS verification, Secret metadata or defaults written out',
    doppler({
      spec: '  verifyTLS: false\n  host: https://api.doppler.com\n  processors:\n    A: {type: plain}\n',
      managed: '    type: Opaque\n    labels: {a: b}\n    annotations: {c: d}\n',
    })
      .replace('resyncSeconds: 60', 'resyncSeconds: 300')
      .replace('name: doppler-token', 'name: doppler-token\n    namespace: shop'),
  );

  it('knows the one key a format produces', () => {
    const formatted = doppler({ spec: '  format: json\n' });
    expectWarning([formatted, reader('shop/reader', 'shop-env', 'DB_URL')], 'DB_URL');
  });

  t.itReportsMalformed([
    [
      doppler().replace('    name: shop-env\n', '    type: Opaque\n'),
      'spec.managedSecret.name',
      'is missing',
    ],
    [
      doppler().replace('  managedSecret:\n    name: shop-env\n', ''),
      'spec.managedSecret',
      'not a mapping',
    ],
    [doppler().replace('  tokenSecret:\n    name: doppler-token\n', ''), 'spec', 'exactly one'],
    [doppler({ spec: '  identity: shop-sa\n' }), 'spec', 'exactly one'],
    [
      doppler().replace('name: doppler-token', 'namespace: shop'),
      'spec.tokenSecret.name',
      'is missing',
    ],
  ]);
});
