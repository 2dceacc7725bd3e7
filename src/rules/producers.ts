// Stage 1: the producers, the secret sources of the input, by the Secret (or ConfigMap) each one
// produces, and the stores they read from.
import type { Config } from '../model/config.js';
import { type Copies, itemOf } from '../model/copies.js';
import { addTo, countedList, mapUnder, namesOf, namesShown } from '../model/fold.js';
import { objectKey, type Resource } from '../model/resource.js';
import { duplicateWriter, secretChecksumKey, sourceSkipped } from '../model/result-rules.js';
import { describe, plainResult, type Result, resourceResult } from '../model/results.js';
import { groupOf } from '../model/scope.js';
import { sourceKindOf, storeKindOf } from './sources/index.js';
import {
  type Inventory,
  keysProduced,
  type SecretSource,
  type SourceKind,
  writtenKindOf,
} from './sources/source.js';
import { guardedRead } from './stage.js';
import type { ProducedKind } from './workloads/references.js';

export interface Producers {
  /** Every source, in input order (a cluster kind gives one per namespace). */
  sources: readonly SecretSource[];
  /** The stores in the input, which sources read from. */
  stores: readonly Resource[];
  /** Skipped sources, malformed ones, notes of the sources and several sources of one Secret. */
  results: readonly Result[];
  /** The sources that produce one Secret (or ConfigMap) in one namespace. */
  producing(
    kind: ProducedKind,
    namespace: string | undefined,
    name: string,
  ): SecretSource[] | undefined;
  /**
   * What each name of one kind in one namespace is produced by: looked up once per workload and
   * kind, then once per reference (a look-up by kind, namespace and name per reference cost ≈1 µs
   * at 100k items, each a cache miss over a 1 GB heap).
   */
  producedIn(kind: ProducedKind, namespace: string | undefined): ProducedNames | undefined;
  /** How many sources are numbered (`Produced.id`): every source, as `sources` has them. */
  numbered: number;
}

/**
 * The sources that produce one Secret (or ConfigMap) in one namespace, and the number of the
 * first: the others follow it, so a stage keeps what it learns of a source in lists indexed by
 * that number (0 to `numbered`), not in a Map keyed by the source.
 */
export class Produced {
  /** keysProduced's answer, kept here: its WeakMap look-up was one more per keyed reference. */
  private produced: ReadonlySet<string> | null | undefined = undefined;

  constructor(
    readonly sources: SecretSource[],
    readonly id: number,
  ) {}

  /** The keys the Secret has, when known (keysProduced). */
  keys(): ReadonlySet<string> | null {
    if (this.produced === undefined) this.produced = keysProduced(this.sources);
    return this.produced;
  }
}

export type ProducedNames = ReadonlyMap<string, Produced>;

/** The index of what sources produce: by kind, namespace ('' for none) and name. */
type Index = Map<string, Map<string, Map<string, Produced>>>;

/**
 * `inputCharacters`: the input's length, which bounds the ClusterExternalSecrets' work. `copiesOf`:
 * the items given more than once (model/copies.ts), asked only where two sources write one Secret
 * (a source given twice is one writer).
 */
export function findProducers(
  resources: readonly Resource[],
  config: Config,
  inputCharacters: number,
  copiesOf: () => Copies,
): Producers {
  const results: Result[] = [];
  const sources: SecretSource[] = [];
  const stores: Resource[] = [];
  const bySecret = new Map<string, SecretSource[]>();
  const unkeyed = new Set<Resource>();
  const inventory: Inventory = {
    config,
    resources,
    inputCharacters,
    find: finder(resources),
    unkeyed: (secret) => unkeyed.add(secret),
  };
  const found = (source: SecretSource) => {
    sources.push(source);
    results.push(...source.notes);
    addTo(bySecret, objectKey(source.produces, source.namespace, source.secretName), source);
  };
  // The item's kind, read by one function for the run: a closure per source item, with its
  // context, was most of what this module allocated (0.9–1.3 MB at 10k items, now ≈0.5).
  let kind: SourceKind | undefined;
  const read = (resource: Resource) => {
    const made = (kind as SourceKind).read(resource, inventory);
    if ('skipped' in made) {
      results.push(resourceResult(sourceSkipped, resource, `skipped: ${made.skipped}`));
    } else if (Array.isArray(made)) {
      for (let k = 0; k < made.length; k++) found(made[k] as SecretSource);
    } else found(made);
  };
  // Index loops: with inlining off (large inputs), for-of allocated an iterator result per item.
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as Resource;
    if (storeKindOf(resource)) stores.push(resource);
    kind = sourceKindOf(resource);
    if (kind) guardedRead(results, resource, read);
  }
  // By kind, namespace and name in turn, so that a look-up builds no key text.
  const index: Index = new Map();
  let id = 0;
  // forEach, not for-of: no iterator result per Secret.
  bySecret.forEach((same) => {
    if (same.length >= 2) results.push(...duplicateWarnings(same, copiesOf()));
    const { produces, namespace = '', secretName } = same[0] as SecretSource;
    const produced = new Produced(same, id);
    mapUnder(mapUnder(index, produces), namespace).set(compactCopy(secretName), produced);
    id += same.length;
  });
  if (unkeyed.size > 0) results.push(unkeyedWarning(unkeyed));
  return producersOf(sources, stores, results, index);
}

