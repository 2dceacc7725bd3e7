// Readers for the fields of a source's spec: each checks the shape it needs and throws ItemError
// naming the field. Messages never quote a value that may be secret (`secretValues`).
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { fieldPath } from '../../model/path.js';
import { describeType, ItemError } from '../../model/resource.js';
import type { KeySet } from '../workloads/references.js';

export function objectField(parent: JsonObject, key: string, field: string): JsonObject {
  const value = parent[key];
  if (!isObject(value))
    throw new ItemError(`${field} is ${describeType(value ?? null)}, not a mapping`, field);
  return value;
}

export function optionalObject(value: Json | undefined, field: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value))
    throw new ItemError(`${field} is ${describeType(value)}, not a mapping`, field);
  return value;
}

export function optionalList(value: Json | undefined, field: string): Json[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new ItemError(`${field} is ${describeType(value)}, not a list`, field);
  return value;
}

export function optionalString(value: Json | undefined, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ItemError(`${field} is not a string`, field);
  return value;
}

export function requiredString(value: Json | undefined, field: string): string {
  const text = optionalString(value, field);
  if (text === undefined || text === '') throw new ItemError(`${field} is missing`, field);
  return text;
}

export function optionalBoolean(value: Json | undefined, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ItemError(`${field} is not true or false`, field);
  return value;
}

/**
 * A mapping of strings (`data` of a ConfigMap or Secret, …). With `nullable`, null values are kept
 * (they mean something, for example "delete this key"). Values are never quoted in errors.
 */
export function stringMap(
  value: Json | undefined,
  field: string,
  { nullable = false } = {},
): Record<string, string | null> {
  const map = optionalObject(value, field) ?? {};
  for (const [key, v] of Object.entries(map)) {
    if (typeof v === 'string' || (nullable && v === null)) continue;
    const at = fieldPath([field], key);
    throw new ItemError(`${at} is not a string`, at);
  }
  return map as Record<string, string | null>;
}

/** The entries of `map` whose key is read, in its order; all of it for `all`. */
export function pickKeys<T>(map: Readonly<Record<string, T>>, keys: KeySet): Record<string, T> {
  if (keys === 'all') return { ...map };
  const picked = inOrder(
    positionsIn(map, () => Object.keys(map)),
    keys,
  );
  return Object.fromEntries(picked.map((key) => [key, map[key] as T]));
}

/** The entries of `list` (distinct) that `keys` reads, in its order. */
export const pickList = (list: readonly string[], keys: ReadonlySet<string>): string[] =>
  inOrder(
    positionsIn(list, () => list),
    keys,
  );

/**
 * The keys read that `at` has, by position: a look-up per key read, not a pass over every key per
 * read, which cost readers × keys (each of many Deployments reading another key of one Secret).
 */
function inOrder(at: ReadonlyMap<string, number>, keys: ReadonlySet<string>): string[] {
  const picked = [...keys].filter((key) => at.has(key));
  return picked.sort((a, b) => (at.get(a) as number) - (at.get(b) as number));
}

/** The position of each key of `owner` (its `list`, made on the first read only). */
function positionsIn(owner: object, list: () => readonly string[]): ReadonlyMap<string, number> {
  let positions = positionsOf.get(owner);
  if (positions === undefined) {
    positions = new Map(list().map((key, i) => [key, i]));
    positionsOf.set(owner, positions);
  }
  return positions;
}

const positionsOf = new WeakMap<object, ReadonlyMap<string, number>>();

/**
 * Content narrowed per key: the entries of the list `normalized[list]` whose `keyField` is read.
 * Only when `narrowable` (the list alone decides the keys) and every key read is such an entry;
 * otherwise all of `normalized` counts (when unsure, include).
 */
export function listContent(
  normalized: JsonObject,
  list: string,
  keyField: string,
  narrowable: boolean,
): (keys: KeySet) => Json {
  if (!narrowable) return () => normalized;
  const entries = (normalized[list] ?? []) as JsonObject[];
  // Made on the first read that needs them: most sources are never narrowed (fewEntries).
  let positions: ReadonlyMap<Json | undefined, readonly number[]> | undefined;
  // The same keys read again get the same object (the last narrowed, by the positions of the
  // entries kept). The checksums ask once per source and key set, and number a pair per content
  // object: a Map of every narrowing per source (1,400 on the fan-in bench, with their texts)
  // outlived a scavenge to the peak for nothing they did not know.
  let lastKept: string | undefined;
  let last: Json | undefined;
  return (keys) => {
    if (keys === 'all') return normalized;
    const kept: number[] = [];
    if (entries.length <= fewEntries) {
      for (const key of keys) if (!entriesOf(entries, keyField, key, kept)) return normalized;
    } else {
      positions ??= positionsByKey(entries, keyField);
      for (const key of keys) {
        const at = positions.get(key);
        if (at === undefined) return normalized;
        // A loop, not a spread: one key may have any number of entries (the arguments' limit).
        for (let k = 0; k < at.length; k++) kept.push(at[k] as number);
      }
    }
    kept.sort((a, b) => a - b);
    const id = kept.join();
    if (id !== lastKept) {
      last = { ...normalized, [list]: kept.map((i) => entries[i] as JsonObject) };
      lastKept = id;
    }
    return last as Json;
  };
}

/**
 * Lists up to this long are searched for a read's keys entry by entry: a Map of the entries'
 * positions and one of the narrowed contents, made for every source whether it was narrowed or
 * not, were 0.8 MB kept of the fan-in bench's 2,000 ExternalSecrets at 10k (one entry each, read
 * by keys they do not have). A longer list gets its Map on its first read of named keys: a pass
 * over it per read cost readers × entries.
 */
const fewEntries = 8;

/** Adds to `kept` the positions of the entries whose `keyField` is `key`; false if none is. */
function entriesOf(
  entries: readonly JsonObject[],
  keyField: string,
  key: string,
  kept: number[],
): boolean {
  const before = kept.length;
  for (let i = 0; i < entries.length; i++) {
    if ((entries[i] as JsonObject)[keyField] === key) kept.push(i);
  }
  return kept.length > before;
}

/** The positions of the entries of each key. */
function positionsByKey(
  entries: readonly JsonObject[],
  keyField: string,
): ReadonlyMap<Json | undefined, readonly number[]> {
  const positions = new Map<Json | undefined, number[]>();
  entries.forEach((entry, i) => {
    const key = entry[keyField];
    const at = positions.get(key);
    if (at === undefined) positions.set(key, [i]);
    else at.push(i);
  });
  return positions;
}
