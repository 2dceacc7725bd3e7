// Spec normalisation shared by sources: drop what does not decide content, fill server-side
// defaults, so spelling a default out (or leaving out an empty list) does not move a checksum.
import { type Path, parsePath, walk } from '../../model/path.js';
import { isObject, type Json } from '../../model/resource.js';

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
  // pruneEmpty copies, so the rules can delete from its result without touching the input.
  const copy = pruneEmpty(value) ?? {};
  for (const rule of rules) {
    walk(copy, compiled(rule.path), (node) => {
      if (!isObject(node)) return;
      for (const field of rule.drop ?? []) delete node[field];
      for (const [field, def] of Object.entries(rule.defaults ?? {})) {
        if (node[field] === def) delete node[field];
      }
    });
  }
  return pruneEmpty(copy) ?? {};
}

/** The sources' rule tables are constants: each path is compiled once. */
const paths = new Map<string, Path>();
function compiled(text: string): Path {
  let path = paths.get(text);
  if (path === undefined) {
    path = parsePath(text);
    paths.set(text, path);
  }
  return path;
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
