// The pure core: parsed items and configuration in, annotation edits and results out. No I/O.
// A pipeline of stages, each in its own module: sources → target names → consumers → operator
// readers → checksums → the sources' own annotations → Argo CD health check → waves → lints.

import type { Config, Ordering } from '../model/config.js';
import type { Edit } from '../model/edit.js';
import { foldRepeats } from '../model/fold.js';
import type { Bystander, Resource } from '../model/resource.js';
import type { ResourceRef, Result } from '../model/results.js';
import { planArgocdHealth } from './argocd-health.js';
import { type Checksum, type InputSize, planChecksums } from './checksums.js';
import { findConsumers } from './consumers.js';
import { runLints } from './lints/index.js';
import type { WaveNode } from './order/waves.js';
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
  nodes: ReadonlyMap<Resource, WaveNode>;
  stores: readonly Resource[];
  sources: readonly SecretSource[];
  consumersOf: ReadonlyMap<SecretSource, readonly Resource[]>;
  /** The operator resources that read each source's Secret (readers.ts): ordered, no checksum. */
  readersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  checksums: ReadonlyMap<Resource, readonly Checksum[]>;
  /** Nodes whose wave the run writes; the others keep the wave the input gives them. */
  placed: ReadonlySet<WaveNode>;
  /** Explicit waves that contradict the order, with the nodes they are not below. */
  conflicts: ReadonlyMap<WaveNode, readonly WaveNode[]>;
}

const none = { edits: [], results: [] };

/**
 * `bystanders`: items copied through unparsed (pass-through.ts), known by kind and name.
 * `inputSize`: the input's, which bounds the checksums' work.
 */
export function transform(
  resources: readonly Resource[],
  config: Config,
  bystanders: readonly Bystander[],
  inputSize: InputSize,
): TransformOutput {
  const found = findProducers(resources, config);
  // targetNames hashed: renames, and the sources as the next run reads them.
  const names = planTargetNames(resources, found, config);
  const { producers } = names;
  const consumption = findConsumers(resources, producers, config);
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
    if (consumer.error) unreadable.add(consumer.resource);
  }
  const lints = runLints(
    {
      resources,
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
  // Edits and results in the order of the stages; results then in item order.
  const stages = [names, checksums, own, health, order, lints];
  const { nodes, placed, conflicts } = order;
  return {
    edits: stages.flatMap((stage) => stage.edits),
    results: sortByItem(
      // The same note on many sources (KES's migration note on every KES item) is read once,
      // folded after settle so that it names no resource that silences it.
      foldRepeats(
        settle(
          [producers, consumption, readers, ...stages].flatMap((stage) => stage.results),
          resources,
          config,
        ),
        new Set(producers.results),
      ),
      resources,
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

/** Results in item order (stable), results without a resource first. */
function sortByItem(results: Result[], resources: readonly Resource[]): Result[] {
  // The results of one resource share its ref (refOf): each ref is ranked once, found by name
  // among the items, with no key text written per item (10k of them at 10k items). An item
  // that appears twice ranks its results at the last. A name most often has one ref: a list is
  // made only for a name that has more (a list per name was 9k lists on the dense bench).
  const rankOf = new Map<ResourceRef, number>();
  const byName = new Map<string, ResourceRef | ResourceRef[]>();
  for (let i = 0; i < results.length; i++) {
    const ref = (results[i] as Result).resourceRef;
    if (!ref || rankOf.has(ref)) continue;
    rankOf.set(ref, -1);
    const named = byName.get(ref.name);
    if (named === undefined) byName.set(ref.name, ref);
    else if (Array.isArray(named)) named.push(ref);
    else byName.set(ref.name, [named, ref]);
  }
  resources.forEach((r, i) => {
    const named = byName.get(r.name);
    if (named === undefined) return;
    if (!Array.isArray(named)) {
      if (sameItem(named, r)) rankOf.set(named, i);
      return;
    }
    for (let k = 0; k < named.length; k++) {
      const ref = named[k] as ResourceRef;
      if (sameItem(ref, r)) rankOf.set(ref, i);
    }
  });
  // Placed by counting (ranks are item positions): no comparison sort of 10k+ results, and the
  // same order a stable sort by rank gives.
  const ranks = new Int32Array(results.length);
  const starts = new Int32Array(resources.length + 2);
  results.forEach(({ resourceRef: ref }, i) => {
    const rank = ref ? (rankOf.get(ref) as number) : -1;
    ranks[i] = rank;
    (starts[rank + 2] as number)++;
  });
  for (let rank = 1; rank < starts.length; rank++) {
    starts[rank] = (starts[rank] as number) + (starts[rank - 1] as number);
  }
  const sorted = new Array<Result>(results.length);
  results.forEach((result, i) => {
    sorted[(starts[(ranks[i] as number) + 1] as number)++] = result;
  });
  return sorted;
}

const sameItem = (ref: ResourceRef, r: Resource) =>
  ref.kind === r.kind &&
  (ref.namespace ?? '') === (r.namespace ?? '') &&
  ref.apiVersion === r.apiVersion;
