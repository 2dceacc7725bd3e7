// Argo CD sync waves: stores before ExternalSecrets before their consumers. Argo CD sorts unknown
// kinds (ExternalSecret) after Deployments within a wave, so the order must come from waves.
import { parseInt64 } from '../../model/config.js';
import { annotationEdit, annotationField, type MappingEdit } from '../../model/edit.js';
import { ItemError, type Resource } from '../../model/resource.js';
import { noWaveOrder, syncWave, waveConflict } from '../../model/result-rules.js';
import { deferredInfo, describe, type Result, resourceResult } from '../../model/results.js';
import type { Phase } from './phases.js';

export const syncWaveKey = 'argocd.argoproj.io/sync-wave';
/** Argo CD parses waves as 64-bit integers. */
const minWave = -(2n ** 63n);
const maxWave = 2n ** 63n - 1n;
const hookWeightKey = 'helm.sh/hook-weight';

export interface Wave {
  value: bigint;
  /** Written in the input: never changed by this function, only checked. */
  explicit: boolean;
}

/** Argo CD's rule: the sync-wave annotation, else the Helm hook weight, else 0. */
export function waveOf(resource: Resource): Wave {
  const raw = resource.annotations[syncWaveKey];
  if (raw !== undefined) {
    const value = parseInt64(raw.trim());
    if (value === undefined) {
      throw new ItemError(
        `${syncWaveKey} is not a 64-bit integer`,
        annotationField(['metadata'], syncWaveKey),
      );
    }
    return { value, explicit: true };
  }
  const weight = parseInt64(resource.annotations[hookWeightKey]?.trim());
  return weight === undefined ? noWave : { value: weight, explicit: false };
}

/** The wave of most resources (neither annotation): one object, never changed (placing replaces it). */
const noWave: Wave = Object.freeze({ value: 0n, explicit: false });

export interface WaveNode {
  resource: Resource;
  wave: Wave;
  /**
   * The sync phase it runs in (phases.ts phaseOf), read once when the node is made: the plan asks
   * for a consumer's once per source it reads (160k times on the fan-in bench at 10k items).
   */
  readonly phase: Phase | undefined;
  /**
   * Resources that must come after this one, each once, in the order they were found; each has a
   * node (the plan's `nodes`). Most nodes (consumers) have none: they share one empty list. Only
   * a node with a default wave (a source, store or dependency) has any, and a source whose
   * consumers are all in its phase has their list itself (consumers.ts consumersOf), not a copy:
   * a list of nodes per source was 1.3 MB of fan-in's plan at 10k items (a list, not a Set: a
   * source's 80 consumers took ≈2.5 KB as a Set, kept to the end, and each is only walked).
   */
  before: readonly Resource[];
}

/** A plan's nodes by their resource: what placing and the reports look up. */
export interface NodeTable {
  readonly size: number;
  get(resource: Resource): WaveNode | undefined;
  /** In the order they were made. */
  values(): Iterable<WaveNode>;
}

/** What placing the waves writes into: the edits, results and nodes placed or in conflict. */
export interface Placement {
  edits: MappingEdit[];
  results: Result[];
  /** Nodes whose wave this run writes (`plan` shows them as planned). */
  placed: Set<WaveNode>;
  /** Explicit waves that contradict the order, with the nodes they are not below (`plan`). */
  conflicts: Map<WaveNode, WaveNode[]>;
  /** Dependency cycles: no order exists, in waves or in any other deployer's annotations. */
  cycles: Result[];
}

/** A placement with nothing in it yet. */
export const newPlacement = (): Placement => ({
  edits: [],
  results: [],
  placed: new Set(),
  conflicts: new Map(),
  cycles: [],
});

/**
 * Places every node that has a default wave (ExternalSecrets, stores), after all the nodes that
 * must come after it (wantedWave); an explicit wave is kept and checked. Consumers are never
 * moved. Mutates `node.wave`. `defaults`: by resource; only their nodes have successors.
 */
