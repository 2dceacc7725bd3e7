// Which PodSpec fields name a Secret or ConfigMap, as data (like kustomize's nameReference table): a path
// (model/path.ts: `[]` steps into every list element), the field holding the Secret's name, and
// which keys the reference reads.
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import {
  compilePaths,
  fieldPath,
  getPath,
  type Keys,
  parseKeys,
  parsePath,
  type Trail,
  type WalkOptions,
  walkPaths,
} from '../../model/path.js';
import { describeType, ItemError } from '../../model/resource.js';

/** The data keys a pod template reads from a Secret, or all of them. */
export type KeySet = 'all' | ReadonlySet<string>;

/**
 * What pods reference by name: a Secret, a ConfigMap, or a Secrets Store CSI driver
 * SecretProviderClass, which a CSI volume mounts without a Secret in between.
 */
export type ProducedKind = 'Secret' | 'ConfigMap' | 'SecretProviderClass';

export interface SecretReference {
  /** What the reference names. */
  kind: ProducedKind;
  /** Path from the PodSpec to the reference object. */
  path: string;
  /** Field of the reference object holding the Secret name (a path without `[]`). */
  nameField: string;
  /** Only reference objects with these field values count (a CSI volume of one driver). */
  when?: Readonly<Record<string, string>>;
  /** Which keys it reads: one key field, a list of `items[].key`, or the whole Secret. */
  keys: { field: string } | { items: string } | 'all';
  /** Counts for the checksum only when the option of that name is on. */
  optIn?: 'imagePullSecrets';
}

const containerLists = ['containers', 'initContainers', 'ephemeralContainers'];
export const secretsStoreDriver = { driver: 'secrets-store.csi.k8s.io' };

export const secretReferences: readonly SecretReference[] = [
  ...containerLists.flatMap((list): SecretReference[] => [
    {
      kind: 'Secret',
      path: `${list}[].env[].valueFrom.secretKeyRef`,
      nameField: 'name',
      keys: { field: 'key' },
    },
    { kind: 'Secret', path: `${list}[].envFrom[].secretRef`, nameField: 'name', keys: 'all' },
    {
      kind: 'ConfigMap',
      path: `${list}[].env[].valueFrom.configMapKeyRef`,
      nameField: 'name',
      keys: { field: 'key' },
    },
    { kind: 'ConfigMap', path: `${list}[].envFrom[].configMapRef`, nameField: 'name', keys: 'all' },
  ]),
  { kind: 'Secret', path: 'volumes[].secret', nameField: 'secretName', keys: { items: 'items' } },
  {
    kind: 'Secret',
    path: 'volumes[].projected.sources[].secret',
    nameField: 'name',
    keys: { items: 'items' },
  },
  { kind: 'ConfigMap', path: 'volumes[].configMap', nameField: 'name', keys: { items: 'items' } },
  {
    kind: 'ConfigMap',
    path: 'volumes[].projected.sources[].configMap',
    nameField: 'name',
    keys: { items: 'items' },
  },
  // The Secrets Store CSI driver mounts what a SecretProviderClass names, with the provider
  // credentials of nodePublishSecretRef; other CSI drivers' credentials only mount storage.
  {
    kind: 'SecretProviderClass',
    path: 'volumes[].csi',
    nameField: 'volumeAttributes.secretProviderClass',
    when: secretsStoreDriver,
    keys: 'all',
  },
  {
    kind: 'Secret',
    path: 'volumes[].csi',
    nameField: 'nodePublishSecretRef.name',
    when: secretsStoreDriver,
    keys: 'all',
  },
  {
    kind: 'Secret',
    path: 'imagePullSecrets[]',
    nameField: 'name',
    keys: 'all',
    optIn: 'imagePullSecrets',
  },
];

export interface SecretUse {
  kind: ProducedKind;
  secretName: string;
  keys: KeySet;
  /** Counts for the checksum only when this option is on (it always counts for ordering). */
  optIn?: SecretReference['optIn'];
  /**
   * Where the reference names its Secret (`…secretKeyRef.name`), and where one that reads named
   * keys names them (`…secretKeyRef.key`, `…volumes[0].secret.items`): only when asked for
   * (`Places`), as a copy per reference is memory and work on every workload of a
   * large input, and few are reported.
   */
  named?: Trail;
  at?: Trail;
}

