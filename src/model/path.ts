// Paths into JSON values, in one syntax for tables and results, as kustomize's field specs: field
// names joined by dots, where `[]` after a name steps into every element of that list
// (`containers[].env[].valueFrom.secretKeyRef`; `''` is the value itself). Where a walk is, and
// the `field.path` of a result, is the same syntax with list positions instead of `[]`
// (`spec.template.spec.containers[0].env[1]`), and a key of a mapping of strings in brackets
// after it (`metadata.annotations[argocd.argoproj.io/sync-wave]`).
import type { Json, JsonObject } from './json.js';

/** The `[]` of a path: every element of the list there. */
export const each: unique symbol = Symbol('[]');
/** A compiled path: field names, and `each` where the text says `[]`. */
export type Path = readonly (string | typeof each)[];
/** A path without `[]`, which leads to one value at most: its field names. */
export type Keys = readonly string[];
/** Where a walk is: field names and list positions. */
export type Trail = readonly (string | number)[];

export function parsePath(text: string): Path {
  if (text === '') return [];
  return text
    .split('.')
    .flatMap((step) => (step.endsWith('[]') ? [step.slice(0, -2), each] : [step]));
}

/** A path that must not step into lists (where the value is, where an edit goes). */
export function parseKeys(text: string): Keys {
  const path = parsePath(text);
  if (path.includes(each)) throw new Error(`${text}: a path to one value has no []`);
  return path as Keys;
}

export interface WalkOptions {
  /** Where `value` itself is: every trail starts with it (for messages). */
  at?: Trail;
  /** The value on the way is not the mapping or list the path steps into; default: skip it. */
  mismatch?: (node: Json, at: Trail, wanted: 'mapping' | 'list') => void;
}

/**
 * Paths compiled into one tree, so that values are walked once for all of them (a PodSpec for
 * every row of the reference table): steps shared by several paths are taken once.
 */
export interface PathSet {
  /** The paths that end here, by their position in the list compiled. */
  readonly ends: number[];
  /** The next steps, in the order the paths first take them. */
  readonly next: { step: string | typeof each; tree: PathSet }[];
}

export function compilePaths(paths: readonly Path[]): PathSet {
  const root: PathSet = { ends: [], next: [] };
  paths.forEach((path, index) => {
    let tree = root;
    for (const step of path) {
      let after = stepOf(tree, step);
      if (!after) {
        after = { ends: [], next: [] };
        tree.next.push({ step, tree: after });
      }
      tree = after;
    }
    tree.ends.push(index);
  });
  return root;
}

/** Where a step from `tree` leads in the compiled paths, if any path takes it. */
export function stepOf(tree: PathSet, step: string | typeof each): PathSet | undefined {
  const { next } = tree;
  for (let b = 0; b < next.length; b++) {
    if ((next[b] as PathSet['next'][number]).step === step) {
      return (next[b] as PathSet['next'][number]).tree;
    }
  }
  return undefined;
}

/**
 * Visits every value the path leads to, in document order, with where it is (the trail is valid
 * during the call only). An absent field ends the walk there, and so does a null one on the way.
 */
export function walk(
  value: Json,
  path: Path,
  visit: (node: Json, at: Trail) => void,
  options?: WalkOptions,
): void {
  let paths = single.get(path);
  if (paths === undefined) {
    paths = compilePaths([path]);
    single.set(path, paths);
  }
  walkPaths(value, paths, visit, options);
}

/** Paths come from tables, compiled once: their trees are kept with them. */
const single = new WeakMap<Path, PathSet>();

/**
 * walk() for a set of paths in one pass: `visit` gets which path (its index) led to the value.
 * A value several paths lead to is visited once for each, in the order of the paths.
 */
