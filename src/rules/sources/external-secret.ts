// ESO ExternalSecret (external-secrets.io v1, v1beta1, and the old v1alpha1 shape).
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { ItemError, isKindName, notKindName, type Resource } from '../../model/resource.js';
import { manifestTarget } from '../../model/result-rules.js';
import { type Result, resourceResult } from '../../model/results.js';
import type { KeySet } from '../workloads/references.js';
import { dependenciesAnnotation, readDependencies, templateReads } from './eso-dependencies.js';
import {
  listContent,
  objectField,
  optionalList,
  optionalObject,
  optionalString,
} from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SecretSource, SourceKind, StoreRef } from './source.js';

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
  { path: '', drop: ['refreshInterval', 'refreshPolicy', 'syncWindows'] },
  { path: 'target', drop: ['creationPolicy', 'deletionPolicy', 'immutable'] },
  { path: 'target.template', defaults: { engineVersion: 'v2', mergePolicy: 'Replace' } },
  { path: 'target.template.templateFrom[]', defaults: { target: 'Data' } },
  ...['configMap', 'secret'].map((from) => ({
    path: `target.template.templateFrom[].${from}.items[]`,
    defaults: { templateAs: 'Values' },
  })),
  { path: 'secretStoreRef', defaults: storeRefDefaults },
  { path: 'data[].remoteRef', defaults: remoteRefDefaults },
  { path: 'data[].sourceRef.storeRef', defaults: storeRefDefaults },
  { path: 'dataFrom[].extract', defaults: remoteRefDefaults },
  { path: 'dataFrom[].find', defaults: remoteRefDefaults },
  { path: 'dataFrom[].sourceRef.storeRef', defaults: storeRefDefaults },
  ...['data', 'dataFrom'].map((list) => ({
    path: `${list}[].sourceRef.generatorRef`,
    defaults: { apiVersion: 'generators.external-secrets.io/v1alpha1' },
  })),
  {
    path: 'dataFrom[].rewrite[].merge',
    defaults: { into: '', conflictPolicy: 'Error', priorityPolicy: 'Strict', strategy: 'Extract' },
  },
];

export const externalSecret: SourceKind = {
  group: 'external-secrets.io',
  kind: 'ExternalSecret',
  read(resource, inventory) {
    const value = objectField(resource.value, 'spec', 'spec');
    const spec = readExternalSecretSpec(value, 'spec');
    const secretName = spec.targetName || resource.name;
    if (secretName === '') {
      throw new ItemError('has neither spec.target.name nor metadata.name', 'metadata.name');
    }
    const dependencies = readDependencies(resource, value, inventory);
    const { hash } = dependencies;
    const { produces, writtenKind } = targetOf(spec);
    const notes = targetNotes(resource, spec, 'spec');
    for (let i = 0; i < dependencies.notes.length; i++) notes.push(dependencies.notes[i] as Result);
    // No spreads in this literal (nor in operatorSecret's): they made it the costliest step of
    // findProducers on the dense bench.
    return operatorSecret(resource, inventory.config, {
      produces,
      writtenKind,
      secretName,
      stores: spec.stores,
      content: contentWith(spec, hash),
      producedKeys: spec.producedKeys,
      notes,
      dependencies: dependencies.resources,
      ownAnnotations: hash
        ? { metadata: ['metadata'], values: { [dependenciesAnnotation]: hash } }
        : undefined,
    });
  },
  inputReads: (resource) => templateReads(resource.value.spec),
};

/**
 * What a target makes (pkg/controllers/externalsecret/externalsecret_controller_manifest.go,
 * docs/operators.md §8): a Secret, or with `target.manifest` (a generic target) the resource of
 * that apiVersion and kind, named and placed as a Secret would be. A ConfigMap is read by pods
 * like a Secret (configMapKeyRef, configMapRef, volumes, projections); any other kind by no
 * PodSpec field.
 */
