// The fast locator: finds block-style keys by exact indentation, line by line. It handles the
// layout kpt, kustomize and Helm print; on anything else (flow mappings, anchors, tags, quoted
// keys with escapes, multi-line values) it answers `undefined` and the caller falls back to the
// full YAML parser in locate-cst.ts.
import { aboveComments, indentAt, isSequenceEntry, lineAfter, textEnd } from './lines.js';
import { isPlainLayout } from './plain-layout.js';
import type { Locator, ScalarStyle, SeqIndent, Site } from './site.js';

interface Mapping {
  /** Scan from here (a line start). */
  from: number;
  /**
   * Where the line at `from` has its first character that is not a space, and its line break
   * (-1: none): whoever found the line read both, and findKey does not read them again.
   */
  fromFirst: number;
  fromBreak: number;
  indent: number;
  /** Indent of the parent mapping, for the indentation step of inserted lines. */
  parentIndent: number;
  /** The first line is a `- ` entry whose content starts at `indent`. */
  entryLine?: number;
}

export const locateByLines: Locator = (text, entry, path, key) => {
  // List entries (a reference's name in `env[]`) are the full parser's.
  if (!onlyKeys(path)) return undefined;
  reached = 0;
  const root = rootMapping(text, entry);
  const site = root && locateIn(text, root, path, key);
  if (site) site.reach = reached < 0 ? text.length : nextOf(text, reached);
  return site;
};

/**
 * The sites of several keys of the mapping at `path`, each as locateByLines finds it alone, with
 * one read of the way there and of the mapping: n keys of one mapping cost its lines once, not n
 * times (many annotations added to one item). Every site's reach is the furthest line read for
 * any of them.
 */
export function locateKeysByLines(
  text: string,
  entry: boolean,
  path: readonly (string | number)[],
  keys: readonly string[],
): (Site | undefined)[] {
  const sites: (Site | undefined)[] = new Array(keys.length).fill(undefined);
  if (!onlyKeys(path)) return sites;
  reached = 0;
  const root = rootMapping(text, entry);
  const into = root && walk(text, root, path);
  if (into === root && root) {
    const wanted = new Wanted(keys);
    const end = findKey(text, root, wanted);
    let missing: Site | undefined;
    for (let i = 0; i < keys.length; i++) {
      const found = wanted.found[i];
      if (found !== undefined) sites[i] = scalarSite(text, found, root.indent);
      else if (end !== undefined) sites[i] = missing ??= keySite(text, root, null);
    }
  } else sites.fill(into as Site | undefined);
  const reach = reached < 0 ? text.length : nextOf(text, reached);
  for (const site of sites) if (site) site.reach = reach;
  return sites;
}

/**
 * The keys a read of one mapping looks for: where each one's value starts once found (a key
 * given twice: its first).
 */
class Wanted {
  readonly found: (number | undefined)[];
  private readonly index = new Map<string, number[]>();
  private left = 0;

  constructor(keys: readonly string[]) {
    this.found = new Array(keys.length).fill(undefined);
    keys.forEach((key, i) => {
      const same = this.index.get(key);
      if (same) same.push(i);
      else {
        this.index.set(key, [i]);
        this.left++;
      }
    });
  }

  /** The key from lineKeyStart to lineKeyEnd, its value at `valueStart`: whether it was the last one missing. */
  take(text: string, valueStart: number): boolean {
    const same = this.index.get(text.slice(lineKeyStart, lineKeyEnd));
    if (!same || this.found[same[0] as number] !== undefined) return false;
    for (const i of same) this.found[i] = valueStart;
    return --this.left === 0;
  }
}

/**
 * The start of the furthest line the current locate has read (-1: it read to the end). Lines
 * are read forwards from the top, and what lies past this line does not change what they are
 * (Site's `reach`).
 */
let reached = 0;
const readTo = (lineStart: number) => {
  if (lineStart < 0 || reached < 0) reached = -1;
  else if (lineStart > reached) reached = lineStart;
};

/**
 * A `---` line with nothing after it, matched in place (sticky, from lastIndex: no copy of the
 * line per peek); made once (a literal is a new object per evaluation).
 */
