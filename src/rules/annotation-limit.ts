// Beside the stages: the one check of what an edit may write into an annotations mapping.
// Kubernetes refuses an object whose annotations (any `metadata.annotations`, a pod template's
// included) total more than 256 KiB of keys and values, so an edit that would take a mapping over
// it is not written, whichever stage planned it (checksums, waves, depends-on, kapp rules, a
// source's own annotations), and an error result names the resource and field.
import type { Edit, MappingEdit } from '../model/edit.js';
import { isListEntryEdit } from '../model/edit.js';
import type { Json } from '../model/json.js';
import { fieldPath, getPath } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import { annotationLimit } from '../model/result-rules.js';
import { describe, type Result, resourceResult } from '../model/results.js';

/**
 * The rule, as data: a mapping under this key holds annotations, and its keys' and values' UTF-8
 * bytes may total this much (apimachinery pkg/api/validation/objectmeta.go,
 * `TotalAnnotationSizeLimitB` and `ValidateAnnotationsSize`; docs/operators.md cites the commit).
 */
export const annotationsLimit = { key: 'annotations', bytes: 256 * (1 << 10) } as const;

/**
 * The edits that keep every annotations mapping within the limit, and an error for each one left
 * out. An edit of a mapping that would end over it is left out with every other edit of that
 * mapping (the object is not written half-edited). Linear: each mapping an edit writes to is
 * measured once, in UTF-16 units (a UTF-8 byte count is at most three times that); only an item
 * whose measure can exceed the limit is counted exactly, each of its mappings once.
 */
export function limitAnnotations(
  edits: Edit[],
  resources: readonly Resource[],
): { edits: Edit[]; results: Result[] } {
  if (edits.length === 0) return { edits, results: [] };
  // Two passes, no more: the run meets this code once, unoptimised (fan-in at 10k items: four
  // passes cost 66 M instructions, these two 49 M; docs/performance.md).
  const byItem: Resource[] = [];
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as Resource;
    byItem[resource.index] = resource;
  }
  // Per item, at most the UTF-16 units of every mapping an edit writes to and of what it adds
  // (a mapping counted once per edit of it: only a bound).
  const units = new Float64Array(byItem.length);
  // Each mapping measured once, however many edits it gets (kapp's change rules: one per group an
  // item waits for): measured per edit, a mapping of m keys with g edits cost g × m (s16-review:
  // 2.8 MB, 25 s). The bound stays one: what a mapping holds, plus what every edit adds.
  const measured = new Set<object>();
  let suspect: Set<number> | undefined;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i] as Edit;
    // holdsAnnotations and the walk written out: a call costs the unoptimised loop most.
    if ('entry' in edit) continue;
    const { item, path } = edit;
    if (path[path.length - 1] !== annotationsLimit.key) continue;
    // The mapping, walked without getPath's checks (a list step by name, a key inherited from
    // Object.prototype): a bound needs none, as what it finds is measured by its own keys, and
    // the exact count reads getPath. Most edits' mappings do not exist yet (fan-in at 10k
    // items: 7,141 of 9,893).
    let node: unknown = byItem[item]?.value;
    for (let step = 0; step < path.length && typeof node === 'object' && node !== null; step++) {
      node = (node as Record<string | number, unknown>)[path[step] as string | number];
    }
    let total = (units[item] as number) + edit.key.length + edit.value.length;
    if (typeof node === 'object' && node !== null && !measured.has(node)) {
      measured.add(node);
      total += unitsOf(node);
    }
    units[item] = total;
    if (total * 3 > annotationsLimit.bytes) {
      suspect ??= new Set();
      suspect.add(item);
    }
  }
  if (suspect === undefined) return { edits, results: [] };
  // The suspect items' edits, by item and mapping, each mapping then counted exactly.
  const mappings = new Map<string, MappingEdit[]>();
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i] as Edit;
    if (!holdsAnnotations(edit) || !suspect.has(edit.item)) continue;
    const key = `${edit.item} ${fieldPath(edit.path)}`;
    const list = mappings.get(key);
    if (list) list.push(edit);
    else mappings.set(key, [edit]);
  }
  const refused = new Set<Edit>();
  const results: Result[] = [];
  for (const mappingEdits of mappings.values()) {
    const first = mappingEdits[0] as MappingEdit;
    const resource = byItem[first.item] as Resource;
    const bytes = bytesAfter(getPath(resource.value, first.path), mappingEdits);
    if (bytes <= annotationsLimit.bytes) continue;
    const mapping = fieldPath(first.path);
    for (const edit of mappingEdits) {
      refused.add(edit);
      results.push(
        resourceResult(
          annotationLimit,
          resource,
          `${describe(resource)}: ${fieldPath(edit.path, edit.key)} not written: with it ` +
            `${mapping} would hold ${bytes} bytes of keys and values, over the ` +
            `${annotationsLimit.bytes} Kubernetes allows (the API server refuses the object). ` +
            'Make room in that mapping: large data belongs in a ConfigMap',
          { path: fieldPath(edit.path, edit.key) },
        ),
      );
    }
  }
  return { edits: edits.filter((edit) => !refused.has(edit)), results };
}

/** A MappingEdit that sets a key of an annotations mapping. */
const holdsAnnotations = (edit: Edit): edit is MappingEdit =>
  !isListEntryEdit(edit) && edit.path[edit.path.length - 1] === annotationsLimit.key;

/**
 * The UTF-16 units of a mapping's keys and values; 0 when it is none. Its own keys listed at once,
 * not a for…in walk that checked each key it met (Object.hasOwn), and a string value measured
 * without a call: dense at 10k items, 2,447 mappings of 8,963 keys, 17 M instructions then, 11 M.
 */
function unitsOf(mapping: unknown): number {
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) return 0;
  const keys = Object.keys(mapping);
  let units = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const value = (mapping as Record<string, Json>)[key] as Json;
    units += key.length + (typeof value === 'string' ? value.length : textOf(value).length);
  }
  return units;
}

/** The UTF-8 bytes of the mapping's keys and values once the edits are written (later wins). */
function bytesAfter(mapping: Json | undefined, edits: readonly MappingEdit[]): number {
  const after = new Map<string, string>();
  if (typeof mapping === 'object' && mapping !== null && !Array.isArray(mapping)) {
    for (const key in mapping) {
      if (Object.hasOwn(mapping, key)) after.set(key, textOf(mapping[key] as Json));
    }
  }
  for (const edit of edits) after.set(edit.key, edit.value);
  let bytes = 0;
  // UTF-8 bytes, Go's `len`: a surrogate pair one 4-byte character, a lone half 3 (as Go encodes it).
  for (const [key, value] of after) bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
  return bytes;
}

/** An annotation's value as the API server would count it: a string's text; else its JSON. */
const textOf = (value: Json) => (typeof value === 'string' ? value : JSON.stringify(value));
