// Applies edits to one item's text. Unless the item is plain layout (plain-layout.ts) and the
// line locator placed every edit, the result is proven: the edited text must parse to exactly the
// original value plus the new keys, or the item is left alone and the edit reported as an error.
// Output is never altered silently.
import { isDeepStrictEqual } from 'node:util';
import type { MappingEdit } from '../../model/edit.js';
import { isObject, type Json, type JsonObject } from '../../model/resource.js';
import { locateByCst } from './locate-cst.js';
import { locateByLines } from './locate-lines.js';
import { parseYaml } from './parse.js';
import { isPlainLayout } from './plain-layout.js';
import { applySite, type Locator } from './site.js';

export class EditError extends Error {}

/** Sets the key in a parsed value, creating missing mappings. */
export function applyToValue(value: JsonObject, edit: MappingEdit): void {
  let node = value;
  for (const key of edit.path) {
    const child = node[key];
    if (isObject(child)) {
      node = child;
    } else {
      const created: JsonObject = {};
      node[key] = created;
      node = created;
    }
  }
  node[edit.key] = edit.value;
}

/**
 * Edits an item's text. `expected` gives the item's value with the edits applied; the lines locator
 * runs first and the full parser is the fallback for each edit and for a failed proof.
 */
export function editText(
  itemText: string,
  entry: boolean,
  edits: readonly MappingEdit[],
  /** Called only when a proof is needed (the value may have to be read again). */
  expected: () => Json,
  lineBreak: string,
  /** Reads an edited text for the proof: on its own, or in its document (aliases). */
  reparse: (text: string) => Json | undefined = (text) => reparseItem(text, entry),
): string {
  let value: Json | undefined;
  const proven = (text: string) => {
    value ??= expected();
    return isDeepStrictEqual(reparse(text) ?? null, value);
  };
  const attempt = (locators: readonly Locator[], prove: boolean): string | undefined => {
    let text = itemText;
    for (const edit of edits) {
      let site: ReturnType<Locator>;
      for (const locate of locators) {
        site = locate(text, entry, edit.path, edit.key);
        if (site) break;
      }
      if (!site) return undefined;
      text = applySite(text, site, edit.key, edit.value, lineBreak);
    }
    return !prove || proven(text) ? text : undefined;
  };
  // The line locator reads plain-layout items exactly as the parser does (plain-layout.ts), so
  // its edits need no proof there; everything else is re-parsed and compared.
  const trusted = isPlainLayout(itemText) ? attempt([locateByLines], false) : undefined;
  const edited =
    trusted ?? attempt([locateByLines, locateByCst], true) ?? attempt([locateByCst], true);
  if (edited === undefined) {
    throw new EditError('could not insert the annotation without changing anything else');
  }
  return edited;
}

/** The value of an edited item's text, read on its own; undefined when it does not parse. */
export function reparseItem(text: string, entry: boolean): Json | undefined {
  try {
    const parsed = parseYaml(text, 0, text);
    if (!entry) return parsed;
    return Array.isArray(parsed) && parsed.length === 1 ? (parsed[0] as Json) : undefined;
  } catch {
    return undefined;
  }
}
