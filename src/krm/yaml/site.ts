// Where in an item's text an edit goes, as found by a locator, and what is written there. Every
// site is either the span of an existing value to replace, or a point to insert at: nothing else
// is rewritten. A key's value is a string (MappingEdit) or, for an appended list entry
// (ListEntryEdit), the list holding it: written as block YAML, as flow YAML inside flow
// collections, as JSON in a JSON document.
import { isObject, type Json } from '../../model/json.js';

export type ScalarStyle = 'plain' | 'single' | 'double';

export type Site =
  /**
   * The key exists: replace its value, keeping the quoting style; `block`: it is a block scalar
   * whose key is at `column`, its lines at `indent`, which a multi-line value stays.
   */
  (
    | {
        kind: 'value';
        start: number;
        end: number;
        style: ScalarStyle;
        block?: { column: number; indent: number };
      }
    /** Insert block lines at a line start: `missing` mappings, then the annotation. */
    | { kind: 'lines'; at: number; indent: number; step: number; missing: readonly string[] }
    /** Insert into a flow mapping right after its `{`. */
    | { kind: 'flow'; at: number; empty: boolean; missing: readonly string[] }
    /** Replace an explicit null (`~`, `null`) with a flow mapping. */
    | { kind: 'null'; start: number; end: number; missing: readonly string[] }
  ) & {
    /**
     * Set by the line locator: the start of the line after the last line it read (or the text's
     * length). Its reading is the parser's where the lines before that are plain layout.
     */
    reach?: number;
  };

/** Where an entry appended to a list that is there (or whose key is, with no list) goes. */
export type ListSite =
  /** After the last entry of a block list: `- ` lines at `dash`, at a line start. */
  | { kind: 'append'; at: number; dash: number; step: number; seqIndent: SeqIndent }
  /** Into a flow list (or a JSON array) after its last entry, or right after its `[`. */
  | { kind: 'append-flow'; at: number; empty: boolean }
  /**
   * The key holds null or `[]` (`start`..`end`, empty for `key:`) in a block mapping: that goes,
   * and a block list starts on the next line (`at`), its dashes at `dash`.
   */
  | {
      kind: 'under';
      start: number;
      end: number;
      at: number;
      dash: number;
      step: number;
      seqIndent: SeqIndent;
    }
  /** The key holds null in a flow mapping (or a JSON document): replaced by the new list. */
  | { kind: 'null-flow'; start: number; end: number };

/** How a new block list indents its `- ` under its key: kpt's `seqindent` compact or wide. */
export type SeqIndent = 'compact' | 'wide';

/** Finds the site for `key` in the mapping at `path` (a number: an existing list entry). */
export type Locator = (
  itemText: string,
  entry: boolean,
  path: readonly (string | number)[],
  key: string,
) => Site | undefined;

/** What a key is set to: a string, or a list (the list an entry is appended to, made new). */
export type NewValue = string | { list: Json[]; seqIndent: SeqIndent };

/** What a site changes: `text` replaces `start`..`end` of the item's text (an insertion if equal). */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

export function spliceAt(
  text: string,
  site: Site,
  key: string,
  value: NewValue,
  lineBreak: string,
  /** The item is a JSON document (jsonStyleOf): what is inserted is JSON too. */
  json?: JsonStyle,
): Splice {
  if (json && site.kind !== 'lines')
    return jsonSplice(text, site, [{ key, value }], lineBreak, json);
  switch (site.kind) {
    case 'value': {
      // Only a string replaces a value: a list entry's site is a ListSite.
      const string = value as string;
      const { block } = site;
      if (!block || !literalFits(string)) {
        return { start: site.start, end: site.end, text: formatScalar(string, site.style) };
      }
      blockLiteral(insertedLines, string, indentation(block.indent), lineBreak, block.column);
      return { start: site.start, end: site.end, text: insertedLines.take() };
    }
    case 'lines': {
      // Mixed line endings: use the one of the line the new lines follow (or precede).
      lineBreak = localLineBreak(text, site.at, lineBreak);
      linesHead(text, site, lineBreak);
      keyLine(text, site, key, value, lineBreak, false);
      return { start: site.at, end: site.at, text: insertedLines.take() };
    }
    case 'flow':
    case 'null':
      return flowSplice(site, flowEntry(key, value));
  }
}