export function targetOf(spec: ExternalSecretSpec): Pick<SecretSource, 'produces' | 'writtenKind'> {
  const { manifest } = spec;
  if (!manifest) return { produces: 'Secret' };
  if (manifest.apiVersion === 'v1' && manifest.kind === 'ConfigMap')
    return { produces: 'ConfigMap' };
  return { produces: 'CustomResource', writtenKind: manifest.kind };
}

/**
 * One info for a generic target no pod reads: it is ordered, and that is all. The message names
 * the kind only, so that the same note on many ExternalSecrets folds into one.
 */
export function targetNotes(resource: Resource, spec: ExternalSecretSpec, at: string): Result[] {
  const { manifest } = spec;
  if (!manifest || targetOf(spec).produces !== 'CustomResource') return [];
  // ESO writes a v1 Secret manifest through its generic path (values as plain strings), not as
  // its Secret target: pods do read it, but it is not followed as a Secret here.
  const message =
    manifest.apiVersion === 'v1' && manifest.kind === 'Secret'
      ? "its target is a v1 Secret written through target.manifest (ESO's generic path, not its Secret target): it is not followed as a Secret, so no checksum follows it; it is ordered after its store. For a Secret target, drop target.manifest"
      : `its target is a custom resource, ${manifest.kind} (target.manifest), which no PodSpec field reads: no checksum follows it; it is ordered after its store`;
  return [resourceResult(manifestTarget, resource, message, { path: `${at}.target.manifest` })];
}

/**
 * The content with a hash of dependencies: the consumers' checksum covers the ExternalSecret as
 * applied, its `checksum/dependencies` included. A template or a generator makes the content one
 * object for every key read.
 */
export function contentWith(
  spec: ExternalSecretSpec,
  hash: string | undefined,
): ExternalSecretSpec['content'] {
  if (hash === undefined) return spec.content;
  const whole = { ...(spec.content('all') as JsonObject), [dependenciesAnnotation]: hash };
  return () => whole;
}

/** What an ExternalSecret spec decides, wherever it is embedded (ClusterExternalSecret). */
export interface ExternalSecretSpec {
  /** `target.name`, when set. */
  targetName: string | undefined;
  /** `target.manifest`: ESO writes a resource of this kind instead of a Secret. */
  manifest: { apiVersion: string; kind: string } | undefined;
  stores: StoreRef[];
  content(keys: KeySet): Json;
  producedKeys(): ReadonlySet<string> | undefined;
}

/**
 * Reads an ExternalSecret spec found at `at` (`spec`, or `spec.externalSecretSpec`): the stores it
 * reads, and its content normalised by the rules above. Malformed fields throw ItemError.
 */
