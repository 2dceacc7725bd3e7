// What an ExternalSecret reads besides its spec and its store: the ConfigMaps and Secrets its
// template comes from (templateFrom) and its generators. ESO watches none of them (it watches
// ExternalSecrets and the Secrets it owns; docs/operators.md §8), so a change of one reaches the
// Secret only at the next refresh. The ExternalSecret therefore carries a hash of those in the
// input (`checksum/dependencies`): changing it is a change of the ExternalSecret, which ESO syncs.
import { canonicalJson, sha256Hex } from '../../model/hash.js';
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { fieldPath, getPath, parsePath, walk } from '../../model/path.js';
import { ItemError, isKindName, notKindName, type Resource } from '../../model/resource.js';
import {
  dependencyMissingKey,
  dependencyNotInInput,
  dependencyRefresh,
} from '../../model/result-rules.js';
import { describe, type Result, resourceResult } from '../../model/results.js';
import { groupOf } from '../../model/scope.js';
import { stringMap } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { secretValues } from './secret.js';
import type { InputRead, Inventory } from './source.js';

export const dependenciesAnnotation = 'checksum/dependencies';
const generatorGroup = 'generators.external-secrets.io';

/** The note on a dependency the input does not have (targetNames names it by its new name). */
export function notInInput(resource: Resource, field: string, what: string): Result {
  const message = `${field}: ${what} is not in the input: ESO reads it at each refresh, and no checksum follows it`;
  return resourceResult(dependencyNotInInput, resource, message, { path: field });
}

/**
 * Where an ExternalSecret spec names what it reads (ESO v1 types). A generator in `data[]` is not
 * listed: ESO documents it as not implemented there.
 */
const references: readonly { path: string; kind?: InputRead['kind'] }[] = [
  { path: 'target.template.templateFrom[].configMap', kind: 'ConfigMap' },
  { path: 'target.template.templateFrom[].secret', kind: 'Secret' },
  { path: 'dataFrom[].sourceRef.generatorRef' },
];
const compiled = references.map((r) => ({ ...r, path: parsePath(r.path) }));

/** Generators whose every run (every refresh) gives a new value (generators/v1/*, §8). */
const rotating: ReadonlySet<string> = new Set([
  'Password',
  'UUID',
  'SSHKey',
  'ECRAuthorizationToken',
  'GCRAccessToken',
  'ACRAccessToken',
  'STSSessionToken',
  'GithubAccessToken',
  'QuayAccessToken',
  'CloudsmithAccessToken',
  'Grafana',
  'GitlabDeployToken',
  'BeyondtrustWorkloadCredentialsDynamicSecret',
  'MFA',
]);

/** Generator spec defaults (their CRDs), so spelling one out changes nothing. */
const passwordDefaults = { length: 24, noUpper: false, allowRepeat: false, encoding: 'raw' };
const sshKeyDefaults = { keyType: 'rsa' };
const generatorRules: Readonly<Record<string, readonly NormalizeRule[]>> = {
  Password: [{ path: '', defaults: passwordDefaults }],
  SSHKey: [{ path: '', defaults: sshKeyDefaults }],
  ClusterGenerator: [
    { path: 'generator.passwordSpec', defaults: passwordDefaults },
    { path: 'generator.sshKeySpec', defaults: sshKeyDefaults },
  ],
};

export interface Reference {
  kind: string;
  group: string;
  name: string;
  /** Template keys read (ConfigMap, Secret); none for a generator. */
  keys: string[];
  field: string;
}

