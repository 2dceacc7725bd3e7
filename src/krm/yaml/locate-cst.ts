// The general locator: a full, position-keeping parse with the `yaml` library. Slower (which is
// why locate-lines.ts runs first) but it understands flow mappings, quoted keys and explicit
// nulls. Loaded only when needed, so start-up and the common case never pay for it.
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import { aboveComments, lineAt } from './lines.js';
import loadYaml from './load-yaml.cjs';
import { firstBadKey } from './parse.js';
import type { ListSite, Locator, ScalarStyle, SeqIndent, Site } from './site.js';
import { skip, stop, walkNodes } from './walk-nodes.js';

const styles: Partial<Record<string, ScalarStyle>> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
};

/** Undefined: the text is no YAML a locator may edit. */
let last: { text: string; doc: Document.Parsed | undefined } | undefined;

/** The item's document, parsed once per text: the edits of one item are located in one text. */
function parsed(text: string): Document.Parsed | undefined {
  const { parseDocument } = loadYaml();
  // Duplicate keys found with a set per mapping: the library's check (uniqueKeys) compares each
  // key with every key before it, 2·10⁸ comparisons for one mapping of 20k keys.
  if (last?.text !== text) {
    const doc = parseDocument(text, { uniqueKeys: false });
    last = { text, doc: doc.errors.length > 0 || firstBadKey(doc) !== undefined ? undefined : doc };
  }
  return last.doc;
}

/** The key found: its value node, the mapping holding it, where its key starts and its parent's column. */
interface Reached {
  value: Node | null;
  map: YAMLMap;
  keyStart: number;
  parentColumn: number;
}

/**
 * Walks to `key` in the mapping at `path`: the key's node, or where it is inserted when it (or a
 * mapping on the way) is missing; undefined where the text is beyond an edit.
 */
function reach(
  text: string,
  entry: boolean,
  path: readonly (string | number)[],
  key: string,
): Reached | Site | undefined {
  const { isMap, isScalar, isSeq } = loadYaml();
  const doc = parsed(text);
  if (!doc) return undefined;
  let root: unknown = doc.contents;
  if (entry) root = isSeq(root) && root.items.length === 1 ? root.items[0] : undefined;
  if (!isMap(root)) return undefined;
  let map: YAMLMap = root;
  let parentColumn = -1;
  for (let depth = 0; depth <= path.length; depth++) {
    const name = depth < path.length ? path[depth] : key;
    const missing = path.slice(depth);
    const pair = pairOf(map, name);
    if (!pair) return names(missing) ? insertionSite(text, map, parentColumn, missing) : undefined;
    let value = pair.value as Node | null;
    // A list entry by its position (a reference's name in `env[]`): it must exist.
    for (; typeof path[depth + 1] === 'number'; depth++) {
      if (!isSeq(value)) return undefined;
      value = value.items[path[depth + 1] as number] as Node | null;
    }
    const keyStart = (pair.key as Node).range?.[0] ?? 0;
    if (depth === path.length) return { value, map, keyStart, parentColumn };
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
    const step = stepFrom(column, parentColumn);
    // Right under `key:`, above any comments there (they keep the key below them).
    const at = lineAt(text, keyStart - column).next;
    return { kind: 'lines', at, indent: column + step, step, missing: rest };
  }
  return undefined;
}

/**
 * A mapping's pairs by their scalar keys (the first of a key given twice), made when it is first
 * searched and kept with the parsed document: the edits of one item are located in one text, so
 * n keys looked up in a mapping of m cost m once, not n × m (many annotations added to a flow
 * mapping that holds many).
 */
const pairsByKey = new WeakMap<YAMLMap, Map<unknown, Pair>>();
function pairOf(map: YAMLMap, name: unknown): Pair | undefined {
  let pairs = pairsByKey.get(map);
  if (!pairs) {
    const { isScalar } = loadYaml();
    pairs = new Map();
    for (const pair of map.items) {
      if (isScalar(pair.key) && !pairs.has(pair.key.value)) pairs.set(pair.key.value, pair);
    }
    pairsByKey.set(map, pairs);
  }
  return pairs.get(name);
}

