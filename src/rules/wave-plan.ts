// Stage 5: the order graph (stores → sources → consumers and operator readers), and the annotations that say it to
// each deployer `ordering` names: Argo CD sync waves, depends-on, kapp (order/deployers.ts).
import type { Config } from '../model/config.js';
import type { MappingEdit } from '../model/edit.js';
import { ItemTable } from '../model/item-table.js';
import { objectKey, type Resource } from '../model/resource.js';
import type { Result } from '../model/results.js';
import type { Consumption } from './consumers.js';
import { planDeployerOrder } from './order/deployers.js';
import { type Phase, phaseOf } from './order/phases.js';
import { type NodeTable, newPlacement, placeWaves, type WaveNode, waveOf } from './order/waves.js';
import type { Producers } from './producers.js';
import type { Readers } from './readers.js';
import { storeKindOf, storeKinds } from './sources/index.js';
import type { SecretSource } from './sources/source.js';
import { guardedRead } from './stage.js';

export interface WavePlan {
  /** Stores, sources and consumers with their waves; `before` points at what comes later. */
  nodes: NodeTable;
  /** Nodes whose wave the run writes; the others keep the wave the input gives them. */
  placed: ReadonlySet<WaveNode>;
  /** Explicit waves that contradict the order, with the nodes they are not below. */
  conflicts: ReadonlyMap<WaveNode, readonly WaveNode[]>;
  /** The waves (with `ordering: argocd`), then the other deployers' annotations to write. */
  edits: readonly MappingEdit[];
  /** Malformed waves, then (with argocd) the waves and their conflicts, then the others'. */
  results: readonly Result[];
}

/** The nodes by their resource's item number (model/item-table.ts), in the order made. */
class WaveNodes implements NodeTable {
  private readonly table = new ItemTable<WaveNode>();

  get(resource: Resource): WaveNode | undefined {
    const place = this.table.placeOf(resource);
    return place < 0 ? undefined : this.table.values[place];
  }

  add(node: WaveNode): void {
    this.table.add(node.resource, node);
  }

  get size(): number {
    return this.table.size;
  }

  values(): readonly WaveNode[] {
    return this.table.values;
  }
}

/** What a node without successors points at: one list for the thousands of consumers. */
const noneAfter: readonly Resource[] = [];

/**
 * `added` (each once, each with a node) come after `node`. The first list a node gets may be
 * another's (a source's consumers: consumersOf's own list), so it is copied, once, when added to
 * a second time; the list may then hold a resource twice (a store read by several sources, a
 * source's consumer that is its operator reader too): such nodes are put in `joined`, whose
 * lists, their own, `unique` then makes unique once all edges are in.
 */
function orderAfter(node: WaveNode, added: readonly Resource[], joined: Set<WaveNode>): void {
  if (added.length === 0) return;
  if (node.before === noneAfter) {
    node.before = added;
    return;
  }
  if (!joined.has(node)) {
    node.before = node.before.concat(added);
    joined.add(node);
    return;
  }
  const before = node.before as Resource[];
  for (let i = 0; i < added.length; i++) before.push(added[i] as Resource);
}

/** Each successor once, at its first place (the order a Set of them kept). */
function unique(node: WaveNode): void {
  const once = new Set(node.before);
  if (once.size < node.before.length) node.before = [...once];
}

/**
 * The resources of `consumers` with a node in `phase` (made here), each once as the collection
 * holds it: a list holding only such is itself the answer (every source on the bench's shapes),
 * else those in a list made at its size, found by the nodes the first pass made (a resource whose
 * wave is malformed has none, and its error is reported once). Walked by forEach, which allocates
 * no iterator result per consumer as for-of did.
 */
function inPhase(
  consumers: readonly Resource[] | ReadonlySet<Resource> | undefined,
  phase: Phase | undefined,
  nodes: NodeTable,
  nodeIn: (phase: Phase | undefined, resource: Resource) => WaveNode | undefined,
): readonly Resource[] {
  if (consumers === undefined) return noneAfter;
  let count = 0;
  consumers.forEach((consumer: Resource) => {
    if (nodeIn(phase, consumer)) count++;
  });
  if (Array.isArray(consumers) && count === consumers.length) return consumers;
  const after = new Array<Resource>(count);
  count = 0;
  consumers.forEach((consumer: Resource) => {
    const node = nodes.get(consumer);
    if (node && samePhase(phase, node.phase)) after[count++] = consumer;
  });
  return after;
}

/** Waves order resources only within one sync phase (the hook-phase lint covers the rest). */
const samePhase = (a: Phase | undefined, b: Phase | undefined) =>
  a !== undefined && a.name === b?.name;