/** A site that inserts new keys: block lines, or entries of a flow mapping. */
export type InsertSite = Extract<Site, { kind: 'lines' | 'flow' | 'null' }>;
type LinesSite = Extract<Site, { kind: 'lines' }>;
type FlowSite = Extract<Site, { kind: 'flow' | 'null' }>;

/** One key set by an edit, with its new value. */
export interface NewKey {
  key: string;
  value: NewValue;
}

/**
 * Several keys inserted at one site, as one edit after another would insert them: each goes in
 * before the mapping's first key, or right after its `{`, so the last of `keys` comes first. Made at once, they cost their own length, where one edit after another
 * copies the whole item each time. Each block line but the last is followed by a key of the same
 * mapping, which ends a block scalar written on it (the caller passes keys that are plain words,
 * the one layout it merges).
 */
export function keysSplice(
  text: string,
  site: InsertSite,
  keys: readonly NewKey[],
  lineBreak: string,
  /** The item is a JSON document: a mapping that has keys gets them in its layout. */
  json?: JsonStyle,
): Splice {
  if (site.kind !== 'lines') {
    const top = [...keys].reverse();
    if (json) return jsonSplice(text, site, top, lineBreak, json);
    return flowSplice(site, top.map(({ key, value }) => flowEntry(key, value)).join(', '));
  }
  lineBreak = localLineBreak(text, site.at, lineBreak);
  linesHead(text, site, lineBreak);
  for (let i = keys.length - 1; i >= 0; i--) {
    const { key, value } = keys[i] as NewKey;
    keyLine(text, site, key, value, lineBreak, i > 0);
  }
  return { start: site.at, end: site.at, text: insertedLines.take() };
}

/**
 * The start of what a `lines` site inserts, into insertedLines (taken once its key lines are
 * added): a line break where it follows a last line without one, and the mappings missing on
 * the way. Pieces joined once: the text is kept until it is written, one flat string rather
 * than a tree of its pieces (ARCHITECTURE.md, Memory), and no string per line on the way.
 */
function linesHead(text: string, site: LinesSite, lineBreak: string): void {
  const { missing, indent, step } = site;
  const out = insertedLines;
  if (needsBreak(text, site.at)) out.add(lineBreak);
  for (let depth = 0; depth < missing.length; depth++) {
    out.add(indentation(indent + depth * step));
    out.scalar(missing[depth] as string, 'plain');
    out.add(':');
    out.add(lineBreak);
  }
}

/**
 * One key's line (or lines) at a `lines` site, below the missing mappings; `keyFollows`: the next
 * line is another key of its mapping, else the site's own text follows.
 */
function keyLine(
  text: string,
  site: LinesSite,
  key: string,
  value: NewValue,
  lineBreak: string,
  keyFollows: boolean,
): void {
  const out = insertedLines;
  const { step } = site;
  const pad = indentation(site.indent + site.missing.length * step);
  if (typeof value !== 'string') {
    out.add(pad);
    out.add(formatKey(key));
    out.add(':');
    new BlockWriter(out, step, value.seqIndent, lineBreak).pair(value.list, pad.length);
  } else if (literalFits(value) && (keyFollows || endsBlock(text, site.at, pad.length + step))) {
    out.add(pad);
    out.add(key);
    out.add(': ');
    blockLiteral(out, value, indentation(pad.length + step), lineBreak, pad.length);
  } else {
    // One line, or lines a block cannot hold exactly (literalFits) or that what follows
    // them would continue: double-quoted, escaped, exact whatever stands around it.
    out.add(pad);
    out.add(key);
    out.add(': ');
    out.scalar(value, 'double');
  }
  out.add(lineBreak);
}

/**
 * A text written as pieces into one list, reused from text to text, and joined once (`take`): one
 * flat string, with no string per line on the way and no copy of a double-quoted value that JSON
 * escapes nothing in (its quotes and itself are pieces). Between texts every entry is '', so the
 * list holds on to nothing.
 */
export class Pieces {
  private readonly list: string[] = [];
  private count = 0;

  add(piece: string): void {
    this.list[this.count++] = piece;
  }

