// The pure core: parsed items and configuration in, annotation edits and results out. No I/O.
// A pipeline of stages, each in its own module: sources → target names → consumers → operator
// readers → checksums → the sources' own annotations → Argo CD health check → waves → lints.

import type { Config, Ordering } from '../model/config.js';
import { type Copies, findCopies } from '../model/copies.js';
import type { Edit } from '../model/edit.js';
import { foldRepeats, type ListsBy } from '../model/fold.js';
import type { Bystander, Resource } from '../model/resource.js';
import { type ResourceRef, type Result, subjectOf } from '../model/results.js';
import { limitAnnotations } from './annotation-limit.js';
import { planArgocdHealth } from './argocd-health.js';
import { type Checksum, type InputSize, planChecksums } from './checksums.js';
import { findConsumers } from './consumers.js';
import { runLints } from './lints/index.js';
import type { NodeTable, WaveNode } from './order/waves.js';
import { findProducers } from './producers.js';
import { findReaders } from './readers.js';
import { settle, severityIn } from './rule-table.js';
import { planSourceAnnotations } from './source-annotations.js';
import { inputReaders } from './sources/index.js';
import type { SecretSource } from './sources/source.js';
import { planTargetNames } from './target-names.js';
import { planWaves } from './wave-plan.js';

export interface TransformOutput {
  edits: Edit[];
  results: Result[];
  plan: Plan;
}

/** What was planned, for `secret-rollout plan`: the order graph and the checksums. */
export interface Plan {
  /** The deployers whose order annotations the run writes (`ordering`). */
  ordering: readonly Ordering[];
  /** Stores, sources and consumers with their waves; `before` points at what comes later. */
  nodes: NodeTable;
  stores: readonly Resource[];
  sources: readonly SecretSource[];
  consumersOf: ReadonlyMap<SecretSource, readonly Resource[]>;
  /** The operator resources that read each source's Secret (readers.ts): ordered, no checksum. */
  readersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  checksums: ListsBy<Resource, Checksum>;
  /** Nodes whose wave the run writes; the others keep the wave the input gives them. */
  placed: ReadonlySet<WaveNode>;
  /** Explicit waves that contradict the order, with the nodes they are not below. */
  conflicts: ReadonlyMap<WaveNode, readonly WaveNode[]>;
}

const none = { edits: [], results: [] };

/**
 * `bystanders`: items copied through unparsed (pass-through.ts), known by kind and name.
 * `inputSize`: the input's, which bounds the checksums' and the ClusterExternalSecrets' work.
 */
export function transform(
  resources: readonly Resource[],
  config: Config,
  bystanders: readonly Bystander[],
  inputSize: InputSize,
): TransformOutput {
  // Which items are copies of another: decided once, read by producers and two lints. Found when
  // first asked: at the lints, where duplicate-item found them before, unless two sources write
  // one Secret (its map of every name made before the stages measured up to 1.4 MiB more peak).
  let copies: Copies | undefined;
  const copiesOf = () => {
    copies ??= findCopies(resources);
    return copies;
  };
  const found = findProducers(resources, config, inputSize.characters, copiesOf);
  // targetNames hashed: renames, and the sources as the next run reads them.
  const names = planTargetNames(resources, found, config);
  const { producers } = names;
  const consumption = findConsumers(resources, producers, config, inputSize.characters);
  const readers = findReaders(resources, producers, config);
  const checksums = planChecksums(consumption, inputSize);
  const own = planSourceAnnotations(producers, consumption.consumersOf);
  const health = config.argocdHealthCheck ? planArgocdHealth(resources) : none;
  const order = planWaves(producers, consumption, readers, config);
  const { sources, stores } = producers;
  const { consumersOf, unresolved, keyedReads } = consumption;
  const { checksummed } = checksums;
  // What reads each Secret other than a pod template: sources (templateFrom), operator readers.
  const readersOf = inputReaders(sources, producers.producing);
  for (const [source, readersOfSource] of readers.readersOf) {
    for (const reader of readersOfSource) {
      readersOf.set(source, (readersOf.get(source) ?? new Set()).add(reader));
    }
  }
  // A loop, not a flatMap: that made a list per consumer (10k at 10k items) for the few in error.
  const unreadable = new Set<Resource>();
  const { consumers } = consumption;
  for (let i = 0; i < consumers.length; i++) {
    const consumer = consumers[i] as (typeof consumers)[number];
    if ('error' in consumer) unreadable.add(consumer.resource);
  }
  const lints = runLints(
    {
      resources,
      copies: copiesOf(),
      bystanders,
      sources,
      consumersOf,
      readersOf,
      unreadable,
      checksummed,
      unresolved,
      keyedReads,
      config,
    },
    severityIn(config),
  );
  // Edits and results in the order of the stages; results then in item order. Joined by concat,
  // which copies each list whole, not by flatMap, which reads element by element (≈10k results
  // and as many edits at 10k items: a few ms).
  const stages = [names, checksums, own, health, order, lints];
  // Whichever stage planned it, no edit takes an object's annotations over Kubernetes' limit.
  const limited = limitAnnotations(joined(stages.map((stage) => stage.edits)), resources);
  const { nodes, placed, conflicts } = order;
  return {
    edits: limited.edits,
    results: sortByItem(
      // The same note on many sources (KES's migration note on every KES item) is read once,
      // folded after settle so that it names no resource that silences it.
      foldRepeats(
        settle(
          joined(
            [producers, consumption, readers, ...stages, limited].map((stage) => stage.results),
          ),
          resources,
          config,
        ),
        new Set(producers.results),
      ),
      resources,
      copiesOf(),
    ),
    plan: {
      ordering: config.ordering,
      nodes,
      stores,
      sources,
      consumersOf,
      readersOf: readers.readersOf,
      checksums: checksummed,
      placed,
      conflicts,
    },
  };
}

