// VSO HCPVaultSecretsApp: the Secret is spec.destination.name; the app, the auth and the
// destination decide its content, not when VSO syncs.
import { describe } from 'vitest';
import { reader, sourceTests } from './harness.js';

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
  reader('shop/api', 'shop-config'),
  reader('other/elsewhere', 'shop-config'),
];
const api = ['shop/api'];
const t = sourceTests({ kind: 'HCPVaultSecretsApp', name: 'shop-app', text: hvsa(), world });

describe('HCPVaultSecretsApp', () => {
  t.itChecksums('checksums the consumers of the destination Secret and gets a wave below them', {
    consumers: api,
  });

  t.itMovesOn('moves the consumer on %s', api, [
    ['appName', 'appName: shop', 'appName: shop-v2'],
    ['hcpAuthRef', 'hcpAuthRef: shop-hcp', 'hcpAuthRef: other'],
    ['transformation', 'create: true', 'create: true\n    transformation: {excludes: [".*"]}'],
  ]);

  t.itMovesNone(
    'does not move on refresh, sync config, restarts, labels or lifecycle',
    hvsa({
      spec: '  syncConfig: {dynamic: {renewalPercent: 50}}\n  rolloutRestartTargets: [{kind: Deployment, name: api}]\n',
      destination: '    overwrite: true\n    labels: {a: b}\n    type: Opaque\n',
    }).replace('refreshAfter: 600s', 'refreshAfter: 1h'),
  );

  t.itReportsMalformed([
    [hvsa().replace('  appName: shop\n', ''), 'spec.appName', 'is missing'],
    [hvsa().replace('hcpAuthRef: shop-hcp', 'hcpAuthRef: [a]'), 'spec.hcpAuthRef', 'not a string'],
    [hvsa().replace('    name: shop-config\n', ''), 'spec.destination.name', 'is missing'],
  ]);
});
