// Doppler DopplerSecret: the Secret is spec.managedSecret.name in spec.managedSecret.namespace,
// by default the DopplerSecret's namespace.
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
  deployment('api', envFrom('shop-env'), { namespace: 'shop' }),
  deployment('worker', envFrom('shop-env'), { namespace: 'jobs' }),
];

describe('DopplerSecret', () => {
  it('checksums the consumers in its own namespace by default and gets a wave below them', () => {
    const rendered = render(world());
    expect(annotated(world())).toEqual(['shop/api']);
    expect(waveOf(rendered, 'DopplerSecret', 'shop-doppler')).toBe('-1');
    expectOnlyAnnotationLines(rendered);
  });

  it('follows spec.managedSecret.namespace', () => {
    const other = doppler({ managed: '    namespace: jobs\n' });
    expect(annotated(world(other))).toEqual(['jobs/worker']);
    // Its own namespace written out is the default.
    expect(moved(world(), world(doppler({ managed: '    namespace: shop\n' })))).toEqual([]);
  });

  it.each([
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
  ])('moves the consumer on %s', (_, from, to) => {
    expect(moved(world(), world(doppler().replace(from, to)))).toEqual(['shop/api']);
  });

  it('does not move on sync, TLS verification, Secret metadata or defaults written out', () => {
    const changed = doppler({
      spec: '  verifyTLS: false\n  host: https://api.doppler.com\n  processors:\n    A: {type: plain}\n',
      managed: '    type: Opaque\n    labels: {a: b}\n    annotations: {c: d}\n',
    })
      .replace('resyncSeconds: 60', 'resyncSeconds: 300')
      .replace('name: doppler-token', 'name: doppler-token\n    namespace: shop');
    expect(moved(world(), world(changed))).toEqual([]);
  });

  it('knows the one key a format produces', () => {
    const formatted = doppler({ spec: '  format: json\n' });
    const reader = deployment('reader', secretKeyRef('shop-env', 'DB_URL'), { namespace: 'shop' });
    const results = resultsOf(runOk(resourceList([formatted, reader])).stdout);
    expect(results).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringContaining('DB_URL'),
      }),
    );
  });

  it.each([
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
  ])('reports a malformed field: %#', (text, field, message) => {
    expectError(world(text), field, message);
  });
});