  /** The value as formatScalar writes it in `style`. */
  scalar(value: string, style: ScalarStyle): void {
    // Plain as formatScalar writes it, tested once (most values in results and every key a
    // mapping is made for), not again in formatScalar.
    if (style === 'plain' && plainFits(value)) this.add(value);
    else if (style === 'single' || jsonEscapes.test(value)) this.add(formatScalar(value, style));
    else {
      this.add('"');
      this.add(value);
      this.add('"');
    }
  }

  /** The pieces added since the last take, joined. */
  take(): string {
    const { list, count } = this;
    // join reads the list to its length: cut back to this text's pieces, so that one long text
    // (many keys inserted at one place) leaves no long join for every text after it.
    if (list.length > count) list.length = count;
    const text = list.join('');
    for (let i = 0; i < count; i++) list[i] = '';
    this.count = 0;
    return text;
  }
}

/**
 * What a double-quoted value escapes (yamlJson): else it is the string between two `"`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const jsonEscapes = /["\\\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]/;

/**
 * JSON of a value (a string, or a whole document), with what YAML does not allow as it stands
 * escaped: JSON.stringify leaves DEL, the C1 controls and U+FFFE/FFFF as they are, which a YAML
 * reader refuses (kpt: "control characters are not allowed"; this reader, on the next run), and
 * NEL, which kpt's reader (YAML 1.1) takes for a line break and folds to a space. JSON holds them
 * only inside strings, where `\uXXXX` is an escape to JSON and YAML alike.
 */
export function yamlJson(value: unknown, indent?: string): string {
  const text = JSON.stringify(value, null, indent);
  return text.replace(notYaml, escapeUnit);
}
const notYaml = /[\x7f-\x9f\ufffe\uffff]/g;
const escapeUnit = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The lines spliceAt inserts, built one edit at a time. */
const insertedLines = new Pieces();

/** Indentations, made once each: thousands of edits and results share a few. */
const pads: string[] = [];
export const indentation = (n: number): string => {
  pads[n] ??= ' '.repeat(n);
  return pads[n];
};

/** A flow value: a string as JSON, a list as JSON on one line (JSON is flow YAML). */
const flowValue = (value: NewValue) =>
  typeof value === 'string' ? yamlJson(value) : jsonText(value.list, ': ', '', '');

const flowEntry = (key: string, value: NewValue) => `${formatKey(key)}: ${flowValue(value)}`;

/**
 * What a flow site inserts: `entries` (`k: v, …`) inside the missing mappings, right after the
 * `{` or in place of the null.
 */
function flowSplice(site: FlowSite, entries: string): Splice {
  const { missing } = site;
  const inner = missing.reduceRight((inner, name) => `${formatKey(name)}: {${inner}}`, entries);
  if (site.kind === 'null') return { start: site.start, end: site.end, text: `{${inner}}` };
  return { start: site.at, end: site.at, text: inner + (site.empty ? '' : ', ') };
}

/**
 * An entry appended to a list that is there: `- ` lines after the last entry of a block list, a
 * JSON value after the last entry of a flow list or JSON array, or a new block list under a key
 * that holds null or `[]`. `step` indents the entry's own mappings.
 */
export function listSplice(
  text: string,
  site: ListSite,
  entry: Json,
  lineBreak: string,
  json?: JsonStyle,
): Splice {
  const at = site.kind === 'under' || site.kind === 'null-flow' ? site.start : site.at;
  lineBreak = localLineBreak(text, at, lineBreak);
  if (site.kind === 'null-flow') {
    const newLine = json?.unit ? lineBreak + padAt(text, at) : '';
    const list = jsonText([entry], json?.colon ?? ': ', json?.unit ?? '', newLine);
    return { start: site.start, end: site.end, text: list };
  }
  if (site.kind === 'append-flow') {
    if (!json) {
      const flow = jsonText(entry, ': ', '', '');
      return { start: site.at, end: site.at, text: site.empty ? flow : `, ${flow}` };
    }
    // A JSON array: the entry on a line of its own at its entries' indentation when they have
    // lines of their own (or the document has), else on the array's line.
    const pad = padAt(text, site.at);
    const entryPad = site.empty ? pad + json.unit : pad;
    const newLine = json.unit ? lineBreak + entryPad : '';
    const value = jsonText(entry, json.colon, json.unit, newLine);
    if (site.empty) {
      const text = json.unit ? `${newLine}${value}${lineBreak}${pad}` : value;
      return { start: site.at, end: site.at, text };
    }
    return { start: site.at, end: site.at, text: `,${newLine || json.colon.slice(1)}${value}` };
  }
  const out = insertedLines;
  // The rest of the key's line (a comment) stays; the list starts on the next line.
  if (site.kind === 'under') out.add(text.slice(site.end, site.at));
  // Block lines at a line start, or after a last line without a break.
  if (needsBreak(text, site.at)) out.add(lineBreak);
  new BlockWriter(out, site.step, site.seqIndent, lineBreak).entry(entry, site.dash, false);
  out.add(lineBreak);
  const start = site.kind === 'append' ? site.at : site.start;
  return { start, end: site.at, text: out.take() };
}

