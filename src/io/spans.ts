// Splits input text into documents and items by lines, without parsing YAML: document markers
// sit at column 0, and no line of an item's content can sit at or left of its `- ` (block
// scalars and multi-line flow content are indented further), so these boundaries are exact for
// valid YAML. Each span is parsed on its own afterwards, and a wrong split fails that parse.
import { isSequenceEntry, type Line, lineAt } from './lines.js';

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

function isMarker(text: string, line: Line, marker: '---' | '...'): boolean {
  return (
    line.end - line.start >= 3 &&
    text.startsWith(marker, line.start) &&
    (line.end - line.start === 3 || /[ \t]/.test(text[line.start + 3] as string))
  );
}

/** Documents of a YAML stream; each includes its `---` line and any comments before it. */
export function splitDocuments(text: string): DocumentSpan[] {
  const docs: DocumentSpan[] = [];
  let current: DocumentSpan = { start: 0, end: 0, hasContent: false };
  for (let pos = 0; pos < text.length; ) {
    const line = lineAt(text, pos);
    if (isMarker(text, line, '---')) {
      if (current.hasContent) {
        current.end = line.start;
        docs.push(current);
        current = { start: line.start, end: 0, hasContent: false };
      }
      // Content on the marker line itself (`--- {a: 1}`, `--- !tag`) counts as content.
      const rest = text.slice(line.start + 3, line.end).trim();
      if (rest !== '' && !rest.startsWith('#')) current.hasContent = true;
    } else if (isMarker(text, line, '...')) {
      current.end = line.next;
      docs.push(current);
      current = { start: line.next, end: 0, hasContent: false };
    } else if (line.content && text.charCodeAt(line.start) !== 37 /* % directive */) {
      current.hasContent = true;
    }
    pos = line.next;
  }
  current.end = text.length;
  if (current.end > current.start || docs.length === 0) docs.push(current);
  return docs;
}

export interface TopLevelEntry extends Span {
  key: string;
  /** Offset after the key's `:`. */
  valueStart: number;
  /** End of the key's line. */
  lineEnd: number;
}

/** Top-level `key:` entries of a block-mapping document, each spanning until the next one. */
export function topLevelEntries(text: string, doc: Span): TopLevelEntry[] {
  const entries: TopLevelEntry[] = [];
  for (let pos = doc.start; pos < doc.end; ) {
    const line = lineAt(text, pos);
    if (line.content && line.indent === 0 && !isSequenceEntry(text, line.start, line.end)) {
      const match = /^([A-Za-z_][\w.-]*)[ \t]*:(?=[ \t]|$)/.exec(text.slice(line.start, line.end));
      if (match) {
        const previous = entries[entries.length - 1];
        if (previous) previous.end = line.start;
        entries.push({
          key: match[1] as string,
          start: line.start,
          end: doc.end,
          valueStart: line.start + match[0].length,
          lineEnd: line.end,
        });
      }
    }
    pos = line.next;
  }
  return entries;
}

export class SpanError extends Error {}

/** The `- ` entries of a block sequence that is the value of `entry`. */
export function sequenceItems(text: string, entry: TopLevelEntry): ItemSpan[] {
  const items: ItemSpan[] = [];
  let indent = -1;
  for (let pos = lineAt(text, entry.start).next; pos < entry.end; ) {
    const line = lineAt(text, pos);
    if (line.content) {
      if (indent < 0) indent = line.indent;
      const at = line.start + line.indent;
      if (line.indent === indent && isSequenceEntry(text, at, line.end)) {
        const previous = items[items.length - 1];
        if (previous) previous.end = line.start;
        items.push({ start: line.start, end: entry.end, entry: true });
      } else if (line.indent <= indent || items.length === 0) {
        throw new SpanError(`${entry.key} must be a block sequence of mappings`);
      }
    }
    pos = line.next;
  }
  return items;
}