const joined = <T>(lists: readonly (readonly T[])[]): T[] => ([] as T[]).concat(...lists);

/**
 * Results in item order (stable), results without a resource first. `copies`: the items given
 * more than once (findCopies).
 */
export function sortByItem(
  results: readonly Result[],
  resources: readonly Resource[],
  copies: Copies,
): Result[] {
  // The results of one resource share its ref (refOf), or name the resource itself (subjectOf: a
  // deferred result not yet reported): each distinct ref or resource is numbered as it is
  // first met, found by its name (most often the only ref of that name), and ranked once, found
  // by name among the items: no key text per item, and no map keyed by ref (with the one by name
  // they were two maps of 10k entries on the dense bench, 1.9 MB, and four look-ups per result).
  // Refs to one item (a duplicate item's) share a number: they rank alike. An item that appears
  // twice ranks its results at the last.
  // A result that names its resource itself (a deferred one), an item given once, ranks at the
  // item's place, found by its number: no entry by name for it (≈10k checksum infos on the
  // fan-in bench, whose Map outlived a scavenge to the peak). Its number is then -2 - its rank.
  let last = -1;
  for (let i = 0; i < resources.length; i++)
    last = Math.max(last, (resources[i] as Resource).index);
  const placeOf = new Int32Array(last + 1);
  for (let i = 0; i < resources.length; i++) placeOf[(resources[i] as Resource).index] = i;
  const refs: Subject[] = [];
  const byName = new Map<string, number | Map<string, number>>();
  const numbers = new Int32Array(results.length);
  for (let i = 0; i < results.length; i++) {
    const ref = subjectOf(results[i] as Result);
    if (ref === undefined) {
      numbers[i] = -1;
      continue;
    }
    const place = 'index' in ref ? placeOf[ref.index] : undefined;
    numbers[i] =
      place !== undefined && resources[place] === ref && !copies.has(ref as Resource)
        ? -2 - place
        : numberOf(ref, refs, byName);
  }
  const rankOf = new Int32Array(refs.length).fill(-1);
  resources.forEach((r, i) => {
    const named = byName.get(r.name);
    if (named === undefined) return;
    const number =
      typeof named === 'number'
        ? sameItem(refs[named] as Subject, r)
          ? named
          : undefined
        : named.get(itemKey(r));
    if (number !== undefined) rankOf[number] = i;
  });
  // Placed by counting (ranks are item positions): no comparison sort of 10k+ results, and the
  // same order a stable sort by rank gives.
  const ranks = new Int32Array(results.length);
  const starts = new Int32Array(resources.length + 2);
  for (let i = 0; i < results.length; i++) {
    const number = numbers[i] as number;
    const rank = number >= 0 ? (rankOf[number] as number) : number === -1 ? -1 : -2 - number;
    ranks[i] = rank;
    (starts[rank + 2] as number)++;
  }
  for (let rank = 1; rank < starts.length; rank++) {
    starts[rank] = (starts[rank] as number) + (starts[rank - 1] as number);
  }
  const sorted = new Array<Result>(results.length);
  results.forEach((result, i) => {
    sorted[(starts[(ranks[i] as number) + 1] as number)++] = result;
  });
  return sorted;
}

/**
 * The number of `ref` among `refs`, a new one at the end if it names no item met before. A name
 * that two items share (kind, namespace or apiVersion apart) maps their keys to their numbers:
 * only its refs and items have a key text built, each found in one look-up however many share it.
 */
function numberOf(
  ref: Subject,
  refs: Subject[],
  byName: Map<string, number | Map<string, number>>,
): number {
  const named = byName.get(ref.name);
  if (typeof named === 'number') {
    const known = refs[named] as Subject;
    if (known === ref || sameItem(known, ref)) return named;
    const byItem = new Map([[itemKey(known), named]]);
    byName.set(ref.name, byItem);
    return numberIn(byItem, ref, refs);
  }
  if (named !== undefined) return numberIn(named, ref, refs);
  byName.set(ref.name, refs.length);
  refs.push(ref);
  return refs.length - 1;
}

function numberIn(byItem: Map<string, number>, ref: Subject, refs: Subject[]): number {
  const key = itemKey(ref);
  const known = byItem.get(key);
  if (known !== undefined) return known;
  byItem.set(key, refs.length);
  refs.push(ref);
  return refs.length - 1;
}

/** What tells apart the items of one name; lengths first, so that no two parts run together. */
const itemKey = ({ kind, namespace = '', apiVersion }: Subject) =>
  `${kind.length}.${namespace.length}.${kind}${namespace}${apiVersion}`;

/** Whether a ref and an item (or two refs) of one name name the same item. */
type Subject = ResourceRef | Resource;
const sameItem = (a: Subject, b: Subject) =>
  a.kind === b.kind && (a.namespace ?? '') === (b.namespace ?? '') && a.apiVersion === b.apiVersion;
