// Splits input text into documents and items without parsing YAML. Document markers sit at
// column 0, and no line of an item's content can sit at or left of its `- ` (block scalars and
// multi-line flow content are indented further), so these boundaries are exact for valid YAML.
// Each span is parsed on its own afterwards, and a wrong split fails that parse. The scans walk
// the text by offsets (no per-line objects on multi-megabyte inputs), each line of a document
// once: their cost is the input's length, whatever its shape (`meter` counts it for tests).

import { everyLine, type ScanMeter } from './lines.js';

export interface Span {
  start: number;
  end: number;
}

export interface ItemSpan extends Span {
  /** The item is a `- ` entry of a block sequence (ResourceList items), not a whole document. */
  entry: boolean;
  /**
   * The levels open around it where that is not what `entry` says (see checkItemNesting): an
   * entry of a List that is an item of a ResourceList sits three deep.
   */
  depth?: number;
}

export interface DocumentSpan extends Span {
  /** Has content lines (not only comments, directives and markers). */
  hasContent: boolean;
}

const marker = /^(---|\.\.\.)(?=[ \t]|\r?$)(.*)$/gm;
/** A line that starts content: not blank, a comment, a directive or a document marker. */
const contentLine = /^(?!(?:---|\.\.\.)(?:[ \t]|\r?$))[ \t]*[^\s#%]|^ +%/m;

/**
 * Documents of a YAML stream, each from its `---` line; comment-only ones have no content. Its
 * regular expressions have no nested repetition: each runs in the length of the text it is given,
 * and each document's text is given to them at most twice (counted in `meter`).
 */
export function splitDocuments(text: string, meter?: ScanMeter): DocumentSpan[] {
  const docs: DocumentSpan[] = [];
  let start = 0;
  let inlineContent = false;
  const close = (end: number) => {
    if (meter && !inlineContent) meter.visited += end - start;
    docs.push({
      start,
      end,
      hasContent: inlineContent || contentLine.test(text.slice(start, end)),
    });
  };
  for (const match of text.matchAll(marker)) {
    const at = match.index;
    const rest = (match[2] as string).trim();
    if (match[1] === '...') {
      const next = text.indexOf('\n', at);
      close(next < 0 ? text.length : next + 1);
      start = next < 0 ? text.length : next + 1;
      inlineContent = false;
      continue;
    }
    // Every `---` starts a document; what came before it (even only comments) is one too, so
    // each span holds exactly one document for the parser — except a prefix of comments and
    // directives at the start of the stream or after `...`: the directives belong to this
    // document, and only read with it (a %YAML line alone is no document).
    if (meter) meter.visited += at - start;
    if (at > start && !isPrefix(text.slice(start, at))) {
      close(at);
      start = at;
    }
    // Content on the marker line itself (`--- {a: 1}`, `--- !tag`) counts as content.
    inlineContent = rest !== '' && !rest.startsWith('#');
  }
  if (start < text.length || docs.length === 0) close(text.length);
  if (meter) meter.visited += text.length; // the marker scan
  return docs;
}

const prefixLine = /(?:%[^\n]*|[ \t]*(?:#[^\n]*)?\r?)(?:\n|$)/y;

/** Only blank, comment and directive lines: what may precede a document's `---`. */
function isPrefix(text: string): boolean {
  return everyLine(text.replace(/^\uFEFF/, ''), prefixLine);
}

export interface TopLevelEntry extends Span {
  /** '' for a key this scan does not read (tagged, anchored, aliased or explicit). */
  key: string;
  /** Offset after the key's `:`. */
  valueStart: number;
  /** End of the key's line. */
  lineEnd: number;
  /**
   * The starts of the entry's lines after its key's that start with no space, line break or `#`
   * (a `- ` entry of a sequence at column 0, a marker), found on the way: sequenceItems takes a
   * list at column 0 from them instead of searching its lines again (it passes blank and comment
   * lines there, which are left out so that a run of them costs no memory).
   */
  unindented?: number[];
}

/** A character that can start a plain top-level key (not white space, indicator or quote). */
const plainKeyStart = /[^\s#'"?:,[\]{}&*!|>%@`-]/;

/**
 * Top-level `key:` entries of a block-mapping document, each spanning until the next one. One pass
 * over the document's lines, never past its end: each character is looked at at most twice (once
 * to find its line's end, once if its line is read as a key), so a stream of many documents, or
 * long lines, cost their length (a regular expression here backtracked over runs of spaces and,
 * searching for the next key, ran on to the end of the text once per document).
 */
export function topLevelEntries(text: string, doc: Span, meter?: ScanMeter): TopLevelEntry[] {
  const entries: TopLevelEntry[] = [];
  /** A closing `...` line after the last entry: it belongs to the document, not to the entry. */
  let marker = -1;
  for (let start = doc.start; start < doc.end; ) {
    if (text.charCodeAt(start) === 32) {
      // An indented line opens no key and is no marker: on to the next line that is not indented,
      // in one search (most lines of a ResourceList are its items', all indented).
      const found = nextShallow(text, start, doc.end, 0);
      if (meter) meter.visited += found - start;
      start = found;
      continue;
    }
    const lf = text.indexOf('\n', start);
    const lineBreak = lf < 0 || lf > doc.end ? doc.end : lf;
    const next = lineBreak < doc.end ? lineBreak + 1 : doc.end;
    if (meter) meter.visited += next - start;
    // A tagged, anchored, aliased or explicit key (`! k: v`, `&a k: v`, `? k`) is an entry to
    // YAML that keyAt does not read: it ends the one before (which would otherwise take it in,
    // and the results' replacement drop it: FUZZ_SEED=32261126), under no key of ours.
    const found =
      keyAt(text, start, lineBreak, meter) ??
      (entries.length > 0 && '!&*?'.includes(text[start] as string)
        ? { key: '', valueStart: start }
        : undefined);
    if (found) {
      const previous = entries[entries.length - 1];
      if (previous) previous.end = start;
      entries.push({
        key: found.key,
        start,
        end: doc.end,
        valueStart: found.valueStart,
        lineEnd: text.charCodeAt(lineBreak - 1) === 13 ? lineBreak - 1 : lineBreak,
      });
      marker = -1;
    } else if (entries.length > 0) {
      const c = text.charCodeAt(start);
      if (c !== 10 && c !== 13 && c !== 35) {
        const last = entries[entries.length - 1] as TopLevelEntry;
        if (last.unindented === undefined) last.unindented = [start];
        else last.unindented.push(start);
      }
      if (marker < 0 && isEndMarker(text, start, doc.end)) marker = start;
    }
    start = next;
  }
  const last = entries[entries.length - 1];
  if (last && marker >= 0) last.end = marker;
  return entries;
}

/**
 * By indentation n: a line break not followed by more than n spaces, matched alone (lastIndex is
 * the next line's start). Made once per indentation searched: 0 (top-level keys) and the
 * indentation of the input's list of items.
 */
const shallowLine: RegExp[] = [];

/**
 * The start of the first line after the one `from` is on that starts with at most `indent`
 * spaces, or `end`. The search may look past `end` only up to a line indented less than the
 * lines it passes: a document, an entry or a list ends before one (a marker, a top-level key),
 * or at the end of the text.
 */
function nextShallow(text: string, from: number, end: number, indent: number): number {
  let shallow = shallowLine[indent];
  if (shallow === undefined) {
    shallow = new RegExp(`\\n(?= {0,${indent}}(?! ))`, 'g');
    shallowLine[indent] = shallow;
  }
  shallow.lastIndex = from;
  // test, not exec: no match object per search.
  return shallow.test(text) ? Math.min(shallow.lastIndex, end) : end;
}

/** `...` at a line start, then white space, a comment or the end: a document end marker. */
function isEndMarker(text: string, at: number, end: number): boolean {
  if (!text.startsWith('...', at)) return false;
  return at + 3 >= end || ' \t\r\n#'.includes(text[at + 3] as string);
}

/** `:` followed by white space or the end of the text: the indicator after a key. */
function isKeyColon(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 58) return false;
  const after = text.charCodeAt(at + 1);
  return at + 1 >= text.length || after === 32 || after === 9 || after === 13 || after === 10;
}

/**
 * The key the line from `start` to `end` (its line break) opens at column 0, and the offset after
 * its `:`; undefined when the line opens none. Keys are plain (up to the first `: `, without a
 * ` #` comment before it, trailing blanks trimmed), single-quoted (no `''` escape) or
 * double-quoted (JSON's escapes decoded).
 */
function keyAt(
  text: string,
  start: number,
  end: number,
  meter: ScanMeter | undefined,
): { key: string; valueStart: number } | undefined {
  const c = text[start];
  if (c === undefined || start >= end) return undefined;
  let i = start + 1;
  let key: string;
  if (c === '"') {
    for (; i < end && text[i] !== '"'; i++) {
      // A backslash escapes the next character, but not a line break.
      if (text[i] === '\\' && (++i >= end || '\r\u2028\u2029'.includes(text[i] as string)))
        return undefined;
    }
    if (i >= end) return undefined;
    key = decodeDoubleQuoted(text.slice(start + 1, i));
  } else if (c === "'") {
    while (i < end && text[i] !== "'") i++;
    if (i >= end) return undefined;
    key = text.slice(start + 1, i);
  } else if (plainKeyStart.test(c)) {
    for (; i < end && !isKeyColon(text, i); i++) {
      if (text[i] === '#' && text[i - 1] === ' ') return undefined; // a comment
    }
    if (meter) meter.visited += i - start;
    if (i >= end) return undefined;
    let keyEnd = i;
    while (text[keyEnd - 1] === ' ' || text[keyEnd - 1] === '\t') keyEnd--;
    return { key: text.slice(start, keyEnd), valueStart: i + 1 };
  } else return undefined;
  // After a quoted key: blanks, then the `:`.
  i++;
  while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
  if (meter) meter.visited += i - start;
  return i < end && isKeyColon(text, i) ? { key, valueStart: i + 1 } : undefined;
}

export class SpanError extends Error {}

/**
 * A document end (`...`) or start (`---`) marker, tried at one offset (sticky): made once, as a
 * literal is a new object per evaluation, and on the text itself, not a slice of it per entry.
 */
const markerAt = /(?:\.\.\.|---)(?:\s|$)/y;

/**
 * The `- ` entries of a block sequence that is the value of `entry`. One pass over its lines:
 * the first line with content sets the entries' indentation; lines indented further belong to
 * the entry above them.
 */
export function sequenceItems(text: string, entry: TopLevelEntry, meter?: ScanMeter): ItemSpan[] {
  const items: ItemSpan[] = [];
  const keyLineEnd = text.indexOf('\n', entry.lineEnd);
  if (keyLineEnd < 0) return items;
  let indent = -1;
  // A list at column 0 (kpt's): the lines that may start or end an entry are the entry's
  // unindented lines but blank and comment lines, which topLevelEntries listed; `listed` is the
  // first not before the line read.
  const { unindented } = entry;
  let listed = 0;
  for (let lineStart = keyLineEnd + 1; lineStart < entry.end; ) {
    if (indent >= 0) {
      // Lines indented past the entries (or blank) are in the entry above: on to the next line
      // that is not, in one search from this line's line break (most lines of a list are its
      // entries' content). It stops at the line that ends the list at the latest (a top-level key,
      // a marker: not indented), so it stays within the list.
      let next: number;
      if (indent === 0 && unindented !== undefined) {
        while (listed < unindented.length && (unindented[listed] as number) < lineStart) listed++;
        next = Math.min(unindented[listed] ?? entry.end, entry.end);
      } else {
        next = nextShallow(text, lineStart - 1, entry.end, indent);
        if (meter) meter.visited += next - lineStart;
      }
      if (next > lineStart) {
        lineStart = next;
        continue;
      }
    }
    const lf = text.indexOf('\n', lineStart);
    const next = lf < 0 || lf >= entry.end ? entry.end : lf + 1;
    const from = lineStart;
    lineStart = next;
    let at = from;
    while (at < next && text.charCodeAt(at) === 32) at++;
    if (meter) meter.visited += next - from;
    const c = text[at];
    if (at >= next || c === '\n' || c === '\r') continue; // blank
    // Before the first entry, comments (and lines a tab starts, which the envelope's parse judges).
    if (indent < 0) {
      if (c === '#' || c === '\t') continue;
      indent = at - from;
    }
    if (at - from > indent || c === '#') continue;
    // A document end (`...`) or start (`---`) marker ends the list with the document.
    markerAt.lastIndex = from;
    if (markerAt.test(text)) {
      const last = items[items.length - 1];
      if (last) last.end = from;
      break;
    }
    const after = text[at + 1];
    const isEntry =
      at - from === indent &&
      c === '-' &&
      (after === ' ' || after === '\t' || after === '\n' || after === '\r' || after === undefined);
    if (!isEntry) throw new SpanError(`${entry.key} must be a block sequence of mappings`);
    const previous = items[items.length - 1];
    if (previous) previous.end = from;
    items.push({ start: from, end: entry.end, entry: true });
  }
  return items;
}

/** A double-quoted YAML key's text (JSON's escapes are a subset of YAML's; others stay raw). */
function decodeDoubleQuoted(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