/**
 * `text` in a string of its own. A name read from the input is a slice of the input's text: each
 * look-up that found it compared the reference's name with it, reading the key's characters where
 * its item lies in the input, a cache and TLB miss per reference on fan-in's 100k items (140 MB
 * of text); copied, the keys of a namespace lie together, and stay in cache.
 */
const compactCopy = (text: string): string => JSON.parse(JSON.stringify(text));

function producersOf(
  sources: readonly SecretSource[],
  stores: readonly Resource[],
  results: readonly Result[],
  index: Index,
): Producers {
  return {
    sources,
    stores,
    results,
    producing: (kind, namespace = '', name) => index.get(kind)?.get(namespace)?.get(name)?.sources,
    producedIn: (kind, namespace = '') => index.get(kind)?.get(namespace),
    numbered: sources.length,
  };
}

/**
 * The producers with each source replaced by `swap`'s (target-names.ts: the sources as the next
 * run reads them), under the same numbers, and other results: the index is copied once, so a
 * look-up hands every reader of a name the same list, as findProducers' does.
 */
export function swapSources(
  producers: Producers,
  swap: (source: SecretSource) => SecretSource,
  results: readonly Result[],
): Producers {
  const index: Index = new Map();
  // Each kind and namespace a source lands in, copied on the first of its sources.
  for (const { produces, namespace = '' } of producers.sources) {
    if (produces === 'CustomResource') continue;
    const namespaces = mapUnder(index, produces);
    if (namespaces.has(namespace)) continue;
    const copy = new Map<string, Produced>();
    producers.producedIn(produces, namespace)?.forEach(({ sources, id }, name) => {
      copy.set(name, new Produced(sources.map(swap), id));
    });
    namespaces.set(namespace, copy);
  }
  return producersOf(producers.sources.map(swap), producers.stores, results, index);
}

/** Looks items up by group, kind, namespace and name; the index is built on the first look-up. */
function finder(resources: readonly Resource[]): Inventory['find'] {
  let byKey: Map<string, Resource> | undefined;
  const key = (group: string, kind: string, namespace: string | undefined, name: string) =>
    `${group}/${objectKey(kind, namespace, name)}`;
  return (group, kind, namespace, name) => {
    if (!byKey) {
      byKey = new Map();
      for (const r of resources) {
        const k = key(groupOf(r.apiVersion), r.kind, r.namespace, r.name);
        // Of duplicate items (which no apply accepts) the first counts.
        if (!byKey.has(k)) byKey.set(k, r);
      }
    }
    return byKey.get(key(group, kind, namespace, name));
  };
}

/**
 * Several sources writing one Secret: each is told of the others, five of them named and the rest
 * counted (n sources each naming every other wrote n² names: bench/adversarial duplicate-writers).
 */
function duplicateWarnings(all: readonly SecretSource[], copies: Copies): Result[] {
  // Copies of one item (the duplicate-item lint says so) are one writer.
  const seen = new Set<object>();
  const same = all.filter((s) => {
    const item = itemOf(copies, s.resource);
    if (seen.has(item)) return false;
    seen.add(item);
    return true;
  });
  if (same.length < 2) return [];
  const head = same.slice(0, namesShown + 1);
  const describeSource = (s: SecretSource) => describe(s.resource);
  return same.map((source) => {
    const others = namesOf(
      head.filter((s) => s !== source),
      describeSource,
      same.length - 1,
    );
    const message = `${describe(source.resource)} and ${others} all write ${writtenKindOf(source)} ${source.secretName}; each consumer's checksum covers all of them`;
    return resourceResult(duplicateWriter, source.resource, message);
  });
}

/**
 * One warning per run, not per Secret: without `secretChecksumKey` no digest of a Secret value is
 * written (an unkeyed one is brute-forced in seconds from any pod), so what the user loses is said
 * once, with the option that gets it back. Names only, never values.
 */
function unkeyedWarning(secrets: ReadonlySet<Resource>): Result {
  // Ten named, the rest counted.
  const shown = countedList([...secrets].sort((a, b) => a.index - b.index).map(describe), 10);
  return plainResult(
    secretChecksumKey,
    `secretChecksumKey is not set, so checksums cover only the type and key names of ${shown}, never a digest of their values: nothing rolls when only a value changes. Set secretChecksumKey to a random key kept secret (openssl rand -hex 32) to cover values with HMAC-SHA256`,
  );
}