/** The references of a spec; with `strict`, a malformed one throws ItemError, else is skipped. */
function referencesOf(spec: Json | undefined, at: string, strict: boolean): Reference[] {
  const found: Reference[] = [];
  const bad = (field: string, what: string) => {
    if (strict) throw new ItemError(`${field} ${what}`, field);
  };
  // Most ExternalSecrets have neither: skip the walks (this runs for every one, twice).
  if (!isObject(spec)) return found;
  const { target, dataFrom } = spec;
  const template = isObject(target) && isObject(target.template) ? target.template : undefined;
  if (dataFrom === undefined && template?.templateFrom === undefined) return found;
  for (const { path, kind } of compiled) {
    walk(spec, path, (node, trail) => {
      const field = fieldPath([at, ...trail]);
      if (!isObject(node) || typeof node.name !== 'string' || node.name === '') {
        bad(field, 'has no name');
        return;
      }
      if (kind) {
        const keys: string[] = [];
        const items = node.items ?? [];
        if (!Array.isArray(items)) return bad(`${field}.items`, 'is not a list');
        items.forEach((item, i) => {
          if (isObject(item) && typeof item.key === 'string') keys.push(item.key);
          else bad(`${field}.items[${i}].key`, 'is not a string');
        });
        found.push({ kind, group: '', name: node.name, keys, field });
        return;
      }
      const apiVersion = node.apiVersion ?? `${generatorGroup}/v1alpha1`;
      if (typeof node.kind !== 'string' || typeof apiVersion !== 'string') {
        bad(`${field}.kind`, 'is not a string');
        return;
      }
      // Named in results: a type name, never arbitrary text.
      if (!isKindName(node.kind)) {
        bad(`${field}.kind`, notKindName);
        return;
      }
      found.push({ kind: node.kind, group: groupOf(apiVersion), name: node.name, keys: [], field });
    });
  }
  return found;
}

/** The ConfigMaps and Secrets the template of an ExternalSecret spec reads, for the reader. */
export function templateReads(spec: Json | undefined): InputRead[] {
  return referencesOf(spec, 'spec', false).flatMap((r) =>
    r.group === '' && (r.kind === 'ConfigMap' || r.kind === 'Secret')
      ? [{ kind: r.kind, name: r.name }]
      : [],
  );
}

/**
 * Whether syncing this spec again can change its Secret with no change in the input: every
 * generator but Fake makes a new value, or reads a remote side, at each run.
 */
export function resyncRegenerates(spec: JsonObject): boolean {
  return referencesOf(spec, 'spec', false).some(
    (r) => r.group === generatorGroup && r.kind !== 'Fake',
  );
}

export interface Dependencies {
  /** The items of the input it reads, in the order the spec names them. */
  resources: readonly Resource[];
  /** sha256 hex over what of them decides the Secret; undefined without any. */
  hash: string | undefined;
  notes: readonly Result[];
}

/** What an ExternalSecret's spec reads from the input, and what of it decides its Secret. */
export function readDependencies(
  resource: Resource,
  spec: JsonObject,
  inventory: Inventory,
): Dependencies {
  return resolveDependencies(
    resource,
    dependencyReferences(spec, 'spec'),
    inventory,
    resource.namespace,
  );
}

/** The references of an ExternalSecret spec at `at`; a malformed one throws ItemError. */
export const dependencyReferences = (spec: JsonObject, at: string): readonly Reference[] =>
  referencesOf(spec, at, true);

/**
 * What the `references` of an ExternalSecret spec read in `namespace`: a ClusterExternalSecret
 * reads its spec's references once and resolves them in each namespace it selects.
 */
export function resolveDependencies(
  resource: Resource,
  references: readonly Reference[],
  inventory: Inventory,
  namespace: string | undefined,
): Dependencies {
  const { find } = inventory;
  const notes: Result[] = [];
  const reads = new Map<Resource, { reference: Reference; keys: Set<string> }>();
  for (const reference of references) {
    const { group, kind, name, field } = reference;
    const scope = kind === 'ClusterGenerator' ? undefined : namespace;
    const found = find(group, kind, scope, name);
    if (!found) {
      const what = `${group === generatorGroup ? 'generator ' : ''}${kind} ${scope ? `${scope}/` : ''}${name}`;
      notes.push(notInInput(resource, field, what));
      continue;
    }
    const read = reads.get(found) ?? { reference, keys: new Set<string>() };
    for (const key of reference.keys) read.keys.add(key);
    reads.set(found, read);
  }
  // What decides each entry: the dependency, and the keys found in it (none for a generator).
  const ids: (number | readonly string[] | null)[] = [];
  const entries = [...reads].map(([dependency, { reference, keys }]) => {
    const { entry, found } = entryOf(resource, dependency, reference, [...keys], inventory, notes);
    ids.push(dependency.index, found ?? null);
    return entry;
  });
  const resources = [...reads.keys()];
  const hash = entries.length === 0 ? undefined : hashOf(inventory, ids, entries);
  return { resources, hash, notes };
}

