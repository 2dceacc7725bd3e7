// The only changes this function makes: set one key in a mapping of an item (an annotation, a
// data key of Argo CD's argocd-cm, or a reference's name inside a list entry, targetNames), or
// append one entry to a list of an item (a HelmRelease's spec.postRenderers), creating the list
// and the mappings on the way when missing. Nothing else of the item is rewritten.
import { canonicalJson } from './hash.js';
import type { Json, JsonObject } from './json.js';
import { fieldPath, getPath, type Keys, type Trail } from './path.js';

export interface MappingEdit {
  /** Index of the item in the input. */
  item: number;
  /**
   * Path to the mapping (`['metadata', 'annotations']`, `['data']`, …); a number steps into an
   * existing list entry, which is never created.
   */
  path: Trail;
  key: string;
  /** May span lines (written as a block scalar). */
  value: string;
}

/**
 * Appends `entry` to the list under `key` in the mapping at `path`; creates the list, and the
 * mappings on the way, when missing. The entries already there stay as they are, byte for byte.
 * Written as block YAML (keys in code-point order, multi-line strings as `|` block scalars), or
 * in a JSON document's own layout. Appending is not idempotent: the rule that plans the edit
 * decides whether an equal entry is already there (`hasListEntry`).
 */
export interface ListEntryEdit {
  /** Index of the item in the input. */
  item: number;
  /** Path to the mapping holding the list; a number steps into an existing list entry. */
  path: Trail;
  /** The list's key in that mapping (`postRenderers`). */
  key: string;
  /** The entry appended: a JSON object (strings, numbers, booleans, null, lists, mappings). */
  entry: JsonObject;
}

/** Every change the function plans; `isListEntryEdit` tells them apart. */
export type Edit = MappingEdit | ListEntryEdit;

export function isListEntryEdit(edit: Edit): edit is ListEntryEdit {
  return 'entry' in edit;
}

/** The `field.path` of a result about a list an edit appends to: `spec.postRenderers`. */
export function listField(edit: ListEntryEdit): string {
  return fieldPath([...edit.path, edit.key]);
}

/**
 * Whether the list the edit appends to already holds an entry equal to `edit.entry` (in `value`,
 * the item's value): a second run plans no edit when this says so, so runs converge. Compared as
 * canonical JSON, whatever the key order and however the reader built the objects.
 */
export function hasListEntry(value: Json, edit: ListEntryEdit): boolean {
  const list = getPath(value, [...edit.path, edit.key]);
  if (!Array.isArray(list)) return false;
  const wanted = canonicalJson(edit.entry);
  return list.some((entry) => canonicalJson(entry) === wanted);
}

/** Sets an annotation in the metadata mapping at `metadataPath`. */
export function annotationEdit(
  item: number,
  metadataPath: Keys,
  key: string,
  value: string,
): MappingEdit {
  // An item's own annotations: one path for all their edits (a list each was 64 bytes a wave
  // edit, kept to the writer: 0.13 MB on the fan-in bench). Else concat, not a spread: a spread's
  // list has room for 19.
  const path =
    metadataPath.length === 1 && metadataPath[0] === 'metadata'
      ? itemAnnotations
      : metadataPath.concat('annotations');
  return { item, path, key, value };
}

/** The path of an item's own annotations, shared by the edits of every item (nothing changes one). */
const itemAnnotations: Trail = ['metadata', 'annotations'];

/** The `field.path` of a result about an annotation: `spec.template.metadata.annotations[key]`. */
export function annotationField(metadataPath: Keys, key: string): string {
  return fieldPath([...metadataPath, 'annotations'], key);
}
