// Which PodSpec fields name a Secret or ConfigMap, as data (like kustomize's nameReference table): a path
// (model/path.ts: `[]` steps into every list element), the field holding the Secret's name, and
// which keys the reference reads.
import {
  addFact,
  type FactKeys,
  type FactsWriter,
  keysIn,
  nameIn,
  type PodSpecRead,
  reserveFacts,
  TemplateFacts,
  templateCount,
  templateOf,
} from '../../model/facts.js';
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import {
  compilePaths,
  each,
  fieldPath,
  getPath,
  type Keys,
  type Path,
  parseKeys,
  parsePath,
  type Trail,
  type WalkOptions,
  walkPaths,
} from '../../model/path.js';
import { describeType, ItemError, type Resource } from '../../model/resource.js';

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

/** Each row's path, parsed once. */
const paths: readonly Path[] = secretReferences.map((ref) => parsePath(ref.path));
/** The table's paths, compiled once into one tree: a PodSpec is walked once for all rows. */
const compiled = compilePaths(paths);
/** Each row's name field, compiled once. */
const names = secretReferences.map((ref) => parseKeys(ref.nameField));
/** Each row's field naming the keys it reads, if it names them. */
const keyFields = secretReferences.map((ref) =>
  ref.keys === 'all' ? undefined : 'field' in ref.keys ? ref.keys.field : ref.keys.items,
);

/** A malformed field on the way: the walk of a PodSpec stops with an item error. */
function notA(node: Json, at: Trail, wanted: 'mapping' | 'list'): never {
  const field = fieldPath(at);
  throw new ItemError(`${field} is ${describeType(node)}, not a ${wanted}`, field);
}

/**
 * Every Secret a PodSpec at `at` references, per the table; malformed fields are item errors (a
 * PodSpec read as facts has none: one with any keeps its tree).
 */
export function secretUses(podSpec: PodSpecRead, at: Keys, keepNamed = false): SecretUse[] {
  if (podSpec instanceof TemplateFacts) usesOfFacts(podSpec, keepNamed, false);
  else walkUses(podSpec, at, keepNamed, false, -1);
  return foundUses.slice(0, usesFound);
}

/**
 * secretUses for a caller that reads each use before it walks the next PodSpec (findConsumers):
 * the uses are the first `count` of `usesRead`, records written over by the next call. No record
 * or list is made per reference or PodSpec: they were 9 MB of the fan-in bench's 10k items
 * (158k references), each dropped at once.
 */