/** A read of a dependency that failed: its error, thrown again for each ExternalSecret reading it. */
class Failed {
  constructor(readonly error: ItemError) {}
}

/**
 * What a dependency holds, read once per run (keyed by a Secret's cached values object, or by the
 * ConfigMap's or generator's Resource), not once per ExternalSecret reading it: a large
 * templateFrom ConfigMap or generator read by many was read whole by each (bench/adversarial
 * template-dependencies and generator-dependencies: 1 MB ≈100 s).
 */
const held = new WeakMap<object, object>();

/** `read()` once per `key`; an ItemError it throws is thrown again at each call, as it was. */
function once<T extends object>(key: object, read: () => T): T {
  let known = held.get(key);
  if (!known) {
    try {
      known = read();
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      known = new Failed(error);
    }
    held.set(key, known);
  }
  if (known instanceof Failed) throw known.error;
  return known as T;
}

/**
 * sha256 of the entries' canonical JSON, once per run for each list of dependencies and keys
 * found (`ids`, which decide the entries): ExternalSecrets reading one large generator spec, or a
 * large value of one ConfigMap, hashed it once each (1 MB of input, half of it one generator's
 * spec: 8 s).
 */
function hashOf(inventory: Inventory, ids: readonly unknown[], entries: Json): string {
  let hashes = hashesByRun.get(inventory);
  if (hashes === undefined) {
    hashes = new Map();
    hashesByRun.set(inventory, hashes);
  }
  const key = JSON.stringify(ids);
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = sha256Hex(canonicalJson(entries));
    hashes.set(key, hash);
  }
  return hash;
}

const hashesByRun = new WeakMap<Inventory, Map<string, string>>();

/**
 * What of one dependency decides the Secret: the keys read that it has (`found`), or a
 * generator's spec.
 */
function entryOf(
  resource: Resource,
  dependency: Resource,
  reference: Reference,
  keys: readonly string[],
  inventory: Inventory,
  notes: Result[],
): { entry: Json; found?: readonly string[] } {
  const { kind, name, field } = reference;
  // Its own malformed fields are errors of the ExternalSecret that reads it, naming it.
  const named = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      throw new ItemError(`${field}: ${describe(dependency)}: ${error.message}`, field);
    }
  };
  if (reference.group === generatorGroup) {
    const { spec } = named(() =>
      once(dependency, () => ({
        spec: normalize(dependency.value.spec ?? {}, generatorRules[kind] ?? []),
      })),
    );
    return { entry: { kind, name, spec } };
  }
  // ESO reads a ConfigMap's `data` (not binaryData) and a Secret's `data`, key by key. Of a
  // Secret, without secretChecksumKey, only which of those keys it has (secret.ts says why).
  const secret = kind === 'Secret' ? named(() => secretValues(dependency, inventory)) : undefined;
  const { values, present } = named(() =>
    once(secret ?? dependency, () => {
      const values = secret ? (secret.digests ?? {}) : stringMap(dependency.value.data, 'data');
      const present = new Set(
        secret?.keys ?? Object.keys(values).filter((k) => values[k] !== null),
      );
      return { values, present };
    }),
  );
  const found = keys.filter((key) => {
    if (present.has(key)) return true;
    const message = `${field}: ${describe(dependency)} has no key ${key}: ESO cannot render the template`;
    notes.push(resourceResult(dependencyMissingKey, resource, message, { path: field }));
    return false;
  });
  if (secret && !secret.digests) return { entry: { kind, name, keys: found.sort() }, found };
  const data = Object.fromEntries(found.map((key) => [key, values[key] as Json]));
  return { entry: { kind, name, data }, found };
}

/**
 * When ESO does not sync on a change of the ExternalSecret (refreshPolicy CreatedOnce, or Periodic
 * with refreshInterval 0), `checksum/dependencies` cannot bring a change of a dependency to the
 * Secret. A warning only where it matters and the advice is safe: workloads in the input read the
 * Secret (they would restart on the old one), and no generator is read (OnChange or a timer would
 * make a new password at every sync). Otherwise an info without that advice; with a generator,
 * ESO keeping the value it made once is usually the point.
 */