/**
 * Whether the lines from `at` end a block scalar written just before it, its lines indented by
 * `indent`: past empty lines and lines of fewer spaces, the first line with text is indented
 * less. A deeper line, even a comment, would read as more of the block's text, and so may a line
 * of only spaces as deep as its lines; a tab or a lone carriage return is not judged (false).
 */
function endsBlock(text: string, at: number, indent: number): boolean {
  for (let pos = at; pos < text.length; ) {
    let i = pos;
    while (text.charCodeAt(i) === 32) i++;
    if (i - pos >= indent) return false;
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    else if (c !== 10) return i >= text.length || (c !== 9 && c !== 13);
    pos = i + 1;
  }
  return true;
}

/** Lines inserted at `at` first end the line there: the last line of a text without a break. */
const needsBreak = (text: string, at: number) => at > 0 && text[at - 1] !== '\n';

/**
 * Block YAML of a JSON value, the way kpt prints it: mappings' keys sorted, indented by `step`,
 * lists' `- ` at their key's column (compact) or one step in (wide), multi-line strings as `|`
 * block scalars where YAML can hold them exactly, other strings plain where YAML reads them as
 * that string, else double-quoted. Written as pieces into `out`, joined once by its taker: no
 * string per line, entry or mapping on the way (a HelmRelease's post-renderer entry was ≈25 KB
 * of them for ≈2 KB of text).
 */
class BlockWriter {
  constructor(
    private readonly out: Pieces,
    private readonly step: number,
    private readonly seqIndent: SeqIndent,
    private readonly lineBreak: string,
  ) {}

  /** A key's value, after its `key:` (written) at `column`. */
  pair(value: Json, column: number): void {
    const { out } = this;
    if (typeof value === 'string' && literalFits(value)) {
      out.add(' ');
      blockLiteral(out, value, indentation(column + this.step), this.lineBreak, column);
    } else if (Array.isArray(value) && value.length > 0) {
      out.add(this.lineBreak);
      this.list(value, this.seqIndent === 'wide' ? column + this.step : column, false);
    } else if (isObject(value) && Object.keys(value).length > 0) {
      out.add(this.lineBreak);
      this.mapping(value, column + this.step, false);
    } else {
      out.add(' ');
      out.add(inlineValue(value));
    }
  }

  /** A list's entries, their `- ` at column `dash`; `continued`: the first's line is begun. */
  list(value: readonly Json[], dash: number, continued: boolean): void {
    for (let i = 0; i < value.length; i++) {
      if (i > 0) this.out.add(this.lineBreak);
      this.entry(value[i] as Json, dash, continued && i === 0);
    }
  }

  /** One list entry, its `- ` at `dash`; `continued`: after a `- ` already on the line. */
  entry(item: Json, dash: number, continued: boolean): void {
    const { out } = this;
    if (!continued) out.add(indentation(dash));
    out.add('- ');
    const column = dash + 2;
    if (typeof item === 'string' && literalFits(item)) {
      blockLiteral(out, item, indentation(column), this.lineBreak, dash);
    } else if (Array.isArray(item) && item.length > 0) this.list(item, column, true);
    else if (isObject(item) && Object.keys(item).length > 0) this.mapping(item, column, true);
    else out.add(inlineValue(item));
  }

