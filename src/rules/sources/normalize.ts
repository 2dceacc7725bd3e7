// Spec normalisation shared by sources: drop what does not decide content, fill server-side
// defaults, so spelling a default out (or leaving out an empty list) does not move a checksum.
import { isObject, type Json } from '../../model/resource.js';

/**
 * A rule applies at a path of field names, where `*` steps into every list element.
 * `drop` removes the field; `defaults` removes a field whose value equals the default.
 */
export interface NormalizeRule {
  path: readonly string[];
  drop?: readonly string[];
  defaults?: Readonly<Record<string, Json>>;
}

export function normalize(value: Json, rules: readonly NormalizeRule[]): Json {
  // pruneEmpty copies, so the rules can delete from its result without touching the input.
  const copy = pruneEmpty(value) ?? {};
  for (const rule of rules) {
    select(copy, rule.path, 0, (node) => {
      for (const field of rule.drop ?? []) delete node[field];
      for (const [field, def] of Object.entries(rule.defaults ?? {})) {
        if (node[field] === def) delete node[field];
      }
    });
  }
  return pruneEmpty(copy) ?? {};
}

function select(
  value: Json,
  path: readonly string[],
  depth: number,
  visit: (node: { [key: string]: Json }) => void,
): void {
  if (depth === path.length) {
    if (isObject(value)) visit(value);
    return;
  }
  const head = path[depth] as string;
  if (head === '*') {
    if (Array.isArray(value)) for (const element of value) select(element, path, depth + 1, visit);
  } else if (isObject(value) && value[head] !== undefined) {
    select(value[head] as Json, path, depth + 1, visit);
  }
}

/** Nulls, empty mappings and empty lists say nothing the API server would keep. */
function pruneEmpty(value: Json): Json | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => pruneEmpty(v) ?? null);
    return items.length === 0 ? undefined : items;
  }
  if (isObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) {
      const pruned = pruneEmpty(value[key] as Json);
      if (pruned !== undefined) out[key] = pruned;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}