const documentStart = /---[ \t]*(?:#.*)?(?=\r?\n|$)/y;

/**
 * Whether every step is a key. A loop: a callback is a new function object per edit where the
 * optimising compiler does not inline (`--no-turbo-inlining` on large inputs, main.ts).
 */
function onlyKeys(path: readonly (string | number)[]): path is readonly string[] {
  for (let i = 0; i < path.length; i++) if (typeof path[i] !== 'string') return false;
  return true;
}

/**
 * The one Mapping every locate reads into: a read moves it along its path and no site keeps it,
 * so a new object per read (two peeks per item, one per edit) is garbage at once.
 */
const top: Mapping = {
  from: 0,
  fromFirst: 0,
  fromBreak: -1,
  indent: 0,
  parentIndent: 0,
  entryLine: undefined,
};
/** The mapping from the line firstContentLine found last, its first character at `first`. */
function mappingAt(
  from: number,
  first: number,
  indent: number,
  parentIndent: number,
  entryLine?: number,
) {
  top.from = from;
  top.fromFirst = first;
  top.fromBreak = contentLineBreak;
  top.indent = indent;
  top.parentIndent = parentIndent;
  top.entryLine = entryLine;
  return top;
}

/** The item's top mapping: after `- ` for a list entry, else the document's first line. */
function rootMapping(text: string, entry: boolean): Mapping | undefined {
  let first = firstContentLine(text, 0);
  if (first < 0) return undefined;
  if (!entry) {
    // A document starts with its `---` line; content on that line is beyond this locator.
    documentStart.lastIndex = first;
    if (documentStart.test(text)) {
      first = firstContentLine(text, nextOf(text, first));
    }
    // Directives (`%YAML`) before the marker: beyond this locator too.
    if (
      first < 0 ||
      text.startsWith('---', first) ||
      text.startsWith('...', first) ||
      text.startsWith('%', first)
    ) {
      return undefined;
    }
    const indent = contentIndent;
    return mappingAt(first, first + indent, indent, indent - 2);
  }
  const end = textEnd(text, first, contentLineBreak);
  const indent = contentIndent;
  const at = first + indent;
  if (!isSequenceEntry(text, at, end)) return undefined;
  let col = at + 1;
  while (col < end && text.charCodeAt(col) === 32) col++;
  if (col < end && text[col] !== '#') {
    return mappingAt(first, at, col - first, indent, first);
  }
  // `-` or `- # comment` alone on its line: the mapping starts on the next content line.
  const next = firstContentLine(text, nextOf(text, first));
  if (next < 0 || contentIndent <= indent) return undefined;
  return mappingAt(next, next + contentIndent, contentIndent, indent);
}

/** A block scalar's header after `key: ` or `- ` (sticky), to its line's end. */
const blockHeader = /[|>][-+1-9]{0,2}(?: +#[^\n]*)?(?=\r?\n|$)/y;

/**
 * How the item indents block lists under their keys, as locate-cst.ts seqIndentOf reads it (kpt's
 * rule: the first block list under a key), read by lines where every content line is one this
 * reading knows: `key:` with a value, a comment or nothing after it; `- ` before one, or before a
 * one-line scalar; a block scalar's text. In plain layout only (no multi-line quotes or flow,
 * no anchors or tags). Undefined for anything else, which the full parser decides: an entry
 * appended under a missing key costs no parse of the item where the text is the usual layout.
 */
export function seqIndentByLines(text: string): SeqIndent | undefined {
  if (text.includes('\t') || !isPlainLayout(text)) return undefined;
  /** The column of the key on the line before, with nothing after its `:` (-1: none). */
  let holder = -1;
  /** The column a block scalar's lines are deeper than (-1: none). */
  let scalar = -1;
  let first = true;
  for (let pos = 0; pos < text.length; ) {
    const start = pos;
    const lf = text.indexOf('\n', start);
    const end = textEnd(text, start, lf);
    pos = lineAfter(text, lf);
    const indent = indentAt(text, start);
    let at = start + indent;
    if (at === end || (scalar >= 0 && indent > scalar)) continue;
    scalar = -1;
    if (text.charCodeAt(at) === 35) continue; // a comment
    if (first) {
      first = false;
      documentStart.lastIndex = start;
      if (documentStart.test(text)) continue;
    }
    let dash = -1;
    while (at < end && isSequenceEntry(text, at, end)) {
      dash = at - start;
      at++;
      while (text.charCodeAt(at) === 32) at++;
    }
    if (holder >= 0) {
      // The key's value: a list right below it or a step in; else null, or a mapping.
      if (dash >= 0 && indent >= holder) return indent > holder ? 'wide' : 'compact';
      holder = -1;
    }
    if (at >= end || text.charCodeAt(at) === 35) continue; // `-` alone, or before a comment
    blockHeader.lastIndex = at;
    if (dash >= 0 && blockHeader.test(text)) {
      scalar = dash;
      continue;
    }
    const colon = keyAt(text, at, end);
    if (colon === undefined) {
      // A scalar entry on its one line (what follows deeper would be beyond this reading).
      if (dash >= 0 && !'?:&*!{[|>%@`\'"'.includes(text[at] as string)) continue;
      return undefined;
    }
    let value = colon + 1;
    while (text.charCodeAt(value) === 32) value++;
    blockHeader.lastIndex = value;
    if (value >= end || text.charCodeAt(value) === 35) holder = at - start;
    else if (blockHeader.test(text)) scalar = at - start;
  }
  return 'compact';
}

/**
 * A one-line scalar at `path` + `key` read without parsing the item (for example `kind`), or
 * `undefined` when the layout is beyond this locator.
 */
export function peekScalar(
  text: string,
  entry: boolean,
  path: readonly string[],
  key: string,
): string | undefined {
  const root = rootMapping(text, entry);
  const site = root && locateIn(text, root, path, key);
  if (site?.kind !== 'value') return undefined;
  const raw = text.slice(site.start, site.end);
  if (site.style === 'single') return raw.slice(1, -1).replaceAll("''", "'");
  if (site.style === 'double') return raw.includes('\\') ? undefined : raw.slice(1, -1);
  return raw;
}

/** The site of `key` at `path`, from the item's top `mapping` (moved along the path as it goes). */
function locateIn(
  text: string,
  mapping: Mapping,
  path: readonly string[],
  key: string,
): Site | undefined {
  const into = walk(text, mapping, path);
  return into === mapping ? keySite(text, mapping, findKey(text, mapping, key)) : (into as Site);
}

/**
 * `mapping` moved to the mapping at `path` (the same object), or, where the path ends before it,
 * the site every key there goes to (mappings missing, or `key:` with nothing under it), or
 * undefined where a line is beyond this locator.
 */
function walk(text: string, mapping: Mapping, path: readonly string[]): Mapping | Site | undefined {
  for (let depth = 0; depth < path.length; depth++) {
    const found = findKey(text, mapping, path[depth] as string);
    if (found === undefined) return undefined;
    const step = Math.max(mapping.indent - mapping.parentIndent, 1);
    if (found === null) {
      const insertAt = firstEntryStart(text, mapping);
      if (insertAt === undefined) return undefined;
      return linesSite(insertAt, mapping.indent, step, path.slice(depth));
    }
    // `found` is on the key's line, whose break findKey found (keyLineBreak), as firstContentLine
    // the child's (contentLineBreak): the lines' ends are not searched again.
    const keyNext = lineAfter(text, keyLineBreak);
    if (!onlyComment(text, found, textEnd(text, found, keyLineBreak))) return undefined;
    const keyIndent = mapping.indent;
    const child = firstContentLine(text, keyNext);
    const childIndent = child < 0 ? -1 : contentIndent;
    const nested = childIndent >= keyIndent;
    if (
      nested &&
      isSequenceEntry(text, child + childIndent, textEnd(text, child, contentLineBreak))
    )
      return undefined;
    if (!nested || childIndent === keyIndent) {
      // `key:` with nothing under it is null: start its mapping on the next line (above any
      // comments there, which so keep the key below them).
      const missing = path.slice(depth + 1);
      return linesSite(keyNext, keyIndent + step, step, missing);
    }
    // The mapping read so far is done with: it becomes its child, no new object per step.
    mapping.from = child;
    mapping.fromFirst = child + childIndent;
    mapping.fromBreak = contentLineBreak;
    mapping.indent = childIndent;
    mapping.parentIndent = keyIndent;
    mapping.entryLine = undefined;
  }
  return mapping;
}

/** A key's site in `mapping`, as findKey found it (null: missing, inserted before its first key). */
function keySite(text: string, mapping: Mapping, found: number | null | undefined) {
  if (found === undefined) return undefined;
  if (found === null) {
    const at = firstEntryStart(text, mapping);
    if (at === undefined) return undefined;
    const step = Math.max(mapping.indent - mapping.parentIndent, 1);
    return linesSite(at, mapping.indent, step, noneMissing);
  }
  return scalarSite(text, found, mapping.indent);
}

/**
 * A site made with its `reach` (set by locateByLines): a property added to an object after it
 * is made moves to a store of its own, one more allocation per edit.
 */
function linesSite(at: number, indent: number, step: number, missing: readonly string[]): Site {
  return { kind: 'lines', at, indent, step, missing, reach: 0 };
}
/** One empty path for every site in the mapping it is found in (sites are not changed). */
const noneMissing: readonly string[] = [];

// Lines are read by offsets (lines.ts), without building a Line: the locator runs for every edit
// and, through peekScalar, several times on every item read.

/**
 * The line break after the line firstContentLine last found (-1: none, the text's end), and its
 * indentation: its callers read both without reading the line again.
 */
let contentLineBreak = -1;
let contentIndent = 0;

/** The start of the first line from `from` (a line start) that is neither blank nor a comment, or -1. */
function firstContentLine(text: string, from: number): number {
  for (let pos = from; pos < text.length; ) {
    const lf = text.indexOf('\n', pos);
    const indent = indentAt(text, pos);
    const first = pos + indent;
    if (first < textEnd(text, pos, lf) && text.charCodeAt(first) !== 35) {
      contentLineBreak = lf;
      contentIndent = indent;
      readTo(pos);
      return pos;
    }
    pos = lineAfter(text, lf);
  }
  readTo(-1);
  return -1;
}

/** The end of the text of the line `start` is on, before its `\r\n` or `\n`. */
const endOf = (text: string, start: number) => textEnd(text, start, text.indexOf('\n', start));

/** The start of the line after the one `start` is on (or the text's length). */
const nextOf = (text: string, start: number) => lineAfter(text, text.indexOf('\n', start));

/**
 * Where new entries go: before the mapping's first key, above the comments that head it, so each
 * comment stays directly above the key it was above (never on a `- ` line).
 */
function firstEntryStart(text: string, mapping: Mapping): number | undefined {
  if (mapping.entryLine !== undefined) return undefined;
  // A content line, read before: its keys' start.
  return aboveComments(text, mapping.from);
}

/** The line break after the key findKey last found (-1: none, the text's end). */
let keyLineBreak = -1;

/**
 * Where the value of `key` in the mapping starts (just after its `:`): `null` when the mapping
 * ends without it, `undefined` when a line is beyond this locator (the caller falls back). Keys
 * `Wanted`: each found is recorded there, and the read ends when the last is (a number), at the
 * mapping's end (null) or at a line beyond this locator (undefined: the keys not found by then
 * are beyond it too).
 */
function findKey(text: string, mapping: Mapping, key: string | Wanted): number | null | undefined {
  const { indent: keyIndent, entryLine } = mapping;
  for (let pos = mapping.from; pos < text.length; ) {
    const start = pos;
    // Most lines are deeper than the mapping's keys, and any such line (blank, comment or
    // content) is passed over: for them, the spaces are counted to one past the keys' column
    // (not the whole indentation: a block scalar's or a pod template's lines are deep) and the
    // next line found, no more (no call per line: the optimising compiler does not inline here,
    // main.ts).
    const deep = start + keyIndent;
    let first = start;
    let lf: number;
    if (start === mapping.from) {
      // The mapping's first line, whose indentation and end were read finding it.
      first = mapping.fromFirst;
      lf = mapping.fromBreak;
    } else {
      while (first <= deep && text.charCodeAt(first) === 32) first++;
      lf = text.indexOf('\n', first);
    }
    pos = lf < 0 ? text.length : lf + 1;
    if (first > deep && start !== entryLine) continue;
    const indent = start === entryLine ? keyIndent : first - start;
    const end = textEnd(text, start, lf);
    // Each character read once here and handed on: a `charCodeAt` on an item's text (a slice of
    // the input) is ≈35–50 instructions (docs/performance.md, session 16).
    const c = text.charCodeAt(first);
    if (first === end || c === 35) continue; // blank or comment
    if (indent < keyIndent) {
      readTo(start);
      return null;
    }
    const at = start + indent;
    const code = at === first ? c : text.charCodeAt(at);
    // A compact list under the previous key.
    if (code === 45 && isSequenceEntry(text, at, end)) continue;
    const colon = keyAt(text, at, end, code);
    if (colon === undefined) return undefined;
    const matched =
      typeof key === 'string'
        ? lineKeyEnd - lineKeyStart === key.length && text.startsWith(key, lineKeyStart)
        : key.take(text, colon + 1);
    if (matched) {
      keyLineBreak = lf;
      readTo(start);
      return colon + 1;
    }
  }
  readTo(-1);
  return null;
}

/**
 * Where the key of the line at `at` (to `end`) stands, in lineKeyStart and lineKeyEnd, for a
 * comparison in place (most lines hold other keys: nothing is sliced for them): the offset of
 * its `:`, or `undefined` when the key is beyond this locator.
 */
let lineKeyStart = 0;
let lineKeyEnd = 0;
/** By char code, 1 for a character a plain key cannot start with here (`?&*!{[|>%@\`#`). */
const keyIndicators = new Uint8Array(128);
for (const c of '?&*!{[|>%@`#') keyIndicators[c.charCodeAt(0)] = 1;
function keyAt(
  text: string,
  at: number,
  end: number,
  /** The character at `at`, where the caller has read it. */
  code = text.charCodeAt(at),
): number | undefined {
  // By char code: no one-character string and search per line (no call is inlined, main.ts).
  let keyStart: number;
  let keyEnd: number;
  let pos: number;
  if (code === 34 || code === 39) {
    const c = code === 34 ? '"' : "'";
    const close = text.indexOf(c, at + 1);
    if (close < 0 || close >= end) return undefined;
    if (c === "'" && text[close + 1] === "'") return undefined;
    for (let i = at + 1; i < close; i++) if (text.charCodeAt(i) === 92) return undefined; // `\`
    keyStart = at + 1;
    keyEnd = close;
    pos = close + 1;
    while (text[pos] === ' ') pos++;
    if (text[pos] !== ':') return undefined;
  } else {
    if (at >= text.length || keyIndicators[code] === 1) return undefined;
    pos = at;
    for (;;) {
      pos = text.indexOf(':', pos);
      if (pos < 0 || pos >= end) return undefined;
      const after = text.charCodeAt(pos + 1);
      if (pos + 1 >= end || after === 32 || after === 9) break;
      pos++;
    }
    keyStart = at;
    // The key is trimmed at its end: a printable ASCII character before the `:` needs no trim.
    const last = text.charCodeAt(pos - 1);
    keyEnd =
      pos === at || (last > 32 && last < 127) ? pos : at + text.slice(at, pos).trimEnd().length;
    for (let i = at; i + 1 < keyEnd; i++) {
      if (text.charCodeAt(i) === 32 && text.charCodeAt(i + 1) === 35) return undefined; // ` #`
    }
  }
  lineKeyStart = keyStart;
  lineKeyEnd = keyEnd;
  return pos;
}

/** Nothing but white space (as `trim` sees it) and a comment from `from` to `to`. */
function onlyComment(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (i === to || text.charCodeAt(i) === 35) return true;
  const rest = text.slice(i, to).trim(); // rare: other white space
  return rest === '' || rest.startsWith('#');
}

/** The annotation's value, if it is a one-line scalar with nothing continuing it. */
function scalarSite(text: string, valueStart: number, indent: number): Site | undefined {
  const lineEnd = endOf(text, valueStart);
  let start = valueStart;
  // Separation is spaces or tabs (matchKey accepts either after the `:`): a tab left in the
  // value would be replaced with it, joining the key and the new value into one scalar.
  while (start < lineEnd && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) {
    start++;
  }
  const c = text[start];
  let end: number;
  let style: ScalarStyle;
  if (c === '"') {
    end = start + 1;
    while (end < lineEnd && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    if (end >= lineEnd) return undefined;
    end++;
    style = 'double';
  } else if (c === "'") {
    end = start + 1;
    for (;;) {
      end = text.indexOf("'", end);
      if (end < 0 || end >= lineEnd) return undefined;
      if (text[end + 1] !== "'") break;
      end += 2;
    }
    end++;
    style = 'single';
  } else {
    if (c === undefined || start >= lineEnd || '|>&*!{[#%@`'.includes(c)) return undefined;
    end = lineEnd;
    for (let i = start; i + 1 < lineEnd; i++) {
      const ws = text.charCodeAt(i);
      if ((ws === 32 || ws === 9) && text.charCodeAt(i + 1) === 35) {
        end = i; // a comment
        break;
      }
    }
    while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9))
      end--;
    style = 'plain';
  }
  if (!onlyComment(text, end, lineEnd)) return undefined;
  const next = firstContentLine(text, nextOf(text, valueStart));
  if (next >= 0 && contentIndent > indent) return undefined; // a continuation line
  return { kind: 'value', start, end, style, reach: 0 };
}