/** The table's paths, compiled once into one tree: a PodSpec is walked once for all rows. */
const compiled = compilePaths(secretReferences.map((ref) => parsePath(ref.path)));
/** Each row's name field, compiled once. */
const names = secretReferences.map((ref) => parseKeys(ref.nameField));

/** A malformed field on the way: the walk of a PodSpec stops with an item error. */
function notA(node: Json, at: Trail, wanted: 'mapping' | 'list'): never {
  const field = fieldPath(at);
  throw new ItemError(`${field} is ${describeType(node)}, not a ${wanted}`, field);
}

/** Every Secret a PodSpec at `at` references, per the table; malformed fields are item errors. */
export function secretUses(podSpec: JsonObject, at: Keys, keepNamed = false): SecretUse[] {
  walkUses(podSpec, at, keepNamed, false, -1);
  return foundUses.slice(0, usesFound);
}

/**
 * secretUses for a caller that reads each use before it walks the next PodSpec (findConsumers):
 * the uses are the first `count` of `usesRead`, records written over by the next call. No record
 * or list is made per reference or PodSpec: they were 9 MB of the fan-in bench's 10k items
 * (158k references), each dropped at once.
 */
export function readUses(podSpec: JsonObject, at: Keys): number {
  walkUses(podSpec, at, false, true, -1);
  return usesFound;
}

/** readUses' records, reused: never the ones secretUses hands out. */
const reused: SecretUse[] = [];
export const usesRead: readonly SecretUse[] = reused;

/** `target`: the use, in document order, whose place the walk copies (placeOne); -1 for none. */
function walkUses(
  podSpec: JsonObject,
  at: Keys,
  keepNamed: boolean,
  reuse: boolean,
  target: number,
): void {
  // In the table's order, then document order, as if each row were walked on its own: the walk
  // gives document order, and the uses are reordered by row only when a row came after a later
  // one (most PodSpecs read through one row, env secretKeyRef).
  usesFound = 0;
  foundInOrder = true;
  keepingNamed = keepNamed;
  reusing = reuse;
  placing = target;
  walkPaths(podSpec, compiled, visitUse, optionsAt(at));
  // A walk placing a use leaves the uses in document order: placeOne reads their rows only.
  if (foundInOrder || target >= 0) return;
  const ordered = byRow(foundUses.slice(0, usesFound), useRows);
  // The same records in their order: readUses' records stay each once in its list.
  for (let i = 0; i < ordered.length; i++) {
    foundUses[i] = ordered[i] as SecretUse;
    if (reuse) reused[i] = ordered[i] as SecretUse;
  }
}

/**
 * What secretUses' walk finds, for visitUse, a module function: a closure over it was made, with
 * its context, for every PodSpec (secretUses does not re-enter: see useRows). The uses are
 * gathered in one list, written over (as useRows), and copied out at their count: a list per
 * PodSpec grown use by use was made twice for the fan-in bench's twenty (16 entries, then 40).
 */
const foundUses: SecretUse[] = [];
let usesFound = 0;
let foundInOrder = true;
let keepingNamed = false;
/** Whether the walk writes over readUses' records instead of making new ones. */
let reusing = false;
/** The use whose place the walk copies, and the place (`placeFound`). */
let placing = -1;
let placedNamed: Trail | undefined;
let placedAt: Trail | undefined;

function visitUse(node: Json, trail: Trail, row: number): void {
  const count = usesFound;
  let use = reusing ? reused[count] : undefined;
  if (use === undefined) {
    use = blankUse();
    if (reusing) reused[count] = use;
  }
  const ref = secretReferences[row] as SecretReference;
  if (!useAt(node, trail, ref, names[row] as Keys, keepingNamed, use)) return;
  if (count === placing) placeFound(trail, ref, names[row] as Keys, use.keys);
  usesFound++;
  if (count > 0 && row < (useRows[count - 1] as number)) foundInOrder = false;
  useRows[count] = row;
  foundUses[count] = use;
}