  /** A mapping's keys at `column`, sorted; `continued`: the first after a `- ` on its line. */
  mapping(value: { [key: string]: Json }, column: number, continued: boolean): void {
    const { out } = this;
    const keys = sortedKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (i > 0) out.add(this.lineBreak);
      if (!continued || i > 0) out.add(indentation(column));
      out.add(formatKey(key));
      out.add(':');
      this.pair(value[key] as Json, column);
    }
  }
}

/**
 * A mapping's keys in the order sort() puts them (by UTF-16 code units), sorted by insertion: a
 * manifest's mappings have a few keys, and sort() called from code V8 has not optimised
 * allocated ≈1 KB of working storage a call (a HelmRelease's entry: six mappings, ≈7 KB).
 */
export function sortedKeys(value: { [key: string]: Json }): string[] {
  const keys = Object.keys(value);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
}

/** A scalar, or an empty list or mapping, on the line of its key or `- `. */
function inlineValue(value: Json): string {
  if (typeof value === 'string') return formatScalar(value, 'plain');
  if (Array.isArray(value)) return '[]';
  if (isObject(value)) return '{}';
  return String(value);
}

/** A key: plain where YAML reads it as this string, else double-quoted. */
const formatKey = (key: string) => formatScalar(key, 'plain');

/**
 * Whether a literal block scalar holds the string exactly: more than one line, something on
 * them, only printable characters (a block scalar has no escapes: `\r`, controls, a BOM or a
 * lone surrogate cannot be written), no line of only white space (read as indentation), at most
 * one line break at the end (`|+` would also keep the blank lines that follow it in the item).
 */
function literalFits(value: string): boolean {
  return (
    value.includes('\n') &&
    !value.endsWith('\n\n') &&
    someText.test(value) &&
    !unprintable.test(value) &&
    !blankLine.test(value)
  );
}
// Made once: a literal is a new object each time it is evaluated (four patches an entry).
const someText = /[^\n]/;
const blankLine = /(?:^|\n)[ \t]+(?:\n|$)/;

/**
 * JSON of a value (keys sorted) as a JSON document writes it: on lines indented by `unit` (each
 * line after a break starting with `newLine`, the break and the current indentation), or on one
 * line when `unit` is empty, `colon` between keys and values.
 */
export function jsonText(value: Json, colon: string, unit: string, newLine: string): string {
  const list = Array.isArray(value);
  if (!list && !isObject(value)) return yamlJson(value);
  const entries: [string | undefined, Json][] = list
    ? value.map((v) => [undefined, v])
    : sortedKeys(value).map((k) => [k, value[k] as Json]);
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return open + close;
  const inner = unit ? newLine + unit : '';
  const parts = entries.map(
    ([k, v]) => (k === undefined ? '' : yamlJson(k) + colon) + jsonText(v, colon, unit, inner),
  );
  if (unit) return `${open}${parts.map((p) => inner + p).join(',')}${newLine}${close}`;
  return `${open}${parts.join(colon === ':' ? ',' : ', ')}${close}`;
}

/**
 * What neither a block scalar nor single quotes hold as written (they have no escapes): controls
 * but a tab and a line feed (a carriage return is a line break), lone surrogates, the Unicode line
 * and paragraph separators, a byte order mark, U+FFFE/FFFF. Made once.
 */
const unprintable = /(?![\t\n])[\p{Cc}\p{Cs}\u2028\u2029\ufeff\ufffe\uffff]/u;

/**
 * Plain only where YAML cannot read the value as anything but this string; single-quoted where
 * asked and the quotes hold it (no line break: it would fold), else double-quoted (JSON).
 */
export function formatScalar(value: string, style: ScalarStyle): string {
  if (style === 'single' && !value.includes('\n') && !unprintable.test(value)) {
    return `'${value.replaceAll("'", "''")}'`;
  }
  if (style === 'plain' && plainFits(value)) return value;
  return yamlJson(value);
}

/** A string YAML reads back as itself when plain (a conservative test). */
// A regular expression literal is a new object each time it is evaluated: this one is made once.
const plainCharacters = /^[A-Za-z][-\w./]*$/;
// The reserved words are five characters at most: a longer value is not matched against them
// (a results section asks for thousands of values).
const plainFits = (value: string) =>
  plainCharacters.test(value) && (value.length > 5 || !reserved.test(value));
const reserved = /^(true|false|null|yes|no|on|off|y|n)$/i;