export function readUses(podSpec: PodSpecRead, at: Keys): number {
  if (podSpec instanceof TemplateFacts) usesOfFacts(podSpec, false, true);
  else walkUses(podSpec, at, false, true, -1);
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

/** walkUses for a PodSpec read as facts: its rows are the uses, in their order. */
function usesOfFacts(facts: TemplateFacts, keepNamed: boolean, reuse: boolean): void {
  const { columns, start, end } = facts;
  usesFound = 0;
  for (let i = start; i < end; i++) {
    let use = reuse ? reused[usesFound] : undefined;
    if (use === undefined) {
      use = blankUse();
      if (reuse) reused[usesFound] = use;
    }
    const ref = secretReferences[columns.row[i] as number] as SecretReference;
    use.kind = ref.kind;
    use.secretName = nameIn(columns, i);
    use.keys = keySet(keysIn(columns, i));
    use.optIn = ref.optIn;
    if (keepNamed) {
      use.named = factPlace(facts, i, 'named');
      const keysAt = factPlace(facts, i, 'at');
      if (keysAt) use.at = keysAt;
    }
    foundUses[usesFound++] = use;
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
 * Where references a lint reports are (`named`, `keys`): from the facts of a PodSpec read as
 * facts, else found by walking their PodSpec again, copying only the place asked for: a walk
 * copying every reference's place, again for each result, allocated 4.2 MB of the mixed bench's
 * 10k items (cross-namespace: 938 warnings, most the only one in a PodSpec of many references).
 * A PodSpec asked for a second time has every place copied in one walk and kept, so a workload
 * with many results costs at most three walks per PodSpec, not one per result. A lint makes one
 * for its check and asks for a workload's results together: only the present workload's
 * PodSpecs are kept.
 */
export class Places {
  private value: Json | undefined;
  /** The present workload's PodSpecs asked for: once (null), or again (every use, placed). */
  private readonly asked = new Map<Json, readonly SecretUse[] | null>();

  /** Where the `use`-th reference of the PodSpec at `at` (in `secretUses`' order) names its Secret. */
  named(resource: Resource, at: Keys, use: number): Trail {
    return this.place(resource, at, use, 'named');
  }

  /** Where the `use`-th reference of the PodSpec at `at` names the keys it reads. */
  keys(resource: Resource, at: Keys, use: number): Trail {
    return this.place(resource, at, use, 'at');
  }

  private place(resource: Resource, at: Keys, use: number, field: 'named' | 'at'): Trail {
    const facts = factsAt(resource, at);
    if (facts !== undefined) {
      const row = facts.start + use;
      return (row < facts.end ? factPlace(facts, row, field) : undefined) ?? [...at];
    }
    const { value } = resource;
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
  const name = nameAt(node, trail, ref, nameKeys);
  if (name === undefined) return false;
  use.kind = ref.kind;
  use.secretName = name;
  use.keys = keySet(keysAt(node as JsonObject, ref, trail));
  use.optIn = ref.optIn;
  if (keepNamed) {
    placeFound(trail, ref, nameKeys, use.keys);
    use.named = placedNamed;
    if (placedAt) use.at = placedAt;
  }
  return true;
}

/** The name the reference object `node` found at `trail` names, if it names one. */
function nameAt(
  node: Json,
  trail: Trail,
  ref: SecretReference,
  nameKeys: Keys,
): string | undefined {
  if (node === null) return undefined;
  if (!isObject(node)) notA(node, trail, 'mapping');
  if (ref.when && Object.entries(ref.when).some(([key, value]) => node[key] !== value))
    return undefined;
  const name = getPath(node, nameKeys);
  if (name === undefined || name === null) return undefined;
  if (typeof name !== 'string') {
    const field = fieldPath([...trail, ...nameKeys]);
    throw new ItemError(`${field} is not a string`, field);
  }
  return name;
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

/** The keys the reference object `node` found at `trail` reads, as facts keep them. */
function keysAt(node: JsonObject, ref: SecretReference, trail: Trail): FactKeys {
  if (ref.keys === 'all') return undefined;
  if ('field' in ref.keys) {
    const key = node[ref.keys.field];
    return typeof key === 'string' ? key : undefined;
  }
  const items = node[ref.keys.items];
  if (items === undefined || items === null) return undefined;
  if (!Array.isArray(items)) {
    const field = fieldPath([...trail, ref.keys.items]);
    throw new ItemError(`${field} is not a list`, field);
  }
  const keys = items.map((item) => (isObject(item) ? item.key : undefined));
  if (keys.length === 0 || !keys.every((k) => typeof k === 'string')) return undefined;
  return keys.length === 1 ? (keys[0] as string) : (keys as string[]);
}

/**
 * The keys read as a use says them: one item, as most are (a volume projecting one key), the set
 * shared as a secretKeyRef's.
 */
function keySet(keys: FactKeys): KeySet {
  if (keys === undefined) return 'all';
  return typeof keys === 'string' ? oneKey(keys) : new Set(keys);
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

/**
 * Reads the references of a PodSpec at `at` as facts: appended to the writer's columns in
 * secretUses' order, by the walk secretUses makes (its errors, thrown before any row is written),
 * together in one chunk (`writer.columns` after the call); returns where the first went. The read
 * plan's extractor (rules/read-plan.ts) calls it as each item is read.
 */
export function writeFacts(podSpec: JsonObject, at: Keys, writer: FactsWriter): number {
  factsFound = 0;
  factsInOrder = true;
  walkPaths(podSpec, compiled, visitFact, optionsAt(at));
  const start = reserveFacts(writer, factsFound);
  if (factsInOrder) {
    for (let i = 0; i < factsFound; i++) addFound(writer, i);
    return start;
  }
  // By row, then document order: a pass per row of the table, over a PodSpec's few references.
  for (let row = 0; row < secretReferences.length; row++) {
    for (let i = 0; i < factsFound; i++) if (factRows[i] === row) addFound(writer, i);
  }
  return start;
}

/** What writeFacts' walk finds, in document order: module scratch, written over (useRows). */
const factRows: number[] = [];
const factFirsts: number[] = [];
const factSeconds: number[] = [];
const factNames: string[] = [];
const factKeys: FactKeys[] = [];
let factsFound = 0;
let factsInOrder = true;

function visitFact(node: Json, trail: Trail, row: number): void {
  const ref = secretReferences[row] as SecretReference;
  const name = nameAt(node, trail, ref, names[row] as Keys);
  if (name === undefined) return;
  const keys = keysAt(node as JsonObject, ref, trail);
  // The trail's list positions, in order: its `[]` steps (the shape's path has none).
  let first = -1;
  let second = -1;
  for (let k = 0; k < trail.length; k++) {
    const step = trail[k];
    if (typeof step !== 'number') continue;
    if (first < 0) first = step;
    else second = step;
  }
  const i = factsFound++;
  if (i > 0 && row < (factRows[i - 1] as number)) factsInOrder = false;
  factRows[i] = row;
  factFirsts[i] = first;
  factSeconds[i] = second;
  factNames[i] = name;
  factKeys[i] = keys;
}

const addFound = (writer: FactsWriter, i: number) =>
  addFact(
    writer,
    factRows[i] as number,
    factFirsts[i] as number,
    factSeconds[i] as number,
    factNames[i] as string,
    factKeys[i],
  );

/** The facts of the resource's PodSpec at `at`, if it was read as facts. */
function factsAt(resource: Resource, at: Keys): TemplateFacts | undefined {
  const { facts } = resource;
  if (facts === undefined) return undefined;
  for (let t = 0; t < templateCount(facts); t++) {
    const template = templateOf(facts, t);
    if (template.isAt(at)) return template;
  }
  return undefined;
}

/**
 * Where the reference in row `i` of `facts` names its Secret (`named`), or the keys it reads
 * (`at`; undefined where it reads all): its row's path with the row's positions, as the walk's
 * trail and placeFound make it.
 */
function factPlace(facts: TemplateFacts, i: number, field: 'named' | 'at'): Trail | undefined {
  const { columns } = facts;
  const row = columns.row[i] as number;
  const keyField = keyFields[row];
  if (field === 'at' && (keyField === undefined || (columns.keys[i] as number) < 0)) {
    return undefined;
  }
  const trail: (string | number)[] = [];
  for (let k = 0; k < facts.at.length; k++) trail.push(facts.at[k] as string);
  const path = paths[row] as Path;
  let lists = 0;
  for (let k = 0; k < path.length; k++) {
    const step = path[k];
    if (step !== each) trail.push(step as string);
    else trail.push((lists++ === 0 ? columns.first[i] : columns.second[i]) as number);
  }
  if (field === 'at') trail.push(keyField as string);
  else {
    const nameKeys = names[row] as Keys;
    for (let k = 0; k < nameKeys.length; k++) trail.push(nameKeys[k] as string);
  }
  return trail;
}

/**
 * The value at `trail` of a resource: under a PodSpec read as facts, the name of the reference
 * whose name field it is (the one field under a PodSpec an edit sets: a rename at `named`), found
 * by its row and positions, a binary search in the rows they are ordered by; else from its value.
 */
export function valueAt(resource: Resource, trail: Trail): Json | undefined {
  const { facts } = resource;
  for (let t = 0; facts !== undefined && t < templateCount(facts); t++) {
    const template = templateOf(facts, t);
    if (!startsWith(trail, template.at)) continue;
    for (let row = 0; row < secretReferences.length; row++) {
      if (!positionsIn(trail, template.at.length, row)) continue;
      const i = rowAt(template, row, positions[0] as number, positions[1] as number);
      return i < 0 ? undefined : nameIn(template.columns, i);
    }
    return undefined;
  }
  return getPath(resource.value, trail);
}

const startsWith = (trail: Trail, at: Keys) => {
  if (trail.length < at.length) return false;
  for (let k = 0; k < at.length; k++) if (trail[k] !== at[k]) return false;
  return true;
};

/** positionsIn's answer: the positions of the row's `[]` steps in the trail, -1 past them. */
const positions = new Int32Array(2);

/** Whether `trail` from `from` on is the name field of a reference of `row`, and where. */
function positionsIn(trail: Trail, from: number, row: number): boolean {
  const path = paths[row] as Path;
  const nameKeys = names[row] as Keys;
  if (trail.length !== from + path.length + nameKeys.length) return false;
  positions[0] = -1;
  positions[1] = -1;
  let lists = 0;
  let k = from;
  for (let p = 0; p < path.length; p++, k++) {
    const step = path[p];
    const at = trail[k];
    if (step !== each) {
      if (at !== step) return false;
    } else if (typeof at !== 'number') return false;
    else positions[lists++] = at;
  }
  for (let n = 0; n < nameKeys.length; n++, k++) if (trail[k] !== nameKeys[n]) return false;
  return true;
}

/**
 * The row of `template` with this table row and positions, or -1: the rows are ordered by
 * table row, then document order, which is the order of their positions.
 */
function rowAt(template: TemplateFacts, row: number, first: number, second: number): number {
  const { columns } = template;
  let low = template.start;
  let high = template.end;
  const before = (i: number) => {
    const r = columns.row[i] as number;
    if (r !== row) return r < row;
    const f = columns.first[i] as number;
    return f !== first ? f < first : (columns.second[i] as number) < second;
  };
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  const found =
    low < template.end &&
    columns.row[low] === row &&
    columns.first[low] === first &&
    columns.second[low] === second;
  return found ? low : -1;
}
