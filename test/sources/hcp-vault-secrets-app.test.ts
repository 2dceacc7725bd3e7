// VSO HCPVaultSecretsApp: the Secret is spec.destination.name; the app, the auth and the
// destination decide its content, not when VSO syncs.
import { describe, expect, it } from 'vitest';
import { deployment, envFrom } from '../helpers.js';
import {
  annotated,
  expectError,
  expectOnlyAnnotationLines,
  moved,
  render,
  waveOf,
} from './harness.js';

const hvsa = (opts: { spec?: string; destination?: string } = {}) =>
  `apiVersion: secrets.hashicorp.com/v1beta1
kind: HCPVaultSecretsApp
metadata:
  name: shop-app
  namespace: shop
spec:
  appName: shop
  hcpAuthRef: shop-hcp
  refreshAfter: 600s
${opts.spec ?? ''}  destination:
    name: shop-config
    create: true
${opts.destination ?? ''}`;

const world = (text = hvsa()) => [
  text,
  deployment('api', envFrom('shop-config'), { namespace: 'shop' }),
  deployment('elsewhere', envFrom('shop-config'), { namespace: 'other' }),
];

describe('HCPVaultSecretsApp', () => {
  it('checksums the consumers of the destination Secret and gets a wave below them', () => {
    const rendered = render(world());
    expect(annotated(world())).toEqual(['shop/api']);
    expect(waveOf(rendered, 'HCPVaultSecretsApp', 'shop-app')).toBe('-1');
    expectOnlyAnnotationLines(rendered);
  });

  it.each([
    ['appName', 'appName: shop', 'appName: shop-v2'],
    ['hcpAuthRef', 'hcpAuthRef: shop-hcp', 'hcpAuthRef: other'],
    ['transformation', 'create: true', 'create: true\n    transformation: {excludes: [".*"]}'],
  ])('moves the consumer on %s', (_, from, to) => {
    expect(moved(world(), world(hvsa().replace(from, to)))).toEqual(['shop/api']);
  });

  it('does not move on refresh, sync config, restarts, labels or lifecycle', () => {
    const changed = hvsa({
      spec: '  syncConfig: {dynamic: {renewalPercent: 50}}\n  rolloutRestartTargets: [{kind: Deployment, name: api}]\n',
      destination: '    overwrite: true\n    labels: {a: b}\n    type: Opaque\n',
    }).replace('refreshAfter: 600s', 'refreshAfter: 1h');
    expect(moved(world(), world(changed))).toEqual([]);
  });

  it.each([
    [hvsa().replace('  appName: shop\n', ''), 'spec.appName', 'is missing'],
    [hvsa().replace('hcpAuthRef: shop-hcp', 'hcpAuthRef: [a]'), 'spec.hcpAuthRef', 'not a string'],
    [hvsa().replace('    name: shop-config\n', ''), 'spec.destination.name', 'is missing'],
  ])('reports a malformed field: %#', (text, field, message) => {
    expectError(world(text), field, message);
  });
});