/**
 * A multi-line value as a `|` block scalar, into `out` after its `key: ` or `- `, its lines
 * indented by `indent`; the chomping indicator keeps the trailing line breaks exact. `column`:
 * where the key (or the `- `) of the value is.
 */
function blockLiteral(
  out: Pieces,
  value: string,
  indent: string,
  lineBreak: string,
  column: number,
): void {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 10) end--;
  const trailing = value.length - end;
  out.add('|');
  // A first line with text that starts with a space needs an explicit indentation indicator
  // (the reader would take its spaces for the block's indentation), after empty lines too.
  let first = 0;
  while (value.charCodeAt(first) === 10) first++;
  if (value.charCodeAt(first) === 32) out.add(String(indent.length - column));
  out.add(trailing === 0 ? '-' : trailing === 1 ? '' : '+');
  // Its lines up to the last with text, and with `|+` the empty ones after it but the last.
  const last = trailing > 1 ? value.length - 1 : end;
  for (let start = 0; ; ) {
    const lf = value.indexOf('\n', start);
    const stop = lf < 0 || lf > last ? last : lf;
    out.add(lineBreak);
    if (stop > start) {
      out.add(indent);
      out.add(value.slice(start, stop));
    }
    if (stop === last) return;
    start = stop + 1;
  }
}

function localLineBreak(text: string, at: number, fallback: string): string {
  // Most sites are line starts: the break before is the character before, no search back
  // (lastIndexOf is a C++ builtin, ≈300 instructions a call, a char code ≈50).
  const before = at > 0 && text.charCodeAt(at - 1) === 10 ? at - 1 : text.lastIndexOf('\n', at - 1);
  if (before > 0) return text[before - 1] === '\r' ? '\r\n' : '\n';
  const after = text.indexOf('\n', at);
  if (after > 0) return text[after - 1] === '\r' ? '\r\n' : '\n';
  return fallback;
}

/**
 * How a JSON document is laid out: `unit` is its indentation step ('' when it is on one line),
 * `colon` what stands between its keys and values (`": "` or `":"`).
 */
export interface JsonStyle {
  unit: string;
  colon: string;
}

/**
 * The layout of an item that is a JSON object (JSON is YAML: kubectl's `-o json` documents in a
 * stream, or an entry of a YAML ResourceList), or undefined for any other item. Only a `---` line,
 * comments and (for an entry) its `- ` may stand before the object, and nothing after it.
 */
export function jsonStyleOf(text: string, entry: boolean): JsonStyle | undefined {
  const brace = braceAfterDashes(text);
  if (brace < 0) return undefined;
  const before = text.slice(0, brace).replace(/#[^\r\n]*/g, '');
  if (!(entry ? /^\s*-\s+$/ : /^\s*(?:---\s+)?$/).test(before)) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(brace));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  } catch {
    return undefined;
  }
  return jsonLayout(text, brace);
}

/**
 * The text's first `{` where only white space, `-` and comments stand before it (every character
 * from U+0080 passes here: the caller's exact test judges them), else -1: read from the start,
 * so a block item is known at its first key, not after a search for a `{` through all its lines
 * (most hold none). A `{` in a comment is the first `{` too.
 */
function braceAfterDashes(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 35) {
      for (; i + 1 < text.length; i++) {
        const next = text.charCodeAt(i + 1);
        if (next === 10 || next === 13) break;
        if (next === 123) return i + 1;
      }
    } else if (c === 123) return i;
    else if (c > 32 && c < 128 && c !== 45) return -1;
  }
  return -1;
}

/**
 * The layout of the JSON object whose `{` is at `brace` (a JSON input is written back with its
 * `unit` too, krm/write.ts): the step from the `{` to its first key, when that key has a line of
 * its own, and the first key's colon.
 */
export function jsonLayout(text: string, brace: number): JsonStyle {
  const keyPad = matchAt(ownLine, text, brace + 1)?.[1] ?? '';
  // From the `{` itself where the key is right of it (`- {` in a list), else from its line.
  const column = brace - text.lastIndexOf('\n', brace - 1) - 1;
  const unit = keyPad.slice(keyPad.length > column ? column : padAt(text, brace).length);
  const colon = matchAt(firstColon, text, brace)?.[1] === '' ? ':' : ': ';
  return { unit, colon };
}
const firstColon = /\{\s*"(?:[^"\\]|\\.)*"\s*:(\s?)/y;

