// One result for many resources: a note that says the same of twelve resources is read once,
// naming them, instead of twelve times; and the grouping every stage and lint shares.
import { describe, type ResourceRef, type Result } from './results.js';

/** Adds `value` to the group of `key`, a new group when it is the first. */
export function addTo<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

/**
 * The map under `key`, made on first use: a look-up by two or three keys in turn (apiVersion then
 * kind), where a key string built per item would allocate for each of thousands of items.
 */
/**
 * What reads lists by key need of a Map's (a Map is one): the checksums' table by resource
 * (rules/checksums.ts) is not a Map.
 */
export interface ListsBy<K, V> {
  get(key: K): readonly V[] | undefined;
  keys(): Iterable<K>;
  values(): Iterable<readonly V[]>;
  forEach(each: (list: readonly V[], key: K) => void): void;
  [Symbol.iterator](): Iterator<[K, readonly V[]]>;
}

export function mapUnder<K, L, V>(maps: Map<K, Map<L, V>>, key: K): Map<L, V> {
  let map = maps.get(key);
  if (!map) {
    map = new Map();
    maps.set(key, map);
  }
  return map;
}

/** Most names a folded result spells out; the rest are counted. */
const shown = 5;

/** `A, B and C`; past five, `A, B, C, D, E and 7 more`. Callers give a stable order and the count. */
export const nameList = (names: readonly string[]): string => namesOf(names, String);

/**
 * nameList of the names `name` gives `items`, asked only of those shown: a group of a thousand
 * resources is five names and a count, not a thousand names written and dropped. `count`: how
 * many there are, when `items` holds only the first of them (at least those shown).
 */
export function namesOf<T>(
  items: readonly T[],
  name: (item: T) => string,
  count = items.length,
): string {
  const named = Math.min(count, shown);
  let text = '';
  for (let i = 0; i < named; i++) {
    const last = i === named - 1 && count <= shown;
    text += `${i === 0 ? '' : last ? ' and ' : ', '}${name(items[i] as T)}`;
  }
  return count <= shown ? text : `${text} and ${count - shown} more`;
}

/** Most names a folded result spells out (namesOf's `items` needs no more). */
export const namesShown = shown;

/** `a, b, c`; past `most`, `a, b, c, d, e and 7 more`: a list whose order says nothing. */
export function countedList(texts: readonly string[], most = shown): string {
  const listed = texts.length <= most ? texts : texts.slice(0, most);
  const more = texts.length - listed.length;
  return more === 0 ? listed.join(', ') : `${listed.join(', ')} and ${more} more`;
}

/**
 * Info results with the same message at the same field of different resources, as one result on
 * the first of them naming them all. Warnings and errors stay one per resource: each is a thing to
 * fix (or silence) where it is. Only `foldable` results fold (the sources' notes, whose messages
 * are written; others may be deferred). Results keep their order; a folded one stands where its
 * first was.
 */
export function foldRepeats(
  results: readonly Result[],
  foldable: ReadonlySet<Result>,
): readonly Result[] {
  const groups = new Map<string, Result[]>();
  const keyOf = (r: Result) =>
    r.severity === 'info' && foldable.has(r) && r.resourceRef
      ? `${r.field?.path ?? ''}\u0000${r.message}`
      : undefined;
  // Index loops: with inlining off (large inputs), for-of allocated an iterator result per result.
  for (let i = 0; i < results.length; i++) {
    const result = results[i] as Result;
    const key = keyOf(result);
    if (key !== undefined) addTo(groups, key, result);
  }
  // Nothing to fold (most runs): the list itself, not a copy of its 10k results, which outlived
  // a scavenge on the fan-in bench.
  let repeated = false;
  groups.forEach((group) => {
    if (group.length > 1) repeated = true;
  });
  if (!repeated) return results;
  const out: Result[] = [];
  for (let i = 0; i < results.length; i++) {
    const result = results[i] as Result;
    const key = keyOf(result);
    const group = key === undefined ? undefined : groups.get(key);
    if (!group || group.length === 1) {
      out.push(result);
      continue;
    }
    if (group[0] !== result) continue;
    const names = namesOf(group, (r) => describe(r.resourceRef as ResourceRef));
    out.push({ ...result, message: `${result.message} (${group.length} resources: ${names})` });
  }
  return out;
}
