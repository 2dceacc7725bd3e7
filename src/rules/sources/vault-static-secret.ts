// HashiCorp Vault Secrets Operator VaultStaticSecret (secrets.hashicorp.com/v1beta1): syncs one
// KV secret into `spec.destination.name` in its namespace.
import { ItemError, type Json, type JsonObject } from '../../model/resource.js';
import { type Result, resourceResult } from '../../model/results.js';
import {
  objectField,
  optionalBoolean,
  optionalList,
  optionalObject,
  requiredString,
} from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';

/**
 * Content: vaultAuthRef, namespace, mount, path, type, version, destination name and type, and
 * destination.transformation. Not content: when VSO syncs (refreshAfter, syncConfig), its drift
 * detection (hmacSecretData), its own restarts (rolloutRestartTargets), the Secret's lifecycle
 * (destination.create, overwrite, transformation.resync) and its labels and annotations, which
 * pods cannot read. Defaults: version 0 (latest), type Opaque, excludeRaw and ignore* false.
 */
const rules: readonly NormalizeRule[] = [
  {
    path: '',
    drop: ['refreshAfter', 'syncConfig', 'hmacSecretData', 'rolloutRestartTargets'],
    defaults: { version: 0 },
  },
  {
    path: 'destination',
    drop: ['create', 'overwrite', 'labels', 'annotations'],
    defaults: { type: 'Opaque' },
  },
  { path: 'destination.transformation', drop: ['resync'], defaults: { excludeRaw: false } },
  {
    path: 'destination.transformation.transformationRefs[]',
    defaults: { ignoreIncludes: false, ignoreExcludes: false },
  },
];
/** With create: false VSO writes only `data` into a Secret someone else owns. */
const notCreated: readonly NormalizeRule[] = [{ path: 'destination', drop: ['type'] }];

const kvTypes = ['kv-v1', 'kv-v2'];

export const vaultStaticSecret: SourceKind = {
  group: 'secrets.hashicorp.com',
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
    const destination = objectField(spec, 'destination', 'spec.destination');
    const secretName = requiredString(destination.name, 'spec.destination.name');
    const create = optionalBoolean(destination.create, 'spec.destination.create') ?? false;
    optionalObject(destination.transformation, 'spec.destination.transformation');
    // Checked here; the double-restart lint warns on the workloads they name.
    optionalList(spec.rolloutRestartTargets, 'spec.rolloutRestartTargets').forEach((entry, i) => {
      const field = `spec.rolloutRestartTargets[${i}]`;
      const target = objectField({ entry }, 'entry', field);
      requiredString(target.kind, `${field}.kind`);
      requiredString(target.name, `${field}.name`);
    });

    const notes: Result[] = [];
    if (!create) {
      const message = `spec.destination.create is false: VSO only writes the data of the existing Secret ${secretName} and fails until it exists; its type, labels and annotations are not VSO's`;
      notes.push(resourceResult(resource, 'info', message, { path: 'spec.destination.create' }));
    }
    const normalized = normalize(spec, create ? rules : [...rules, ...notCreated]) as JsonObject;
    return operatorSecret(resource, config, {
      secretName,
      notes,
      // VSO writes every field of the Vault secret (plus _raw): keys are unknown, never narrowed.
      content: (): Json => normalized,
    });
  },
};