export const locateByCst: Locator = (text, entry, path, key) => {
  const reached = reach(text, entry, path, key);
  if (!reached || 'kind' in reached) return reached;
  const { isAlias, isScalar } = loadYaml();
  const { value, keyStart } = reached;
  if (!(isScalar(value) || isAlias(value)) || !value.range) return undefined;
  const style = isScalar(value) ? styles[value.type ?? ''] : undefined;
  const [start, end] = value.range;
  if (style) return { kind: 'value', start, end, style };
  if (isAlias(value)) return { kind: 'value', start, end, style: 'double' };
  // A block scalar: a multi-line value stays one, at the same indentation (a checksum patch in
  // a post-renderer updated in place); a one-line value is double-quoted. Its range runs on over
  // its last line break and the blank lines after it, which stay.
  const body = text.slice(start, end).replace(/(?:\r?\n[ \t]*)+$/, '');
  const header = text.indexOf('\n', start);
  const column = columnOf(text, keyStart);
  let indent = column + 2;
  for (let at = header + 1; header >= 0 && at < start + body.length; ) {
    const line = lineAt(text, at);
    if (line.end > line.start + line.indent) {
      indent = line.indent;
      break;
    }
    at = line.next;
  }
  const block = { column, indent };
  return { kind: 'value', start, end: start + body.length, style: 'double', block };
};

/**
 * Where an entry appended to the list under `key` goes: after the list's last entry, under a
 * key that holds null or `[]`, or, the key or a mapping on the way missing, where they are
 * inserted. Undefined where the key holds anything else (a mapping, a string, an alias: the
 * caller refuses the edit).
 */
export function locateListByCst(
  text: string,
  entry: boolean,
  path: readonly (string | number)[],
  key: string,
): ListSite | Site | undefined {
  const reached = reach(text, entry, path, key);
  if (!reached || 'kind' in reached) return reached;
  const { isScalar, isSeq } = loadYaml();
  const { value, map, keyStart, parentColumn } = reached;
  const keyColumn = columnOf(text, keyStart);
  // The indentation step of the list's mapping.
  const step = stepFrom(keyColumn, parentColumn);
  const range = value?.range;
  if (isSeq(value) && range && !value.flow) {
    // After the line where the last entry's value ends (and that line's comment): the list's own
    // range runs on to the next key's indentation.
    const lastEnd = contentEnd(value);
    if (lastEnd === undefined) return undefined;
    const dash = columnOf(text, range[0]);
    const seqIndent = dash > keyColumn ? 'wide' : 'compact';
    return { kind: 'append', at: lineEnd(text, lastEnd), dash, step, seqIndent };
  }
  const empty = (isSeq(value) && value.items.length === 0) || isScalar(value) || value === null;
  if (isScalar(value) && value.value !== null) return undefined;
  if (!map.flow && empty) {
    // Null or `[]` in a block mapping: a block list under the key, on the lines after it; the
    // null's or `[]`'s text goes with the spaces before it, a comment after it stays.
    let start = range ? range[0] : keyStart;
    let end = range ? range[1] : keyStart;
    if (!range || range[0] === range[1]) start = end = lineEnd(text, keyStart);
    while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    if (end < start) end = start;
    const seqIndent = seqIndentOf(text);
    const dash = seqIndent === 'wide' ? keyColumn + step : keyColumn;
    return { kind: 'under', start, end, at: lineEnd(text, end), dash, step, seqIndent };
  }
  if (!range) return undefined;
  if (isScalar(value)) return { kind: 'null-flow', start: range[0], end: range[1] };
  if (!isSeq(value)) return undefined;
  const lastItem = value.items.at(-1) as Node | null | undefined;
  const lastEnd = lastItem?.range?.[1];
  if (lastEnd === undefined) {
    const open = text.indexOf('[', range[0]);
    return open < 0 ? undefined : { kind: 'append-flow', at: open + 1, empty: true };
  }
  return { kind: 'append-flow', at: lastEnd, empty: false };
}

