// Writes the output in the input's format: YAML text with the edited items spliced in (every
// other byte copied), JSON re-serialised with the input's indentation and key order.
import type { Result } from '../model/results.js';
import type { Input } from './read.js';
import { resultsYaml } from './results-yaml.js';
import { lineBreakOf } from './yaml/lines.js';

/** Edited text per item index (YAML) — JSON items are edited in place in `input.value`. */
export type ItemTexts = ReadonlyMap<number, string>;

export function writeOutput(input: Input, edited: ItemTexts, results: readonly Result[]): string {
  switch (input.format) {
    case 'json-list':
      return writeJson(input.text, {
        ...input.value,
        results: results.length > 0 ? results : undefined,
      });
    case 'json-object':
      return writeJson(input.text, input.value);
    case 'yaml-stream':
      return splice(input.text, replacements(input, edited));
    case 'yaml-list': {
      const changes = replacements(input, edited);
      // Results are output only: the input's (from an earlier function) are replaced by ours.
      if (input.results) changes.push({ ...input.results, text: '' });
      const text = splice(input.text, changes);
      if (results.length === 0) return text;
      const lineBreak = lineBreakOf(input.text);
      // Results belong to the list's document: before what follows it (empty documents after a
      // `---`) and before its closing `...` marker, if any. Edits all lie inside the document.
      const after = input.text.slice(input.document.end);
      const doc = text.slice(0, text.length - after.length);
      const end = /(?:^|\n)\.\.\.[ \t]*(?:#[^\n]*)?(?:\r?\n[ \t]*(?:#[^\n]*)?)*$/.exec(doc);
      const at = end ? end.index + (doc[end.index] === '\n' ? 1 : 0) : doc.length;
      const head = doc.slice(0, at);
      const separator = head === '' || head.endsWith('\n') ? '' : lineBreak;
      return head + separator + resultsYaml(results, lineBreak) + doc.slice(at) + after;
    }
  }
}

interface Replacement {
  start: number;
  end: number;
  text: string;
}

function replacements(input: Input, edited: ItemTexts): Replacement[] {
  const changes: Replacement[] = [];
  for (const [index, text] of edited) {
    const span = input.items[index]?.span;
    if (span) changes.push({ start: span.start, end: span.end, text });
  }
  return changes;
}

function splice(source: string, changes: Replacement[]): string {
  const chunks: string[] = [];
  let pos = 0;
  for (const change of changes.sort((a, b) => a.start - b.start)) {
    chunks.push(source.slice(pos, change.start), change.text);
    pos = change.end;
  }
  chunks.push(source.slice(pos));
  return chunks.join('');
}

function writeJson(source: string, value: unknown): string {
  const indent = /\n([ \t]+)"/.exec(source)?.[1] ?? '';
  const text = JSON.stringify(value, null, indent);
  return source.trimEnd() === source ? text : `${text}\n`;
}