/**
 * A site in a JSON document, filled the way its JSON is written: quoted keys and values, a
 * mapping that has its keys on their own lines gets new lines at their indentation, a one-line
 * mapping stays one line. What is not edited keeps its bytes (number spellings, escapes such as
 * Go's `\u003c`, key order), which a re-serialisation as for a JSON input would not. Several
 * `keys` (top first) are written as one edit after another writes them: the first makes the
 * mapping (in `{}` or for a null) and the missing ones, each next one goes in right after the
 * innermost `{`, on its first key's line and indentation.
 */
function jsonSplice(
  text: string,
  site: Exclude<Site, { kind: 'lines' }>,
  keys: readonly NewKey[],
  lineBreak: string,
  json: JsonStyle,
): Splice {
  if (site.kind === 'value') {
    return { start: site.start, end: site.end, text: yamlJson((keys[0] as NewKey).value) };
  }
  const at = site.kind === 'flow' ? site.at : site.start;
  lineBreak = localLineBreak(text, at, lineBreak);
  const { missing } = site;
  const pad = padAt(text, at);
  if (site.kind === 'flow' && !site.empty) {
    // Keys on their own lines: a new first line at the first key's indentation.
    // Both after any spaces that follow the `{`, which so stay on its line.
    const start = at + (matchAt(spaces, text, at)?.[0].length ?? 0);
    const keyPad = matchAt(ownLine, text, at)?.[1];
    if (keyPad !== undefined) {
      const unit = json.unit || keyPad.slice(pad.length) || '  ';
      const entry = jsonEntries(missing, keys, json, lineBreak + keyPad, unit);
      return { start, end: start, text: `${lineBreak}${keyPad}${entry},` };
    }
    const entry = jsonEntries(missing, keys, json, '', '');
    return { start, end: start, text: `${entry},${json.colon.endsWith(' ') ? ' ' : ''}` };
  }
  // An empty `{}` or a `null`: the new mapping, on lines of its own when the document has them.
  const end = site.kind === 'flow' ? text.indexOf('}', at) : site.end;
  const { unit } = json;
  const inner = unit
    ? `${lineBreak}${pad}${unit}${jsonEntries(missing, keys, json, lineBreak + pad + unit, unit)}${lineBreak}${pad}`
    : jsonEntries(missing, keys, json, '', '');
  return { start: at, end, text: site.kind === 'flow' ? inner : `{${inner}}` };
}

const ownLine = /[ \t]*\r?\n(?:[ \t]*\r?\n)*([ \t]*)/y;
const spaces = /[ \t]*/y;

function matchAt(sticky: RegExp, text: string, at: number): RegExpExecArray | null {
  sticky.lastIndex = at;
  return sticky.exec(text);
}

/**
 * `"a": {"b": "value"}` for missing mappings a, b (the keys, top first, inside the innermost); on
 * lines when `unit` is set, each line after a break starting with `newLine` (the break and the
 * indentation of the first line).
 */
function jsonEntries(
  missing: readonly string[],
  keys: readonly NewKey[],
  json: JsonStyle,
  newLine: string,
  unit: string,
): string {
  const [name, ...rest] = missing;
  if (name === undefined) {
    const entries = keys.map(({ key, value }) => {
      const head = `${yamlJson(key)}${json.colon}`;
      if (typeof value === 'string') return head + yamlJson(value);
      return head + jsonText(value.list, json.colon, unit, newLine);
    });
    return entries.join(unit ? `,${newLine}` : `,${json.colon.endsWith(' ') ? ' ' : ''}`);
  }
  const head = `${yamlJson(name)}${json.colon}`;
  if (!unit) return `${head}{${jsonEntries(rest, keys, json, '', '')}}`;
  const inner = newLine + unit;
  return `${head}{${inner}${jsonEntries(rest, keys, json, inner, unit)}${newLine}}`;
}

/** The indentation of the line `at` is on. */
function padAt(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const pad = matchAt(spaces, text, lineStart)?.[0] ?? '';
  return pad.length > at - lineStart ? pad.slice(0, at - lineStart) : pad;
}