/**
 * A record for useAt to fill, with the fields every use has from the start: one shape for all
 * (where a reference is, `named` and `at`, are added only when asked for).
 */
const blankUse = (): SecretUse => ({
  kind: 'Secret',
  secretName: '',
  keys: 'all',
  optIn: undefined,
});

/** The walk's options for PodSpecs at `at`, made once per shape's path, not per PodSpec. */
const optionsByAt = new WeakMap<Keys, WalkOptions>();
function optionsAt(at: Keys): WalkOptions {
  let options = optionsByAt.get(at);
  if (options === undefined) {
    options = { at, mismatch: notA };
    optionsByAt.set(at, options);
  }
  return options;
}

/**
 * The row of each use secretUses found, in its order: its first `usesFound` entries (secretUses
 * does not re-enter: one list, written over, never emptied, since emptying it let V8 drop its
 * storage and grow it again for every PodSpec).
 */
const useRows: number[] = [];

/** `uses` ordered by their `rows` (one per use), stable: a counting sort over the table's few rows. */
function byRow(uses: readonly SecretUse[], rows: readonly number[]): SecretUse[] {
  // How many uses each row has, then where its next one goes in the result.
  const next = new Array<number>(secretReferences.length).fill(0);
  for (let i = 0; i < uses.length; i++) {
    const row = rows[i] as number;
    next[row] = (next[row] as number) + 1;
  }
  let start = 0;
  for (let r = 0; r < next.length; r++) {
    const count = next[r] as number;
    next[r] = start;
    start += count;
  }
  const ordered = new Array<SecretUse>(uses.length);
  for (let i = 0; i < uses.length; i++) {
    const row = rows[i] as number;
    const at = next[row] as number;
    ordered[at] = uses[i] as SecretUse;
    next[row] = at + 1;
  }
  return ordered;
}

/**
 * Where references a lint reports are (`named`, `keys`), found by walking their PodSpec again,
 * copying only the place asked for: a walk copying every reference's place, again for each
 * result, allocated 4.2 MB of the mixed bench's 10k items (cross-namespace: 938 warnings, most
 * the only one in a PodSpec of many references). A PodSpec asked for a second time has every
 * place copied in one walk and kept, so a workload with many results costs at most three walks
 * per PodSpec, not one per result. A lint makes one for its check and asks for a workload's
 * results together: only the present workload's PodSpecs are kept.
 */
export class Places {
  private value: Json | undefined;
  /** The present workload's PodSpecs asked for: once (null), or again (every use, placed). */
  private readonly asked = new Map<Json, readonly SecretUse[] | null>();

  /** Where the `use`-th reference of the PodSpec at `at` (in `secretUses`' order) names its Secret. */
  named(value: Json, at: Keys, use: number): Trail {
    return this.place(value, at, use, 'named');
  }

  /** Where the `use`-th reference of the PodSpec at `at` names the keys it reads. */
  keys(value: Json, at: Keys, use: number): Trail {
    return this.place(value, at, use, 'at');
  }

  private place(value: Json, at: Keys, use: number, field: 'named' | 'at'): Trail {
    if (value !== this.value) {
      this.value = value;
      this.asked.clear();
    }
    const podSpec = getPath(value, at);
    if (!isObject(podSpec)) return [...at];
    let uses = this.asked.get(podSpec);
    if (uses === undefined) {
      this.asked.set(podSpec, null);
      placeOne(podSpec, at, use);
      return (field === 'named' ? placedNamed : placedAt) ?? [...at];
    }
    if (uses === null) {
      uses = secretUses(podSpec, at, true);
      this.asked.set(podSpec, uses);
    }
    return uses[use]?.[field] ?? [...at];
  }
}

/**
 * The place of the `use`-th reference (`secretUses`' order) into placedNamed and placedAt, with
 * readUses' records: one walk when the PodSpec's references are found in that order (most), a
 * second once the first has told which one it is.
 */
function placeOne(podSpec: JsonObject, at: Keys, use: number): void {
  placedNamed = undefined;
  placedAt = undefined;
  walkUses(podSpec, at, false, true, use);
  if (foundInOrder) return;
  const found = foundAs(use);
  placedNamed = undefined;
  placedAt = undefined;
  walkUses(podSpec, at, false, true, found);
}

