// HashiCorp Vault Secrets Operator HCPVaultSecretsApp (secrets.hashicorp.com/v1beta1): syncs the
// secrets of an HCP Vault Secrets application into `spec.destination.name` in its namespace.
import type { Json } from '../../model/json.js';
import { objectField, optionalString } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';
import { readDestination, requireFields, syncedDestinationRules, vsoGroup } from './vso.js';

/**
 * Content: appName, hcpAuthRef and the destination (vso.ts). Not content: when VSO syncs
 * (refreshAfter, CRD default 600s; syncConfig, the renewal of the app's dynamic secrets) and its
 * own restarts (rolloutRestartTargets).
 */
const rules: readonly NormalizeRule[] = [
  { path: '', drop: ['refreshAfter', 'syncConfig', 'rolloutRestartTargets'] },
];

export const hcpVaultSecretsApp: SourceKind = {
  group: vsoGroup,
  kind: 'HCPVaultSecretsApp',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    requireFields(spec, ['appName']);
    optionalString(spec.hcpAuthRef, 'spec.hcpAuthRef');
    const { secretName, create, notes } = readDestination(resource, spec);
    const normalized = normalize(spec, [...rules, ...syncedDestinationRules(create)]);
    return operatorSecret(resource, config, {
      secretName,
      notes,
      // Keys are the app's secret names: never narrowed.
      content: (): Json => normalized,
    });
  },
};
