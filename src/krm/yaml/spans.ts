// Splits input text into documents and items without parsing YAML. Document markers sit at
// column 0, and no line of an item's content can sit at or left of its `- ` (block scalars and
// multi-line flow content are indented further), so these boundaries are exact for valid YAML.
// Each span is parsed on its own afterwards, and a wrong split fails that parse. The scans are
// regular expressions over the whole text: no per-line objects on multi-megabyte inputs.

export interface Span {
  start: number;
  end: number;
}

export interface ItemSpan extends Span {
  /** The item is a `- ` entry of a block sequence (ResourceList items), not a whole document. */
  entry: boolean;
}

export interface DocumentSpan extends Span {
  /** Has content lines (not only comments, directives and markers). */
  hasContent: boolean;
}

const marker = /^(---|\.\.\.)(?=[ \t]|\r?$)(.*)$/gm;
/** A line that starts content: not blank, a comment, a directive or a document marker. */
const contentLine = /^(?!(?:---|\.\.\.)(?:[ \t]|\r?$))[ \t]*[^\s#%]|^ +%/m;

/** Documents of a YAML stream, each from its `---` line; comment-only ones have no content. */
export function splitDocuments(text: string): DocumentSpan[] {
  const docs: DocumentSpan[] = [];
  let start = 0;
  let inlineContent = false;
  const close = (end: number) => {
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
    if (at > start && !isPrefix(text.slice(start, at))) {
      close(at);
      start = at;
    }
    // Content on the marker line itself (`--- {a: 1}`, `--- !tag`) counts as content.
    inlineContent = rest !== '' && !rest.startsWith('#');
  }
  if (start < text.length || docs.length === 0) close(text.length);
  return docs;
}

/** Only blank, comment and directive lines: what may precede a document's `---`. */
function isPrefix(text: string): boolean {
  return /^(?:(?:%[^\n]*|[ \t]*(?:#[^\n]*)?)(?:\n|$))*$/.test(text.replace(/^\uFEFF/, ''));
}

export interface TopLevelEntry extends Span {
  key: string;
  /** Offset after the key's `:`. */
  valueStart: number;
  /** End of the key's line. */
  lineEnd: number;
}

// Anchored on `\n` rather than `^` with the m flag: V8 scans for the line break much faster.
const topLevelKey =
  /(?:^|\n)(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s#'"?:,[\]{}&*!|>%@`-](?:[^\n:#]|:(?![ \t\r\n])|(?<! )#)*?))[ \t]*:(?=[ \t\r\n]|$)/g;

/** Top-level `key:` entries of a block-mapping document, each spanning until the next one. */
export function topLevelEntries(text: string, doc: Span): TopLevelEntry[] {
  const entries: TopLevelEntry[] = [];
  topLevelKey.lastIndex = Math.max(doc.start - 1, 0);
  for (let m = topLevelKey.exec(text); m && m.index < doc.end; m = topLevelKey.exec(text)) {
    const start = text[m.index] === '\n' ? m.index + 1 : m.index;
    if (start < doc.start || start >= doc.end) continue;
    const previous = entries[entries.length - 1];
    if (previous) previous.end = start;
    const lineBreak = text.indexOf('\n', start);
    const lineEnd = lineBreak < 0 || lineBreak > doc.end ? doc.end : lineBreak;
    entries.push({
      key: m[1] !== undefined ? decodeDoubleQuoted(m[1]) : ((m[2] ?? m[3]) as string),
      start,
      end: doc.end,
      valueStart: m.index + m[0].length,
      lineEnd: text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd,
    });
  }
  // A closing `...` marker belongs to the document, not to its last entry.
  const last = entries[entries.length - 1];
  if (last) {
    const marker = /\n\.\.\.(?=[ \t\r\n#]|$)/.exec(text.slice(last.start, last.end));
    if (marker) last.end = last.start + marker.index + 1;
  }
  return entries;
}

export class SpanError extends Error {}

/** The `- ` entries of a block sequence that is the value of `entry`. */
export function sequenceItems(text: string, entry: TopLevelEntry): ItemSpan[] {
  const body = text.indexOf('\n', entry.start) + 1;
  if (body === 0 || body >= entry.end) return [];
  const first = /^( *)[^ \t\r\n#]/gm;
  first.lastIndex = body;
  const head = first.exec(text);
  if (!head || head.index >= entry.end) return [];
  const indent = (head[1] as string).length;
  // Lines whose content starts at or left of the entries' `-`: entries, or malformed.
  const shallow = new RegExp(`\\n {0,${indent}}(?=[^ \\r\\n])`, 'g');
  shallow.lastIndex = head.index - 1;
  const items: ItemSpan[] = [];
  for (let m = shallow.exec(text); m && m.index + 1 < entry.end; m = shallow.exec(text)) {
    const lineStart = m.index + 1;
    const at = m.index + m[0].length;
    if (text[at] === '#') continue;
    // A document end (`...`) or start (`---`) marker ends the list with the document.
    if (/^(\.\.\.|---)(\s|$)/.test(text.slice(lineStart, lineStart + 4))) {
      const last = items[items.length - 1];
      if (last) last.end = lineStart;
      break;
    }
    const after = text[at + 1];
    const isEntry =
      at - lineStart === indent &&
      text[at] === '-' &&
      (after === ' ' || after === '\t' || after === '\n' || after === '\r' || after === undefined);
    if (!isEntry) throw new SpanError(`${entry.key} must be a block sequence of mappings`);
    const previous = items[items.length - 1];
    if (previous) previous.end = lineStart;
    items.push({ start: lineStart, end: entry.end, entry: true });
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
