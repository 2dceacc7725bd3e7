// HashiCorp Vault Secrets Operator VaultPKISecret (secrets.hashicorp.com/v1beta1): issues a
// certificate from a Vault PKI role into `spec.destination.name` in its namespace, and a new one
// before it expires.
import type { Json } from '../../model/json.js';
import { unfollowedRenewal } from '../../model/result-rules.js';
import { resourceResult } from '../../model/results.js';
import { objectField } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';
import { readDestination, reissuedDestinationRules, requireFields, vsoGroup } from './vso.js';

/**
 * Every sync issues a new certificate, and VSO syncs on every spec change: all of the spec
 * counts (vso.ts). Defaults (api/v1beta1/vaultpkisecret_types.go): format pem,
 * privateKeyFormat der, excludeCNFromSans, revoke and clear false.
 */
const rules: readonly NormalizeRule[] = [
  {
    path: '',
    defaults: {
      format: 'pem',
      privateKeyFormat: 'der',
      excludeCNFromSans: false,
      revoke: false,
      clear: false,
    },
  },
  ...reissuedDestinationRules,
];

export const vaultPkiSecret: SourceKind = {
  group: vsoGroup,
  kind: 'VaultPKISecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    requireFields(spec, ['mount', 'role']);
    const { secretName, notes } = readDestination(resource, spec);
    const normalized = normalize(spec, rules);
    const message = `the checksum of Secret ${secretName} cannot follow the certificates VSO issues before the current one expires (expiryOffset): it only rolls the consumers when the spec changes (every spec change, since VSO then issues a new one)`;
    notes.push(resourceResult(unfollowedRenewal, resource, message, { path: 'spec' }));
    return operatorSecret(resource, config, {
      secretName,
      notes,
      // Keys follow the format and destination type (certificate, private_key, tls.crt, …), and
      // a new certificate changes all of them: never narrowed.
      content: (): Json => normalized,
    });
  },
};