/** The order graph is planned either way (for `plan`); waves only count with `argocd`. */
export function planWaves(
  { sources, stores }: Producers,
  { consumersOf }: Consumption,
  { readersOf }: Readers,
  config: Config,
): WavePlan {
  const errors: Result[] = [];
  const nodes = new WaveNodes();
  // A node is made by a function of its own: a closure over `resource` in nodeOf made V8 allocate
  // its context on every call, not only on the first for a resource. Its wave is read with no
  // closure either (one per node: 10k at 10k items).
  const newNode = (resource: Resource, phase = phaseOf(resource)): WaveNode | undefined => {
    const wave = guardedRead(errors, resource, waveOf);
    if (wave === undefined) return undefined;
    const node: WaveNode = { resource, wave, phase, before: noneAfter };
    nodes.add(node);
    return node;
  };
  // Asked once per edge (200k on fan-in 10k): a known node without a closure, a context or a try.
  const nodeOf = (resource: Resource): WaveNode | undefined =>
    nodes.get(resource) ?? newNode(resource);
  // A resource in `phase`: a known node by the phase it keeps, else one made only when in phase.
  const nodeIn = (phase: Phase | undefined, resource: Resource): WaveNode | undefined => {
    const known = nodes.get(resource);
    const own = known === undefined ? phaseOf(resource) : known.phase;
    if (!samePhase(phase, own)) return undefined;
    return known ?? newNode(resource, own);
  };

  const storeNodes = new Map<string, WaveNode>();
  for (const store of stores) {
    const node = nodeOf(store);
    const namespace = storeKindOf(store)?.clusterScoped ? undefined : store.namespace;
    if (node) storeNodes.set(objectKey(store.kind, namespace, store.name), node);
  }

  const sourceNodes = new Set<WaveNode>();
  const dependencyNodes = new Set<WaveNode>();
  const joined = new Set<WaveNode>();
  // Index loops: with inlining off (large inputs), for-of allocated an iterator result per
  // source, store reference and dependency.
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i] as SecretSource;
    if (!source.ordered) continue;
    const node = nodeOf(source.resource);
    if (!node) continue;
    // One resource can be several sources (one per namespace): its node gathers all consumers.
    // Operator readers (readers.ts) come after it too: a store or generator among them is then
    // placed above this source, not at its default below every source.
    const { phase } = node;
    orderAfter(node, inPhase(consumersOf.get(source), phase, nodes, nodeIn), joined);
    orderAfter(node, inPhase(readersOf.get(source), phase, nodes, nodeIn), joined);
    sourceNodes.add(node);
    for (let k = 0; k < source.stores.length; k++) {
      const ref = source.stores[k] as SecretSource['stores'][number];
      const clusterScoped = storeKinds.find((k) => k.kind === ref.kind)?.clusterScoped;
      const namespace = clusterScoped ? undefined : source.namespace;
      const store = storeNodes.get(objectKey(ref.kind, namespace, ref.name));
      if (store && samePhase(store.phase, phase)) orderAfter(store, [node.resource], joined);
    }
    // What the operator reads from the input must be there when it syncs: ordered like a store.
    const dependencies = source.dependencies ?? [];
    for (let k = 0; k < dependencies.length; k++) {
      const dependency = dependencies[k] as Resource;
      const before = nodeIn(phase, dependency);
      if (!before) continue;
      orderAfter(before, [node.resource], joined);
      dependencyNodes.add(before);
    }
  }
  joined.forEach(unique);
  const defaults = new Map<Resource, bigint>();
  sourceNodes.forEach((node) => {
    defaults.set(node.resource, config.externalSecretWave);
  });
  for (const node of [...storeNodes.values(), ...dependencyNodes]) {
    defaults.set(node.resource, config.storeWave);
  }
  const placement = newPlacement();
  placeWaves(defaults, nodes, placement);
  const others = planDeployerOrder(nodes.values(), config.ordering);
  // A cycle has no order in any deployer's terms (cli-utils: CyclicDependencyError).
  const cycles = config.ordering.length > 0 ? placement.cycles : [];
  if (config.ordering.includes('argocd')) {
    const { placed, conflicts, edits, results } = placement;
    return {
      nodes,
      placed,
      conflicts,
      edits: [...edits, ...others.edits],
      results: [...errors, ...cycles, ...results, ...others.results],
    };
  }
  // No wave is written: `plan` shows the waves Argo CD reads from the input as it is.
  for (const node of placement.placed) node.wave = waveOf(node.resource);
  const { edits, results } = others;
  return {
    nodes,
    placed: new Set(),
    conflicts: new Map(),
    edits,
    results: [...errors, ...cycles, ...results],
  };
}
