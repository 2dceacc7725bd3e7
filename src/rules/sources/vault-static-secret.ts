// HashiCorp Vault Secrets Operator VaultStaticSecret (secrets.hashicorp.com/v1beta1): syncs one
// KV secret into `spec.destination.name` in its namespace.
import type { Json } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import { objectField, optionalList, requiredString } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';
import { readDestination, syncedDestinationRules, vsoGroup } from './vso.js';

/**
 * Content: vaultAuthRef, namespace, mount, path, type, version, and the destination
 * (vso.ts). Not content: when VSO syncs (refreshAfter, syncConfig), its drift detection
 * (hmacSecretData) and its own restarts (rolloutRestartTargets). Default: version 0 (latest).
 */
const rules: readonly NormalizeRule[] = [
  {
    path: '',
    drop: ['refreshAfter', 'syncConfig', 'hmacSecretData', 'rolloutRestartTargets'],
    defaults: { version: 0 },
  },
];

const kvTypes = ['kv-v1', 'kv-v2'];

export const vaultStaticSecret: SourceKind = {
  group: vsoGroup,
  kind: 'VaultStaticSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    requiredString(spec.mount, 'spec.mount');
    requiredString(spec.path, 'spec.path');
    const type = requiredString(spec.type, 'spec.type');
    if (!kvTypes.includes(type)) {
      throw new ItemError(`spec.type must be one of ${kvTypes.join(', ')}`, 'spec.type');
    }
    const version = spec.version;
    if (version !== undefined && version !== null) {
      if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
        throw new ItemError('spec.version is not a non-negative integer', 'spec.version');
      }
    }
    const { secretName, create, notes } = readDestination(resource, spec);
    // Checked here; the double-restart lint warns on the workloads they name.
    optionalList(spec.rolloutRestartTargets, 'spec.rolloutRestartTargets').forEach((entry, i) => {
      const field = `spec.rolloutRestartTargets[${i}]`;
      const target = objectField({ entry }, 'entry', field);
      requiredString(target.kind, `${field}.kind`);
      requiredString(target.name, `${field}.name`);
    });
    const normalized = normalize(spec, [...rules, ...syncedDestinationRules(create)]);
    return operatorSecret(resource, config, {
      secretName,
      notes,
      // VSO writes every field of the Vault secret (plus _raw): keys are unknown, never narrowed.
      content: (): Json => normalized,
    });
  },
};
