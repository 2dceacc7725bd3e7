// Spec normalisation shared by sources: drop what does not decide content, fill server-side
// defaults, so spelling a default out (or leaving out an empty list) does not move a checksum.
import { sortValues } from '../../model/hash.js';
import { isObject, type Json } from '../../model/json.js';
import { compilePaths, type PathSet, parsePath, walkPaths } from '../../model/path.js';

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
  // The first pass copies, so the rules and the second pass can change the copy in place.
  const copy = pruneEmpty(value, false) ?? {};
  if (rules.length > 0) {
    // All the rules in one walk (a table has up to 15): a rule only deletes fields of the mapping
    // it matches, and a walk reads a field after the rules that end at its mapping ran, so what is
    // left is what the rules one walk each would leave.
    const { paths, drops, defaults } = compiled(rules);
    walkPaths(copy, paths, (node, _at, rule) => {
      if (!isObject(node)) return;
      // Index loops: with inlining off (large inputs), for-of allocated an iterator result per
      // field (an array destructuring iterates too), per matched mapping.
      const dropped = drops[rule] as readonly string[];
      for (let i = 0; i < dropped.length; i++) delete node[dropped[i] as string];
      const defaulted = defaults[rule] as [string, Json][];
      for (let i = 0; i < defaulted.length; i++) {
        const field = (defaulted[i] as [string, Json])[0];
        if (node[field] === (defaulted[i] as [string, Json])[1]) delete node[field];
      }
    });
  }
  return pruneEmpty(copy, true) ?? {};
}

/** The sources' rule tables are constants: each table is compiled once. */
const tablesCompiled = new WeakMap<
  readonly NormalizeRule[],
  { paths: PathSet; drops: (readonly string[])[]; defaults: [string, Json][][] }
>();
function compiled(rules: readonly NormalizeRule[]) {
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
 * Nulls, empty mappings and empty lists say nothing the API server would keep: without them, as
 * a copy or (`inPlace`, on a value this module made) by deleting them.
 */
function pruneEmpty(value: Json, inPlace: boolean): Json | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const items = inPlace ? value : new Array<Json>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = pruneEmpty(value[i] as Json, inPlace) ?? null;
    return items;
  }
  if (isObject(value)) {
    // A copy as the reader makes mappings (an ordinary object, `__proto__` an own key), not one
    // without prototype: V8 keeps those as hash tables, larger, and slower to list, size and
    // write for the checksum (every source's content, kept to the end). Its keys in canonical
    // order, so a content is written for its checksum as it is (hash.ts, `KeyOrder`), not
    // through a sorted copy of each mapping.
    const out: { [key: string]: Json } = inPlace ? value : {};
    const keys = Object.keys(value);
    if (!inPlace) sortValues(keys);
    let kept = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const pruned = pruneEmpty(value[key] as Json, inPlace);
      if (pruned !== undefined) {
        // A `__proto__` key (a valid Secret key) stays a key, as the reader keeps it.
        if (key === '__proto__' && !inPlace) {
          Object.defineProperty(out, key, {
            value: pruned,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else out[key] = pruned;
        kept++;
      } else if (inPlace) delete out[key];
    }
    return kept === 0 ? undefined : out;
  }
  return value;
}