export function placeWaves(
  defaults: ReadonlyMap<Resource, bigint>,
  nodes: NodeTable,
  placement: Placement,
): void {
  const order = dependencyOrder(defaults, nodes, placement);
  // The highest explicit wave of what must come before each node: those never move.
  const fixedBefore = highestBefore(order, (node) => node.wave.explicit, defaults);
  const conflicting: { node: WaveNode; late: WaveNode[]; defaultWave: bigint; wanted: bigint }[] =
    [];
  // An index loop: with inlining off (large inputs), for-of allocated an iterator result per node.
  for (let i = 0; i < order.length; i++) {
    const node = order[i] as WaveNode;
    const defaultWave = defaults.get(node.resource);
    if (defaultWave === undefined) continue;
    const wanted = wantedWave(node, nodes, defaultWave, fixedBefore.get(node.resource));
    if (wanted === undefined) {
      // Nothing is below the lowest 64-bit wave: a consumer there cannot be ordered after this.
      const lowest = nodesOf(node.before, nodes).filter((n) => n.wave.value === minWave);
      const message = `${describe(node.resource)} would need a sync-wave below ${minWave}, the lowest Argo CD parses: raise the waves of ${listed(lowest.map((n) => describe(n.resource)))}`;
      placement.results.push(resourceResult(noWaveOrder, node.resource, message, { path: field }));
      continue;
    }
    if (node.wave.explicit) {
      const late = nodesOf(node.before, nodes).filter((n) => n.wave.value <= node.wave.value);
      if (late.length > 0) {
        conflicting.push({ node, late, defaultWave, wanted });
        continue;
      }
    } else {
      node.wave = { value: wanted, explicit: false };
      placement.placed.add(node);
      placement.edits.push(
        annotationEdit(node.resource.index, ['metadata'], syncWaveKey, String(wanted)),
      );
    }
    // The same message whether the wave was just written or already there: results describe the
    // plan, so a second run reports exactly what the first did.
    placement.results.push(
      deferredInfo(syncWave, node.resource, new WaveInfo(node.wave.value, node.before)),
    );
  }
  if (conflicting.length === 0) return;
  // A fix is proposed once all of this run's waves are known: what must come before a
  // conflicting node may just have been placed, and the next run reads those waves as given.
  // Only then: it visits every edge (160k on fan-in at 10k items).
  const before = highestBefore(order, () => true, defaults);
  for (const { node, late, defaultWave, wanted: first } of conflicting) {
    // Never lower than the first answer: the floor only rises.
    const wanted = wantedWave(node, nodes, defaultWave, before.get(node.resource)) ?? first;
    placement.conflicts.set(node, late);
    const message = conflictMessage(node, late, wanted);
    placement.results.push(
      resourceResult(waveConflict, node.resource, message, {
        path: field,
        currentValue: String(node.wave.value),
        proposedValue: String(wanted),
      }),
    );
  }
}

const field = annotationField(['metadata'], syncWaveKey);

/**
 * A sync-wave info's details, worked out if it is reported (a run reports 200 of ≈2k on the fan-in
 * bench): a record, not a closure and its context per placed node (≈80 bytes more each, kept to
 * the end of the run).
 */
class WaveInfo {
  constructor(
    private readonly wave: bigint,
    private readonly before: readonly Resource[],
  ) {}

  details(): { message: string; field: { path: string; proposedValue: string } } {
    const { wave, before } = this;
    return {
      message: `sync-wave ${wave}${beforeList(before)}`,
      field: { path: field, proposedValue: String(wave) },
    };
  }
}

/** The nodes of `resources` (successors: each has one). */
const nodesOf = (resources: readonly Resource[], nodes: NodeTable) =>
  resources.map((r) => nodes.get(r) as WaveNode);

/**
 * The highest wave, among the nodes `counted`, of what must come before each node with a default
 * wave: only those are placed. A consumer after an explicit wave was kept too (1.5k–2k explicit
 * waves on each bench shape at 10k items, ≈0.5 MB on fan-in), and never asked for.
 */
function highestBefore(
  order: readonly WaveNode[],
  counted: (node: WaveNode) => boolean,
  defaults: ReadonlyMap<Resource, bigint>,
): Map<Resource, bigint> {
  const highest = new Map<Resource, bigint>();
  for (let i = 0; i < order.length; i++) {
    const node = order[i] as WaveNode;
    // Most nodes (consumers) have nothing after them.
    if (node.before.length === 0 || !counted(node)) continue;
    // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
    // successor (160k on fan-in 10k, 4.7 MB).
    const { value } = node.wave;
    const { before } = node;
    for (let k = 0; k < before.length; k++) {
      const n = before[k] as Resource;
      if (!defaults.has(n)) continue;
      const wave = highest.get(n);
      if (wave === undefined || value > wave) highest.set(n, value);
    }
  }
  return highest;
}

/**
 * Nodes reachable from the nodes with a default wave, each after every node it must come before
 * (reverse topological order), without the nodes that have neither a default wave nor anything
 * after them (every consumer): placing reads nothing of those, and they were most of the list.
 * A dependency cycle is an error result: no sync-wave order exists.
 */