/**
 * Which use of the last walk, in document order (useRows), is the `use`-th in the table's order:
 * the uses of earlier rows come first, then the row's own in document order.
 */
function foundAs(use: number): number {
  let before = 0;
  for (let row = 0; row < secretReferences.length; row++) {
    let inRow = 0;
    for (let i = 0; i < usesFound; i++) if (useRows[i] === row) inRow++;
    if (use < before + inRow) {
      let left = use - before;
      for (let i = 0; i < usesFound; i++) if (useRows[i] === row && left-- === 0) return i;
    }
    before += inRow;
  }
  return -1;
}

/** The reference object `node` found at `trail`, written into `use`: false if it names no Secret. */
function useAt(
  node: Json,
  trail: Trail,
  ref: SecretReference,
  nameKeys: Keys,
  keepNamed: boolean,
  use: SecretUse,
): boolean {
  if (node === null) return false;
  if (!isObject(node)) notA(node, trail, 'mapping');
  if (ref.when && Object.entries(ref.when).some(([key, value]) => node[key] !== value))
    return false;
  const name = getPath(node, nameKeys);
  if (name === undefined || name === null) return false;
  if (typeof name !== 'string') {
    const field = fieldPath([...trail, ...nameKeys]);
    throw new ItemError(`${field} is not a string`, field);
  }
  use.kind = ref.kind;
  use.secretName = name;
  use.keys = keysOf(node, ref, trail);
  use.optIn = ref.optIn;
  if (keepNamed) {
    placeFound(trail, ref, nameKeys, use.keys);
    use.named = placedNamed;
    if (placedAt) use.at = placedAt;
  }
  return true;
}

/**
 * Where the reference found at `trail` names its Secret and its keys, into placedNamed and
 * placedAt: copies, as the walk reuses its trail. Only named keys can be missing: the
 * missing-key lint reports them at their field.
 */
function placeFound(trail: Trail, ref: SecretReference, nameKeys: Keys, keys: KeySet): void {
  // concat, not spread: with inlining off (large inputs), a spread made an iterator result per
  // element, ≈1 KB a place on the mixed bench.
  placedNamed = trail.concat(nameKeys);
  placedAt =
    keys !== 'all' && ref.keys !== 'all'
      ? trail.concat('field' in ref.keys ? ref.keys.field : ref.keys.items)
      : undefined;
}

function keysOf(node: JsonObject, ref: SecretReference, trail: Trail): KeySet {
  if (ref.keys === 'all') return 'all';
  if ('field' in ref.keys) {
    const key = node[ref.keys.field];
    return typeof key === 'string' ? oneKey(key) : 'all';
  }
  const items = node[ref.keys.items];
  if (items === undefined || items === null) return 'all';
  if (!Array.isArray(items)) {
    const field = fieldPath([...trail, ref.keys.items]);
    throw new ItemError(`${field} is not a list`, field);
  }
  const keys = items.map((item) => (isObject(item) ? item.key : undefined));
  if (keys.length === 0 || !keys.every((k) => typeof k === 'string')) return 'all';
  // One item, as most are (a volume projecting one key): the set shared as a secretKeyRef's.
  return keys.length === 1 ? oneKey(keys[0] as string) : new Set(keys as string[]);
}

/**
 * The set of one key, shared by every reference to that key (KeySet is read-only): a Set per
 * `secretKeyRef` was ≈150 bytes kept per reference until the run ends, 14 MB of fan-in's 10k
 * items (20 references a pod). Dropped when it holds `sharedKeySets` keys, so a run with many
 * distinct keys costs what it did, and a long-lived process keeps no more than that.
 */
export function oneKey(key: string): ReadonlySet<string> {
  let set = keySets.get(key);
  if (set === undefined) {
    if (keySets.size >= sharedKeySets) keySets.clear();
    set = new Set([key]);
    keySets.set(key, set);
  }
  return set;
}
export const sharedKeySets = 4096;
const keySets = new Map<string, ReadonlySet<string>>();
