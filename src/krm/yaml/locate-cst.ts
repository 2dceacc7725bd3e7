// The general locator: a full, position-keeping parse with the `yaml` library. Slower (which is
// why locate-lines.ts runs first) but it understands flow mappings, quoted keys and explicit
// nulls. Loaded only when needed, so start-up and the common case never pay for it.
import type { Document, Node, YAMLMap } from 'yaml';
import { aboveComments, lineAt } from './lines.js';
import loadYaml from './load-yaml.cjs';
import { firstBadKey } from './parse.js';
import type { Locator, ScalarStyle, Site } from './site.js';

const styles: Partial<Record<string, ScalarStyle>> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
};

/** Undefined: the text is no YAML a locator may edit. */
let last: { text: string; doc: Document.Parsed | undefined } | undefined;

export const locateByCst: Locator = (text, entry, path, key) => {
  const { isAlias, isMap, isScalar, isSeq, parseDocument } = loadYaml();
  // Duplicate keys found with a set per mapping: the library's check (uniqueKeys) compares each
  // key with every key before it, 2·10⁸ comparisons for one mapping of 20k keys.
  // The last text's document, kept: the edits of one item are located in one text (splice.ts).
  if (last?.text !== text) {
    const doc = parseDocument(text, { uniqueKeys: false });
    last = { text, doc: doc.errors.length > 0 || firstBadKey(doc) !== undefined ? undefined : doc };
  }
  const { doc } = last;
  if (!doc) return undefined;
  let root: unknown = doc.contents;
  if (entry) root = isSeq(root) && root.items.length === 1 ? root.items[0] : undefined;
  if (!isMap(root)) return undefined;
  let map: YAMLMap = root;
  let parentColumn = -1;
  for (let depth = 0; depth <= path.length; depth++) {
    const name = depth < path.length ? path[depth] : key;
    const missing = path.slice(depth);
    const pair = map.items.find((p) => isScalar(p.key) && p.key.value === name);
    if (!pair) return names(missing) ? insertionSite(text, map, parentColumn, missing) : undefined;
    let value = pair.value as Node | null;
    // A list entry by its position (a reference's name in `env[]`): it must exist.
    for (; typeof path[depth + 1] === 'number'; depth++) {
      if (!isSeq(value)) return undefined;
      value = value.items[path[depth + 1] as number] as Node | null;
    }
    const keyStart = (pair.key as Node).range?.[0] ?? 0;
    if (depth === path.length) {
      if (!(isScalar(value) || isAlias(value)) || !value.range) return undefined;
      const style = isScalar(value) ? styles[value.type ?? ''] : undefined;
      if (style) return { kind: 'value', start: value.range[0], end: value.range[1], style };
      // A block scalar or an alias: replaced by a one-line double-quoted value. A block scalar's
      // range ends after its last line break, which the replacement must keep.
      const end = value.range[1];
      const keep = text[end - 1] === '\n' ? (text[end - 2] === '\r' ? 2 : 1) : 0;
      return { kind: 'value', start: value.range[0], end: end - keep, style: 'double' };
    }
    if (isMap(value)) {
      parentColumn = columnOf(text, keyStart);
      map = value;
      continue;
    }
    if (!isScalar(value) || value.value !== null || !value.range) return undefined;
    const rest = path.slice(depth + 1);
    // Only mappings are created, never list entries.
    if (!names(rest)) return undefined;
    if (value.range[0] !== value.range[1]) {
      return { kind: 'null', start: value.range[0], end: value.range[1], missing: rest };
    }
    const column = columnOf(text, keyStart);
    const step = Math.max(column - parentColumn, 1);
    // Right under `key:`, above any comments there (they keep the key below them).
    const at = lineAt(text, keyStart - column).next;
    return { kind: 'lines', at, indent: column + step, step, missing: rest };
  }
  return undefined;
};

/** A path of mapping keys only, which an insertion can create. */
function names(steps: readonly (string | number)[]): steps is readonly string[] {
  return steps.every((step) => typeof step === 'string');
}

function insertionSite(
  text: string,
  map: YAMLMap,
  parentColumn: number,
  missing: readonly string[],
): Site | undefined {
  if (!map.range) return undefined;
  if (map.flow) {
    const at = text.indexOf('{', map.range[0]);
    return at < 0
      ? undefined
      : { kind: 'flow', at: at + 1, empty: map.items.length === 0, missing };
  }
  const firstKey = map.items[0]?.key as Node | undefined;
  const start = firstKey?.range?.[0];
  if (start === undefined) return undefined;
  const keyColumn = columnOf(text, start);
  const lineStart = start - keyColumn;
  // Only before a key that starts its own line, or an explicit `? key` entry (not after `- `).
  const prefix = text.slice(lineStart, start);
  if (!/^ *(\? +)?$/.test(prefix)) return undefined;
  const column = prefix.length - prefix.trimStart().length;
  return {
    kind: 'lines',
    // Above the comments that head the first key, as in locate-lines.ts.
    at: aboveComments(text, lineStart),
    indent: column,
    step: Math.max(column - parentColumn, 1),
    missing,
  };
}

function columnOf(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return offset - lineStart;
}