function dependencyOrder(
  defaults: ReadonlyMap<Resource, bigint>,
  nodes: NodeTable,
  placement: Placement,
): WaveNode[] {
  const order: WaveNode[] = [];
  /**
   * Where a node being visited is on the path (a cycle is the path from there on), then `done`.
   * One map, written over: a second one of path places, each deleted as its node was done,
   * reallocated its table as it grew and shrank (0.35 MB on fan-in at 10k items).
   */
  const state = new Map<WaveNode, number | 'done'>();
  // Depth first with a stack of its own: a chain of stores, each reading the Secret of the
  // ExternalSecret before it, is as deep as it is long, and recursion overflowed the call stack.
  // Each frame steps through its node's list of successors by index: an iterator gave a result
  // object per step (160k on fan-in 10k).
  const path: { node: WaveNode; after: readonly Resource[]; at: number }[] = [];
  const enter = (node: WaveNode) => {
    state.set(node, path.length);
    path.push({ node, after: node.before, at: 0 });
  };
  for (const resource of defaults.keys()) {
    const root = nodes.get(resource) as WaveNode;
    if (state.has(root)) continue;
    enter(root);
    // The top by index: `at(-1)` was a call per edge.
    for (let top = path[path.length - 1]; top; top = path[path.length - 1]) {
      const { node } = top;
      if (top.at === top.after.length) {
        state.set(node, 'done');
        order.push(node);
        path.pop();
        continue;
      }
      // Only a node with a default wave has anything after it: any other (a consumer: most
      // edges) is done as soon as it is reached, not even kept (nor marked: asked again, it is
      // this again), and its node is not looked up.
      const next = top.after[top.at++] as Resource;
      if (!defaults.has(next)) continue;
      const after = nodes.get(next) as WaveNode;
      if (after.before.length === 0) {
        // A source or store with nothing after it: done when reached, no frame, never being
        // visited (its frame ends at once).
        if (!state.has(after)) {
          state.set(after, 'done');
          order.push(after);
        }
        continue;
      }
      const seen = state.get(after);
      if (typeof seen === 'number') {
        const start = seen;
        const message = cycleMessage(path.slice(start, start + shownInCycle), path.length - start);
        placement.cycles.push(resourceResult(noWaveOrder, after.resource, message));
      } else if (seen === undefined) {
        enter(after);
      }
    }
  }
  return order;
}

/** Members of a cycle a message names; the rest are counted. */
const shownInCycle = 5;

/**
 * A cycle of `length` nodes, from its first `members`: two depend on each other directly (a store
 * reading the Secret of an ExternalSecret that uses it); a longer one only around the circle, so
 * it is named in its order (any two of it named alone would be a claim that does not hold).
 */
function cycleMessage(members: readonly { node: WaveNode }[], length: number): string {
  const names = members.slice(0, shownInCycle).map(({ node }) => describe(node.resource));
  const tail = 'no order exists; break the cycle';
  if (length === 2) {
    return `${names.join(' and ')} depend on each other (a store or generator that reads the Secret of an ExternalSecret that uses it): ${tail}`;
  }
  const list =
    length <= shownInCycle
      ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
      : `${names.join(', ')} and ${length - shownInCycle} more`;
  return `${list} depend on each other, each before the next and the last before the first (stores or generators that read the Secret of an ExternalSecret using them, in a circle): ${tail}`;
}

/**
 * min(default, lowest wave of what comes after it − 1), raised just above `floor` (the highest
 * wave of what must come before it) when there is room below what comes after: a store that reads
 * an ExternalSecret's Secret comes after it, even above its default. Undefined when that is below
 * the lowest 64-bit wave.
 */
function wantedWave(
  node: WaveNode,
  nodes: NodeTable,
  defaultWave: bigint,
  floor: bigint | undefined,
): bigint | undefined {
  let lowest: bigint | undefined;
  // An index loop, as in highestBefore.
  const { before } = node;
  for (let k = 0; k < before.length; k++) {
    const { value } = (nodes.get(before[k] as Resource) as WaveNode).wave;
    if (lowest === undefined || value < lowest) lowest = value;
  }
  let wanted = lowest === undefined || defaultWave < lowest ? defaultWave : lowest - 1n;
  if (
    floor !== undefined &&
    wanted <= floor &&
    floor < (lowest === undefined ? maxWave : lowest - 1n)
  ) {
    wanted = floor + 1n;
  }
  return wanted < minWave ? undefined : wanted;
}

function conflictMessage(node: WaveNode, late: readonly WaveNode[], wanted: bigint): string {
  const who = late.map((n) => `${describe(n.resource)} (wave ${n.wave.value})`);
  return (
    `${describe(node.resource)} has sync-wave ${node.wave.value}, not below ${listed(who)}, so ` +
    `Argo CD may apply it too late: set ${syncWaveKey} to "${wanted}" or lower, ` +
    'or remove it to let secret-rollout choose'
  );
}

function beforeList(before: readonly Resource[]): string {
  return before.length === 0 ? '' : `, before ${listed(before.map((r) => describe(r)))}`;
}

function listed(names: readonly string[]): string {
  const shown = [...new Set(names)];
  return shown.length <= 3
    ? shown.join(', ')
    : `${shown.slice(0, 3).join(', ')} and ${shown.length - 3} more`;
}
