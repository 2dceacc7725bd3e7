// HashiCorp Vault Secrets Operator VaultDynamicSecret (secrets.hashicorp.com/v1beta1): requests
// credentials from a Vault secrets engine (database, AWS, …) into `spec.destination.name` in its
// namespace, and renews or replaces them on the lease's schedule.
import type { Json, JsonObject } from '../../model/json.js';
import { unfollowedRenewal } from '../../model/result-rules.js';
import { resourceResult } from '../../model/results.js';
import { objectField, optionalBoolean, stringMap } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';
import {
  oneOf,
  readDestination,
  reissuedDestinationRules,
  requireFields,
  syncedDestinationRules,
  vsoGroup,
} from './vso.js';

/**
 * Dynamic credentials are new on every sync, and VSO syncs on every spec change: all of the
 * spec counts (vso.ts). Defaults: renewalPercent 67 (CRD), revoke and allowStaticCreds false.
 */
const reissued: readonly NormalizeRule[] = [
  { path: '', defaults: { renewalPercent: 67, revoke: false, allowStaticCreds: false } },
  ...reissuedDestinationRules,
];
/**
 * Static credentials (allowStaticCreds) are rotated by Vault and read again as they are: what
 * selects them counts, not when VSO syncs (refreshAfter, renewalPercent) or revoke.
 */
const staticCreds: readonly NormalizeRule[] = [
  { path: '', drop: ['refreshAfter', 'renewalPercent', 'revoke', 'rolloutRestartTargets'] },
];

export const vaultDynamicSecret: SourceKind = {
  group: vsoGroup,
  kind: 'VaultDynamicSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    requireFields(spec, ['mount', 'path']);
    oneOf(spec, 'requestHTTPMethod', ['GET', 'POST', 'PUT']);
    const params = stringMap(spec.params, 'spec.params');
    const allowStatic = optionalBoolean(spec.allowStaticCreds, 'spec.allowStaticCreds') ?? false;
    const { secretName, create, notes } = readDestination(resource, spec);
    const rules = allowStatic ? [...staticCreds, ...syncedDestinationRules(create)] : reissued;
    const normalized = normalize(spec, rules) as JsonObject;
    // The request VSO makes: with params always a write, else GET unless POST or PUT, which its
    // Vault client sends alike (doVault in controllers/vaultdynamicsecret_controller.go).
    const method = spec.requestHTTPMethod;
    delete normalized.requestHTTPMethod;
    if (Object.keys(params).length > 0 || method === 'POST' || method === 'PUT') {
      normalized.requestHTTPMethod = 'PUT';
    }
    const message = allowStatic
      ? `the checksum of Secret ${secretName} cannot follow Vault's rotation of these static credentials: it only rolls the consumers when the spec changes`
      : `the checksum of Secret ${secretName} cannot follow the credentials VSO requests when their lease can no longer be renewed: it only rolls the consumers when the spec changes (every spec change, since VSO then requests new ones)`;
    notes.push(resourceResult(unfollowedRenewal, resource, message, { path: 'spec' }));
    return operatorSecret(resource, config, {
      secretName,
      notes,
      // The engine decides the keys (username, password, …): never narrowed.
      content: (): Json => normalized,
    });
  },
};
