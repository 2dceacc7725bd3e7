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

/** The entries of `map` whose key is read; all of it for `all`. */
export function pickKeys<T>(map: Readonly<Record<string, T>>, keys: KeySet): Record<string, T> {
  if (keys === 'all') return { ...map };
  return Object.fromEntries(Object.entries(map).filter(([key]) => keys.has(key)));
}

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
  const entries = (normalized[list] ?? []) as JsonObject[];
  const known = new Set(entries.map((entry) => entry[keyField]));
  // Consumers reading the same keys get the same object, whose canonical JSON is then computed
  // once (checksums.ts caches it per object). Keyed by the positions of the entries kept.
  const narrowed = new Map<string, Json>();
  return (keys) => {
    if (keys === 'all' || !narrowable || ![...keys].every((k) => known.has(k))) return normalized;
    let kept = '';
    entries.forEach((e, i) => {
      if (keys.has(e[keyField] as string)) kept += `${i},`;
    });
    let content = narrowed.get(kept);
    if (content === undefined) {
      content = { ...normalized, [list]: entries.filter((e) => keys.has(e[keyField] as string)) };
      narrowed.set(kept, content);
    }
    return content;
  };
}