export function unfollowedDependencies(
  resource: Resource,
  { spec, at }: SpecAt,
  dependencies: readonly Resource[],
  consumed: boolean,
): Result | undefined {
  const refresh = refreshOf(spec, at);
  if (refresh.syncsOnChange || dependencies.length === 0) return undefined;
  const names = dependencies.map(describe).join(', ');
  const field = { path: refresh.field };
  const unfollowed = `${refresh.why}: ESO does not sync again when ${dependenciesAnnotation} changes, so a change of ${names} does not reach the Secret`;
  if (dependencies.some((d) => groupOf(d.apiVersion) === generatorGroup)) {
    const message = `${unfollowed}; ESO keeps the value it made (refreshPolicy OnChange or a refreshInterval above 0 would make a new one at every sync)`;
    return resourceResult(dependencyRefresh, resource, message, field, 'info');
  }
  const advice = 'use refreshPolicy OnChange, or a refreshInterval above 0';
  if (!consumed) {
    const message = `${unfollowed} (no workload in the input reads it); ${advice}`;
    return resourceResult(dependencyRefresh, resource, message, field, 'info');
  }
  const message = `${unfollowed} while its consumers restart; ${advice}`;
  return resourceResult(dependencyRefresh, resource, message, field);
}

/** An ESO spec and where it is: an ExternalSecret's `spec`, a ClusterExternalSecret's. */
export interface SpecAt {
  spec: Json | undefined;
  at: string;
}

/** Where each ESO kind keeps its ExternalSecret spec. */
const specPaths: ReadonlyMap<string, string> = new Map([
  ['ExternalSecret', 'spec'],
  ['ClusterExternalSecret', 'spec.externalSecretSpec'],
]);

/** The ExternalSecret spec of an ESO ExternalSecret or ClusterExternalSecret, else undefined. */
export function esoSpecOf(resource: Resource): SpecAt | undefined {
  const at = specPaths.get(resource.kind);
  if (at === undefined || groupOf(resource.apiVersion) !== 'external-secrets.io') return undefined;
  return { spec: getPath(resource.value, at), at };
}

export interface Refresh {
  /** A change of the ExternalSecret (spec, labels, annotations) makes ESO sync. */
  syncsOnChange: boolean;
  /** ESO also syncs on a timer (refreshPolicy Periodic, refreshInterval above 0). */
  periodic: boolean;
  why: string;
  field: string;
}

/**
 * When ESO syncs an ExternalSecret (shouldRefresh in its controller; docs/operators.md §8); `at`:
 * where the spec is, for the field named.
 */
export function refreshOf(spec: Json | undefined, at = 'spec'): Refresh {
  const policy = isObject(spec) ? spec.refreshPolicy : undefined;
  if (policy === 'CreatedOnce') {
    const why = 'refreshPolicy CreatedOnce';
    return { syncsOnChange: false, periodic: false, why, field: `${at}.refreshPolicy` };
  }
  if (policy === 'OnChange') {
    const why = 'refreshPolicy OnChange';
    return { syncsOnChange: true, periodic: false, why, field: `${at}.refreshPolicy` };
  }
  // Periodic, and anything else: after the first sync, an interval of 0 stops every sync.
  const interval = isObject(spec) ? (spec.refreshInterval ?? '1h') : '1h';
  const zero =
    typeof interval === 'number'
      ? interval <= 0
      : typeof interval === 'string' && (interval.startsWith('-') || !/[1-9]/.test(interval));
  // Zero or not is said, never the text written (messages quote no input).
  const why =
    isObject(spec) && spec.refreshInterval !== undefined
      ? `refreshInterval ${zero ? '0' : 'above 0'}`
      : 'refreshInterval 1h (the default)';
  return { syncsOnChange: !zero, periodic: !zero, why, field: `${at}.refreshInterval` };
}

/** Whether a generator of this kind gives a new value on every run (ClusterGenerator: unknown). */
export const rotatesEveryRun = (kind: string) => rotating.has(kind) || kind === 'ClusterGenerator';