export function readExternalSecretSpec(spec: JsonObject, at: string): ExternalSecretSpec {
  const target = optionalObject(spec.target, `${at}.target`);
  const manifest = readManifest(target?.manifest, `${at}.target.manifest`);
  const targetName = optionalString(target?.name, `${at}.target.name`);
  const data = optionalList(spec.data, `${at}.data`);
  const dataFrom = optionalList(spec.dataFrom, `${at}.dataFrom`);
  const stores: StoreRef[] = [];
  // Each store once, found by kind and name: a search of the list per entry cost entries × stores
  // (s16-review: 2 MB of entries naming distinct stores, 3.6 s). Made with a second store only.
  const seen: StoreSeen = { keys: undefined };
  addStore(stores, seen, spec.secretStoreRef, `${at}.secretStoreRef`);
  data.forEach((entry, i) => {
    const field = `${at}.data[${i}]`;
    const item = objectField({ entry }, 'entry', field);
    if (typeof item.secretKey !== 'string') {
      throw new ItemError(`${field}.secretKey is not a string`, `${field}.secretKey`);
    }
    const remoteRef = objectField(item, 'remoteRef', `${field}.remoteRef`);
    if (typeof remoteRef.key !== 'string' || remoteRef.key === '') {
      throw new ItemError(`${field}.remoteRef has no key`, `${field}.remoteRef.key`);
    }
    addStore(stores, seen, optionalObject(item.sourceRef, `${field}.sourceRef`)?.storeRef, field);
  });
  dataFrom.forEach((entry, i) => {
    const field = `${at}.dataFrom[${i}]`;
    const item = objectField({ entry }, 'entry', field);
    addStore(stores, seen, optionalObject(item.sourceRef, `${field}.sourceRef`)?.storeRef, field);
  });

  const normalized = normalize(spec, rules) as JsonObject;
  // Per-key narrowing is only sound when data[] alone decides the Secret's keys.
  const narrowable = normalized.dataFrom === undefined && target?.template == null;
  // The same condition makes the keys known: data[].secretKey and nothing else. Any template
  // counts as unknown: with mergePolicy Replace its data and templateFrom (literal templates can
  // render keys) replace the keys, with Merge they add to them. So does a Secret ESO does not own:
  // creationPolicy Merge writes into an existing Secret, None does not write at all.
  const policy = target?.creationPolicy ?? 'Owner';
  const owned = policy === 'Owner' || policy === 'Orphan';
  const secretKeys = data.map((entry) => (entry as JsonObject).secretKey as string);
  const keys = narrowable && owned && secretKeys.length > 0 ? new Set(secretKeys) : undefined;
  return {
    targetName,
    manifest,
    // Copied at its length: kept by the source to the end, a list grown by push has room for 17
    // (1,896 such lists were 0.29 MB of the fan-in bench's heap at the plan, most of one store).
    stores: stores.slice(),
    content: listContent(normalized, 'data', 'secretKey', narrowable),
    producedKeys: answering(keys),
  };
}

/**
 * A function answering `value`, made outside readExternalSecretSpec: a closure made in it shares
 * the context of its other closures (the forEach callbacks', which hold `at` and the stores list
 * grown by push), which each source then kept to the end of the run (0.3 MB on fan-in at 10k).
 */
const answering =
  <T>(value: T) =>
  (): T =>
    value;

/** The CRD requires both fields, each at least one character long. */
function readManifest(value: Json | undefined, at: string): ExternalSecretSpec['manifest'] {
  const manifest = optionalObject(value, at);
  if (!manifest) return undefined;
  const field = (name: string) => {
    const text = optionalString(manifest[name], `${at}.${name}`);
    if (!text) throw new ItemError(`${at}.${name} is not set`, `${at}.${name}`);
    return text;
  };
  const kind = field('kind');
  // The kind is named in results, plan and impact: a type name, never arbitrary text.
  if (!isKindName(kind)) {
    throw new ItemError(`${at}.kind ${notKindName}`, `${at}.kind`);
  }
  return { apiVersion: field('apiVersion'), kind };
}

/** The stores of `stores` by kind and name, once it holds more than one. */
interface StoreSeen {
  keys: Set<string> | undefined;
}

function addStore(stores: StoreRef[], seen: StoreSeen, ref: Json | undefined, field: string): void {
  if (ref === undefined || ref === null) return;
  if (!isObject(ref) || typeof ref.name !== 'string') {
    throw new ItemError(`${field} store reference has no name`, field);
  }
  const kind = ref.kind ?? 'SecretStore';
  if (typeof kind !== 'string')
    throw new ItemError(`${field}.kind is not a string`, `${field}.kind`);
  const { name } = ref;
  const first = stores[0];
  if (first === undefined) {
    stores.push({ kind, name });
    return;
  }
  // Most sources name one store, most often in every entry: compared with it, no key made.
  if (stores.length === 1 && first.kind === kind && first.name === name) return;
  seen.keys ??= new Set(stores.map((s) => `${s.kind}\u0000${s.name}`));
  const key = `${kind}\u0000${name}`;
  if (seen.keys.has(key)) return;
  seen.keys.add(key);
  stores.push({ kind, name });
}
