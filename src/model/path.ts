// Paths into JSON values, in one syntax for tables and results, as kustomize's field specs: field
// names joined by dots, where `[]` after a name steps into every element of that list
// (`containers[].env[].valueFrom.secretKeyRef`; `''` is the value itself). Where a walk is, and
// the `field.path` of a result, is the same syntax with list positions instead of `[]`
// (`spec.template.spec.containers[0].env[1]`), and a key of a mapping of strings in brackets
// after it (`metadata.annotations[argocd.argoproj.io/sync-wave]`).
import type { Json, JsonObject } from './resource.js';

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
 * Visits every value the path leads to, in document order, with where it is (the trail is valid
 * during the call only). An absent field ends the walk there, and so does a null one on the way.
 */
export function walk(
  value: Json,
  path: Path,
  visit: (node: Json, at: Trail) => void,
  { at = [], mismatch }: WalkOptions = {},
): void {
  const trail = [...at];
  const step = (node: Json, depth: number): void => {
    if (depth === path.length) {
      visit(node, trail);
      return;
    }
    const key = path[depth] as string | typeof each;
    if (key === each) {
      if (!Array.isArray(node)) {
        mismatch?.(node, trail, 'list');
        return;
      }
      for (let i = 0; i < node.length; i++) {
        trail.push(i);
        step(node[i] as Json, depth + 1);
        trail.pop();
      }
      return;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      mismatch?.(node, trail, 'mapping');
      return;
    }
    const child = (node as JsonObject)[key];
    if (child === undefined || (child === null && depth + 1 < path.length)) return;
    trail.push(key);
    step(child, depth + 1);
    trail.pop();
  };
  step(value, 0);
}

/** The value at a path without `[]` (text or keys), or undefined. */
export function getPath(value: Json | undefined, path: string | Keys): Json | undefined {
  let found: Json | undefined;
  if (value !== undefined) {
    walk(value, typeof path === 'string' ? parseKeys(path) : path, (node) => {
      found = node;
    });
  }
  return found;
}

/** The `field.path` of a result: where a value is, or with `key`, a key of the mapping there. */
export function fieldPath(trail: Trail, key?: string): string {
  let field = '';
  for (const segment of trail) {
    if (typeof segment === 'number') field = `${field}[${segment}]`;
    else field = field === '' ? segment : `${field}.${segment}`;
  }
  return key === undefined ? field : `${field}[${key}]`;
}