/**
 * Where a block collection's text ends: the end of its last scalar or flow collection. The
 * library's ranges of block collections run on over the comments and indentation after them.
 */
function contentEnd(node: Node | null | undefined): number | undefined {
  const { isMap, isScalar, isSeq } = loadYaml();
  if (isSeq(node) && !node.flow) return contentEnd(node.items.at(-1) as Node | null);
  if (isMap(node) && !node.flow) {
    const last = node.items.at(-1);
    const value = last?.value as Node | null | undefined;
    // `key:` with nothing after it: its null has no text.
    const empty = !value || (isScalar(value) && value.range?.[0] === value.range?.[1]);
    return empty ? (last?.key as Node | null)?.range?.[1] : contentEnd(value);
  }
  return node?.range?.[1];
}

/** The start of the line after the one `offset` is on (or `offset` itself, a line start after a break). */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const lf = text.indexOf('\n', offset);
  return lf < 0 ? text.length : lf + 1;
}

/**
 * How the item indents block lists under their keys, as kpt decides it: kyaml derives a
 * resource's `seqindent` from its first block list under a key, compact when there is none
 * (DeriveSeqIndentStyle, kubernetes-sigs/kustomize kyaml/yaml/util.go at 7bd6256f). `- ` right
 * below the key (compact), or a step in (wide).
 */
export function seqIndentOf(text: string): SeqIndent {
  const doc = parsed(text);
  const { isScalar, isSeq } = loadYaml();
  let style: SeqIndent = 'compact';
  if (doc) {
    walkNodes(doc, {
      Pair(pair) {
        const { key, value } = pair;
        if (!isSeq(value) || value.flow || !value.range || !isScalar(key) || !key.range)
          return undefined;
        const dash = columnOf(text, value.range[0]);
        style = dash > columnOf(text, key.range[0]) ? 'wide' : 'compact';
        return stop;
      },
      // Flow mappings hold no block lists.
      Map: (map) => (map.flow ? skip : undefined),
    });
  }
  return style;
}

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
  // Only before a key that starts its own line, or an explicit `? key` entry: not after `- `,
  // so in a list entry (a ResourceList's item) before its second key.
  let lineStart = 0;
  let prefix: string | undefined;
  for (const pair of map.items.slice(0, 2)) {
    const start = (pair.key as Node | null)?.range?.[0];
    if (start === undefined) return undefined;
    lineStart = start - columnOf(text, start);
    prefix = text.slice(lineStart, start);
    if (/^ *(\? +)?$/.test(prefix)) break;
    prefix = undefined;
  }
  if (prefix === undefined) return undefined;
  const column = prefix.length - prefix.trimStart().length;
  return {
    kind: 'lines',
    // Above the comments that head the first key, as in locate-lines.ts.
    at: aboveComments(text, lineStart),
    indent: column,
    step: stepFrom(column, parentColumn),
    missing,
  };
}

/**
 * The indentation step of a mapping whose keys are at `column`, its parent's key at
 * `parentColumn`; at the item's top (no parent, -1) kpt's 2, not the key's column plus one.
 */
const stepFrom = (column: number, parentColumn: number) =>
  parentColumn < 0 ? 2 : Math.max(column - parentColumn, 1);

function columnOf(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return offset - lineStart;
}

/**
 * Where in the item's text an edit of `key` at `path` is, for a message: the key, or the place
 * it would be inserted, or the item's start.
 */
export function whereIs(
  text: string,
  entry: boolean,
  path: readonly (string | number)[],
  key: string,
): number {
  const reached = reach(text, entry, path, key);
  if (!reached) return 0;
  if (!('kind' in reached)) return reached.keyStart;
  return 'at' in reached ? reached.at : reached.start;
}
