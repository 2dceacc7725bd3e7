// VSO VaultPKISecret: the Secret is spec.destination.name; every sync issues a new certificate
// and VSO syncs on every spec change, so all of the spec counts.
import { describe } from 'vitest';
import { deployment } from '../helpers.js';
import { sourceTests } from './harness.js';

const pki = (opts: { spec?: string; destination?: string; meta?: string } = {}) =>
  `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultPKISecret
metadata:
  name: web-cert
  namespace: shop
${opts.meta ?? ''}spec:
  vaultAuthRef: shop-auth
  mount: pki
  role: shop-web
  commonName: shop.example.com
  altNames: [www.shop.example.com]
  ttl: 72h
  expiryOffset: 24h
${opts.spec ?? ''}  destination:
    name: web-tls
    create: true
    type: kubernetes.io/tls
${opts.destination ?? ''}`;

const tlsVolume = 'volumeMounts:\n- {name: tls, mountPath: /tls}';
const withVolume = (name: string, namespace = 'shop') =>
  `${deployment(name, tlsVolume, { namespace })}      volumes:\n      - name: tls\n        secret: {secretName: web-tls}\n`;

const world = (text = pki()) => [text, withVolume('web'), withVolume('elsewhere', 'other')];
const web = ['shop/web'];
const t = sourceTests({ kind: 'VaultPKISecret', name: 'web-cert', text: pki(), world });

describe('VaultPKISecret', () => {
  t.itChecksums('checksums the consumers of the destination Secret and gets a wave below them', {
    consumers: web,
    notes: [
      'the checksum of Secret web-tls cannot follow the certificates VSO issues before the current one expires',
    ],
  });

  t.itMovesOn('moves the consumer on %s', web, [
    ['role', 'role: shop-web', 'role: shop-api'],
    ['commonName', 'commonName: shop.example.com', 'commonName: api.example.com'],
    ['altNames', '[www.shop.example.com]', '[www.shop.example.com, m.shop.example.com]'],
    ['ttl', 'ttl: 72h', 'ttl: 48h'],
    ['expiryOffset (VSO re-issues on any spec change)', 'expiryOffset: 24h', 'expiryOffset: 12h'],
    ['format', 'ttl: 72h', 'ttl: 72h\n  format: pem_bundle'],
    ['destination type', 'type: kubernetes.io/tls', 'type: Opaque'],
  ]);

  t.itMovesNone(
    'does not move on metadata, rolloutRestartTargets or defaults written out',
    pki({
      meta: '  labels: {a: b}\n',
      spec: '  format: pem\n  privateKeyFormat: der\n  excludeCNFromSans: false\n  revoke: false\n  clear: false\n  rolloutRestartTargets: [{kind: Deployment, name: web}]\n',
      destination: '    overwrite: false\n',
    }),
  );

  t.itReportsMalformed([
    [pki().replace('  role: shop-web\n', ''), 'spec.role', 'is missing'],
    [pki().replace('  mount: pki\n', ''), 'spec.mount', 'is missing'],
    [pki().replace('    name: web-tls\n', ''), 'spec.destination.name', 'is missing'],
  ]);
});
