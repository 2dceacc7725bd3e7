// ESO ExternalSecret (external-secrets.io v1, v1beta1, and the old v1alpha1 shape).
import { describeType, ItemError, isObject, type Json, type JsonObject } from '../resource.js';
import { type NormalizeRule, normalize } from './normalize.js';
import type { KeySet, SecretSource, SourceKind, StoreRef } from './source.js';

const remoteRefDefaults = {
  conversionStrategy: 'Default',
  decodingStrategy: 'None',
  metadataPolicy: 'None',
  nullBytePolicy: 'Ignore',
};
const storeRefDefaults = { kind: 'SecretStore' };

/**
 * Not content: when and how often ESO syncs, and what happens to the Secret's lifecycle.
 * Defaults: the CRD's (v2.9) plus those earlier CRDs filled in for remoteRef/extract/find.
 */
const rules: readonly NormalizeRule[] = [
  { path: [], drop: ['refreshInterval', 'refreshPolicy', 'syncWindows'] },
  { path: ['target'], drop: ['creationPolicy', 'deletionPolicy', 'immutable'] },
  { path: ['target', 'template'], defaults: { engineVersion: 'v2', mergePolicy: 'Replace' } },
  { path: ['target', 'template', 'templateFrom', '*'], defaults: { target: 'Data' } },
  ...['configMap', 'secret'].map((from) => ({
    path: ['target', 'template', 'templateFrom', '*', from, 'items', '*'],
    defaults: { templateAs: 'Values' },
  })),
  { path: ['secretStoreRef'], defaults: storeRefDefaults },
  { path: ['data', '*', 'remoteRef'], defaults: remoteRefDefaults },
  { path: ['data', '*', 'sourceRef', 'storeRef'], defaults: storeRefDefaults },
  { path: ['dataFrom', '*', 'extract'], defaults: remoteRefDefaults },
  { path: ['dataFrom', '*', 'find'], defaults: remoteRefDefaults },
  { path: ['dataFrom', '*', 'sourceRef', 'storeRef'], defaults: storeRefDefaults },
  ...['data', 'dataFrom'].map((list) => ({
    path: [list, '*', 'sourceRef', 'generatorRef'],
    defaults: { apiVersion: 'generators.external-secrets.io/v1alpha1' },
  })),
  {
    path: ['dataFrom', '*', 'rewrite', '*', 'merge'],
    defaults: { into: '', conflictPolicy: 'Error', priorityPolicy: 'Strict', strategy: 'Extract' },
  },
];

export const externalSecret: SourceKind = {
  group: 'external-secrets.io',
  kind: 'ExternalSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const target = optionalObject(spec.target, 'spec.target');
    if (target?.manifest !== undefined && target.manifest !== null) {
      return { skipped: 'its target is a manifest (ConfigMap or custom resource), not a Secret' };
    }
    const targetName = target?.name;
    if (targetName !== undefined && targetName !== null && typeof targetName !== 'string') {
      throw new ItemError('spec.target.name is not a string', 'spec.target.name');
    }
    const data = optionalList(spec.data, 'spec.data');
    const dataFrom = optionalList(spec.dataFrom, 'spec.dataFrom');
    const stores: StoreRef[] = [];
    addStore(stores, spec.secretStoreRef, 'spec.secretStoreRef');
    data.forEach((entry, i) => {
      const field = `spec.data[${i}]`;
      const item = objectField({ entry }, 'entry', field);
      if (typeof item.secretKey !== 'string') {
        throw new ItemError(`${field}.secretKey is not a string`, `${field}.secretKey`);
      }
      const remoteRef = objectField(item, 'remoteRef', `${field}.remoteRef`);
      if (typeof remoteRef.key !== 'string' || remoteRef.key === '') {
        throw new ItemError(`${field}.remoteRef has no key`, `${field}.remoteRef.key`);
      }
      addStore(stores, optionalObject(item.sourceRef, `${field}.sourceRef`)?.storeRef, field);
    });
    dataFrom.forEach((entry, i) => {
      const field = `spec.dataFrom[${i}]`;
      const item = objectField({ entry }, 'entry', field);
      addStore(stores, optionalObject(item.sourceRef, `${field}.sourceRef`)?.storeRef, field);
    });

    const normalized = normalize(spec, rules) as JsonObject;
    const secretKeys = new Set(data.map((entry) => (entry as JsonObject).secretKey as string));
    // Per-key narrowing is only sound when data[] alone decides the Secret's keys.
    const narrowable = normalized.dataFrom === undefined && target?.template == null;
    const secretName = targetName || resource.name;
    if (secretName === '') {
      throw new ItemError('has neither spec.target.name nor metadata.name', 'metadata.name');
    }
    return {
      resource,
      produces: 'Secret',
      namespace: resource.namespace,
      secretName,
      annotation: config.checksumAnnotation,
      ordered: true,
      stores,
      notes: [],
      content(keys: KeySet): Json {
        if (keys === 'all' || !narrowable || ![...keys].every((k) => secretKeys.has(k))) {
          return normalized;
        }
        const narrowed = (normalized.data as JsonObject[]).filter((entry) =>
          keys.has(entry.secretKey as string),
        );
        return { ...normalized, data: narrowed };
      },
    } satisfies SecretSource;
  },
};

function addStore(stores: StoreRef[], ref: Json | undefined, field: string): void {
  if (ref === undefined || ref === null) return;
  if (!isObject(ref) || typeof ref.name !== 'string') {
    throw new ItemError(`${field} store reference has no name`, field);
  }
  const kind = ref.kind ?? 'SecretStore';
  if (typeof kind !== 'string')
    throw new ItemError(`${field}.kind is not a string`, `${field}.kind`);
  if (!stores.some((s) => s.kind === kind && s.name === ref.name)) {
    stores.push({ kind, name: ref.name });
  }
}

function objectField(parent: JsonObject, key: string, field: string): JsonObject {
  const value = parent[key];
  if (!isObject(value))
    throw new ItemError(`${field} is ${describeType(value ?? null)}, not a mapping`, field);
  return value;
}

function optionalObject(value: Json | undefined, field: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value))
    throw new ItemError(`${field} is ${describeType(value)}, not a mapping`, field);
  return value;
}

function optionalList(value: Json | undefined, field: string): Json[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new ItemError(`${field} is ${describeType(value)}, not a list`, field);
  return value;
}
