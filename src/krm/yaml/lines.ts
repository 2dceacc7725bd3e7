// Line scanning over the original text by offsets: nothing is copied, so the bytes we do not
// edit are the bytes we write.

/**
 * Counts the characters a scan steps over. Tests pass one to bound a scan's work by the input's
 * length (counting work, not time); a run passes none.
 */
export interface ScanMeter {
  visited: number;
}

export interface Line {
  start: number;
  /** End of the line's text, before `\r\n` or `\n`. */
  end: number;
  /** Start of the next line (or the text's length). */
  next: number;
  /** Leading spaces. */
  indent: number;
  /** False for blank and comment-only lines. */
  content: boolean;
}

export function lineAt(text: string, start: number): Line {
  const lf = text.indexOf('\n', start);
  const end = textEnd(text, start, lf);
  const indent = indentAt(text, start);
  const first = text.charCodeAt(start + indent);
  const content = start + indent < end && first !== 35; /* # */
  return { start, end, next: lineAfter(text, lf), indent, content };
}

// Where a line ends, the next starts and its indentation, by offsets: for readers that run per
// line and build no Line (locate-lines.ts). `lf` is the `\n` after `start` (indexOf), -1 for none.

/** The end of the text of the line from `start`, before its `\r\n` or `\n`. */
export function textEnd(text: string, start: number, lf: number): number {
  if (lf < 0) return text.length;
  return lf > start && text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf;
}

/** The start of the line after the one whose line break is `lf` (or the text's length). */
export const lineAfter = (text: string, lf: number): number => (lf < 0 ? text.length : lf + 1);

/** The leading spaces of the line starting at `start`. */
export function indentAt(text: string, start: number): number {
  let i = start;
  while (text.charCodeAt(i) === 32) i++;
  return i - start;
}

/**
 * Where lines inserted above the line at `lineStart` go so that no comment changes the key it
 * describes: above the comment lines directly over it (with any blank lines between them), else
 * at `lineStart`. Blank lines above the topmost comment stay where they are.
 */
export function aboveComments(text: string, lineStart: number): number {
  let at = lineStart;
  for (let pos = lineStart; pos > 0; ) {
    const prev = pos >= 2 ? text.lastIndexOf('\n', pos - 2) + 1 : 0;
    let i = prev;
    while (i < pos && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    const c = text.charCodeAt(i);
    // Content: the mapping's opening line, which ends the walk whatever else it holds.
    if (i < pos && c !== 35 /* # */ && c !== 10 && c !== 13) break;
    // A lone CR is a line break to YAML: what looks like a comment may go on with a `---`.
    // Looked for in the comment and blank lines the walk passes over only (not character by
    // character through the content line above a mapping, where most walks end at once).
    for (let k = prev; k < pos - 2; k++) if (text.charCodeAt(k) === 13) return at;
    if (c === 35) at = prev;
    pos = prev;
  }
  return at;
}

/**
 * Whether `line`, a sticky expression that matches one whole line with its break (or up to the
 * end), matches every line of `text`. One line at a time: a `(?:…\n)*` over the whole text
 * keeps a backtracking entry per line, and V8 throws a RangeError past a few million.
 */
export function everyLine(text: string, line: RegExp): boolean {
  for (let pos = 0; pos < text.length; ) {
    line.lastIndex = pos;
    if (!line.test(text) || line.lastIndex === pos) return false;
    pos = line.lastIndex;
  }
  return true;
}

/** The text's line break, so inserted lines match (`\r\n` files stay `\r\n`). */
export function lineBreakOf(text: string): string {
  const lf = text.indexOf('\n');
  return lf > 0 && text.charCodeAt(lf - 1) === 13 ? '\r\n' : '\n';
}

/** `-` followed by a space or the end of the line: a block sequence entry. */
export function isSequenceEntry(text: string, at: number, end: number): boolean {
  if (text.charCodeAt(at) !== 45) return false;
  const after = text.charCodeAt(at + 1);
  return at + 1 >= end || after === 32 || after === 9;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit < 0xdc00;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit < 0xe000;

/**
 * 1-based column of an offset in code points, as the YAML library's messages count it (an emoji is
 * one column, not two UTF-16 units).
 */
export function columnAt(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let column = 1;
  for (let i = lineStart; i < offset; i++) {
    // A high surrogate followed by its low one is one code point.
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    column++;
  }
  return column;
}

/**
 * Where the last lineNumberAt call counted to. Messages are made in input order (one per bad item
 * of a list), so counting on from the last offset makes all of a run's line numbers cost one pass
 * over the text, not one pass each.
 */
let counted = { text: '', offset: 0, line: 1 };

/** 1-based line number of an offset, for messages. */
export function lineNumberAt(text: string, offset: number, meter?: ScanMeter): number {
  const to = Math.max(0, Math.min(offset, text.length));
  // From the last offset counted when that is nearer than the start.
  const near = text === counted.text && Math.abs(to - counted.offset) < to;
  let line = near ? counted.line : 1;
  const at = near ? counted.offset : 0;
  if (meter) meter.visited += Math.abs(to - at);
  if (to >= at) {
    for (let i = text.indexOf('\n', at); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) line++;
  } else {
    for (
      let i = text.lastIndexOf('\n', at - 1);
      i >= to;
      i = i > 0 ? text.lastIndexOf('\n', i - 1) : -1
    )
      line--;
  }
  counted = { text, offset: to, line };
  return line;
}

/** The first line of an item that is not its `---`, a blank line or a comment. */
export function contentStart(text: string, offset: number): number {
  let at = offset;
  for (;;) {
    const end = text.indexOf('\n', at);
    if (end === -1 || !/^(---|\s*(#.*)?)\r?$/.test(text.slice(at, end))) return at;
    at = end + 1;
  }
}
