// Spec normalisation shared by sources: drop what does not decide content, fill server-side
// defaults, so spelling a default out (or leaving out an empty list) does not move a checksum.
import { sortValues } from '../../model/hash.js';
import { isObject, type Json } from '../../model/json.js';
import { compilePaths, each, type PathSet, parsePath, stepOf } from '../../model/path.js';

/**
 * A rule applies at every match of a path (model/path.ts: `''` is the spec itself, `[]` steps into
 * every list element). `drop` removes the field; `defaults` removes a field whose value equals
 * the default.
 */
export interface NormalizeRule {
  path: string;
  drop?: readonly string[];
  defaults?: Readonly<Record<string, Json>>;
}

export function normalize(value: Json, rules: readonly NormalizeRule[]): Json {
  const table = rules.length > 0 ? compiled(rules) : undefined;
  return copyNormalized(value, table, table?.paths) ?? {};
}

/** The sources' rule tables are constants: each table is compiled once. */
const tablesCompiled = new WeakMap<readonly NormalizeRule[], Compiled>();
interface Compiled {
  paths: PathSet;
  drops: (readonly string[])[];
  defaults: [string, Json][][];
}
function compiled(rules: readonly NormalizeRule[]): Compiled {
  let done = tablesCompiled.get(rules);
  if (done === undefined) {
    done = {
      paths: compilePaths(rules.map((rule) => parsePath(rule.path))),
      drops: rules.map((rule) => rule.drop ?? []),
      defaults: rules.map((rule) => Object.entries(rule.defaults ?? {})),
    };
    tablesCompiled.set(rules, done);
  }
  return done;
}

/**
 * A copy without nulls, empty mappings and empty lists (they say nothing the API server would
 * keep), with the rules applied on the way: `tree` is where in the compiled paths `value` is (a
 * trail leads to one place at most; undefined, no rule below). One pass that leaves a field out,
 * not a copy whose fields the rules then delete: a deleted field turned a third of the dense
 * bench's contents into hash-table objects, slower to size and write for every checksum. A rule
 * leaves its field out before anything below it is read, as a walk of the copy would.
 */
function copyNormalized(
  value: Json,
  table: Compiled | undefined,
  tree: PathSet | undefined,
): Json | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const into = tree === undefined ? undefined : stepOf(tree, each);
    const items = new Array<Json>(value.length);
    for (let i = 0; i < value.length; i++) {
      items[i] = copyNormalized(value[i] as Json, table, into) ?? null;
    }
    return items;
  }
  if (isObject(value)) {
    // A copy as the reader makes mappings (an ordinary object, `__proto__` an own key), not one
    // without prototype: V8 keeps those as hash tables, larger, and slower to list, size and
    // write for the checksum (every source's content, kept to the end). Its keys in canonical
    // order, so a content is written for its checksum as it is (hash.ts, `KeyOrder`), not
    // through a sorted copy of each mapping.
    const out: { [key: string]: Json } = {};
    const keys = Object.keys(value);
    sortValues(keys);
    const ends = tree === undefined ? undefined : tree.ends;
    let kept = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const field = value[key] as Json;
      if (ends !== undefined && ends.length > 0 && ruledOut(table as Compiled, ends, key, field)) {
        continue;
      }
      const below = tree === undefined ? undefined : stepOf(tree, key);
      const copied = copyNormalized(field, table, below);
      if (copied === undefined) continue;
      // A `__proto__` key (a valid Secret key) stays a key, as the reader keeps it.
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value: copied,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = copied;
      kept++;
    }
    return kept === 0 ? undefined : out;
  }
  return value;
}

/** Whether a rule ending at this mapping drops the field, or finds it at its default. */
function ruledOut(table: Compiled, ends: readonly number[], key: string, field: Json): boolean {
  // Index loops: with inlining off (large inputs), for-of allocated an iterator result per
  // field (an array destructuring iterates too), per matched mapping.
  for (let e = 0; e < ends.length; e++) {
    const rule = ends[e] as number;
    if ((table.drops[rule] as readonly string[]).includes(key)) return true;
    const defaulted = table.defaults[rule] as [string, Json][];
    for (let i = 0; i < defaulted.length; i++) {
      const entry = defaulted[i] as [string, Json];
      if (entry[0] === key && field === entry[1]) return true;
    }
  }
  return false;
}
