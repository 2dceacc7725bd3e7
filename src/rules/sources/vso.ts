// What the Vault Secrets Operator kinds (secrets.hashicorp.com/v1beta1) share: `spec.destination`,
// the Secret each writes in its own namespace (api/v1beta1/common.go Destination), and how its
// fields count.
import type { JsonObject } from '../../model/json.js';
import { ItemError, type Resource } from '../../model/resource.js';
import { vsoDestination } from '../../model/result-rules.js';
import { type Result, resourceResult } from '../../model/results.js';
import { objectField, optionalBoolean, optionalObject, requiredString } from './fields.js';
import type { NormalizeRule } from './normalize.js';

export const vsoGroup = 'secrets.hashicorp.com';

export interface Destination {
  secretName: string;
  /** With create: false VSO writes only `data` into a Secret someone else owns. */
  create: boolean;
  notes: Result[];
}

export function readDestination(resource: Resource, spec: JsonObject): Destination {
  const destination = objectField(spec, 'destination', 'spec.destination');
  const secretName = requiredString(destination.name, 'spec.destination.name');
  const create = optionalBoolean(destination.create, 'spec.destination.create') ?? false;
  optionalObject(destination.transformation, 'spec.destination.transformation');
  const notes: Result[] = [];
  if (!create) {
    const message = `spec.destination.create is false: VSO only writes the data of the existing Secret ${secretName} and fails until it exists; its type, labels and annotations are not VSO's`;
    notes.push(
      resourceResult(vsoDestination, resource, message, { path: 'spec.destination.create' }),
    );
  }
  return { secretName, create, notes };
}

/** Defaults of the transformation, which decides the keys and values from what VSO read. */
const transformationDefaults: readonly NormalizeRule[] = [
  { path: 'destination.transformation', defaults: { excludeRaw: false } },
  {
    path: 'destination.transformation.transformationRefs[]',
    defaults: { ignoreIncludes: false, ignoreExcludes: false },
  },
];

/**
 * For kinds whose sync reads the same values again (static secrets): the destination's name,
 * type (only with create) and transformation. Not its lifecycle (create, overwrite,
 * transformation.resync) or its labels and annotations, which pods cannot read.
 */
export function syncedDestinationRules(create: boolean): NormalizeRule[] {
  return [
    {
      path: 'destination',
      drop: ['create', 'overwrite', 'labels', 'annotations', ...(create ? [] : ['type'])],
      defaults: { type: 'Opaque' },
    },
    { path: 'destination.transformation', drop: ['resync'] },
    ...transformationDefaults,
  ];
}

/**
 * For kinds where every sync issues new credentials or a new certificate: VSO syncs on every
 * change of the spec's generation (controllers/vaultdynamicsecret_controller.go,
 * vaultpkisecret_controller.go), so every field counts; only defaults written out do not.
 * rolloutRestartTargets is left out as for every VSO kind (VSO restarts those targets itself).
 */
export const reissuedDestinationRules: readonly NormalizeRule[] = [
  { path: '', drop: ['rolloutRestartTargets'] },
  {
    path: 'destination',
    defaults: { create: false, overwrite: false, type: 'Opaque' },
  },
  ...transformationDefaults,
];

/** Required strings of a VSO spec, by field name. */
export function requireFields(spec: JsonObject, fields: readonly string[]): void {
  for (const field of fields) requiredString(spec[field], `spec.${field}`);
}

/** A VSO kind whose spec is not what it should be (enum fields the CRD validates). */
export function oneOf(spec: JsonObject, field: string, values: readonly string[]): void {
  const value = spec[field];
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || !values.includes(value)) {
    throw new ItemError(`spec.${field} must be one of ${values.join(', ')}`, `spec.${field}`);
  }
}