export function walkPaths(
  value: Json,
  paths: PathSet,
  visit: (node: Json, at: Trail, path: number) => void,
  options?: WalkOptions,
): void {
  // Pushed onto an empty list, not sliced: the first push gives it room for 16 steps, where a
  // copy of `at` had room for `at` only and was copied again at the walk's first step (a PodSpec
  // at spec.template.spec: two lists a walk, one now).
  const trail: (string | number)[] = [];
  const at = options?.at;
  if (at !== undefined) for (let i = 0; i < at.length; i++) trail.push(at[i] as string | number);
  stepInto(value, paths, trail, visit, options?.mismatch);
}

/**
 * One step of walkPaths, a function of its own with indexed loops: a closure per walk and an
 * iterator per loop were most of what a walk allocated (it runs per PodSpec and per source spec).
 */
function stepInto(
  node: Json,
  tree: PathSet,
  trail: (string | number)[],
  visit: (node: Json, at: Trail, path: number) => void,
  mismatch: WalkOptions['mismatch'],
): void {
  const { ends, next } = tree;
  for (let e = 0; e < ends.length; e++) visit(node, trail, ends[e] as number);
  for (let b = 0; b < next.length; b++) {
    const { step: key, tree: after } = next[b] as PathSet['next'][number];
    if (key === each) {
      if (!Array.isArray(node)) {
        mismatch?.(node, trail, 'list');
        continue;
      }
      for (let i = 0; i < node.length; i++) {
        trail.push(i);
        stepInto(node[i] as Json, after, trail, visit, mismatch);
        trail.pop();
      }
      continue;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      mismatch?.(node, trail, 'mapping');
      continue;
    }
    const found = (node as JsonObject)[key];
    if (found === undefined) continue;
    trail.push(key);
    // A null field ends the paths that go on through it; those that end there visit it.
    if (found === null) {
      const { ends: ending } = after;
      for (let e = 0; e < ending.length; e++) visit(null, trail, ending[e] as number);
    } else stepInto(found, after, trail, visit, mismatch);
    trail.pop();
  }
}

/** Paths the tables and rules write as text, compiled once: lookups run per item. */
const compiled = new Map<string, Keys>();

/**
 * The value at a path without `[]` (text, or keys and list positions), or undefined: what `walk` visits on such a
 * path, looked up without a visitor (it runs for every field a rule reads of every item).
 */
export function getPath(value: Json | undefined, path: string | Trail): Json | undefined {
  let keys: Trail | undefined = typeof path === 'string' ? compiled.get(path) : path;
  if (keys === undefined) {
    const parsed = parseKeys(path as string);
    compiled.set(path as string, parsed);
    keys = parsed;
  }
  let node = value;
  for (let depth = 0; depth < keys.length; depth++) {
    const key = keys[depth];
    if (typeof node !== 'object' || node === null) return undefined;
    // A number is a list position (an edit's path, MappingEdit), a name a mapping's key.
    if (Array.isArray(node) !== (typeof key === 'number')) return undefined;
    const next = (node as Record<string | number, unknown>)[key as string | number];
    // Own fields only: a path from an option (`toString`) must not find Object.prototype's. Told
    // by what is found, not by an Object.hasOwn call per step (one builtin call for every key of
    // every field a rule reads): a value read from YAML or JSON is never a function, and the one
    // inherited field that is no function is `__proto__`, which only a reader's own key may be.
    if (next === undefined || typeof next === 'function') return undefined;
    if (key === '__proto__' && !Object.hasOwn(node, key)) return undefined;
    node = next as Json;
  }
  return node;
}

/** The `field.path` of a result: where a value is, or with `key`, a key of the mapping there. */
export function fieldPath(trail: Trail, key?: string): string {
  let field = '';
  // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
  // segment.
  for (let i = 0; i < trail.length; i++) {
    const segment = trail[i] as string | number;
    if (typeof segment === 'number') field = `${field}[${segment}]`;
    else field = field === '' ? segment : `${field}.${segment}`;
  }
  return key === undefined ? field : `${field}[${key}]`;
}
