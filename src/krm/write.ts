// Writes the output in the input's format: YAML text with the edited items spliced in (every
// other byte copied), JSON re-serialised with the input's indentation and key order.
import type { Result } from '../model/results.js';
import type { Input } from './read.js';
import { resultsYaml } from './results-yaml.js';
import { lineBreakOf } from './yaml/lines.js';
import { jsonLayout, yamlJson } from './yaml/site.js';
import type { Splice } from './yaml/splice.js';

/**
 * What changes in each edited item's text (YAML), by item index, offsets in the item (editText);
 * JSON items are edited in place in `input.value`.
 */
export type ItemTexts = ReadonlyMap<number, readonly Splice[]>;

/**
 * The output in pieces, in order: slices of the input and the new text of each edit between
 * them. Never joined here: the process writes them in turn, so no second copy of the input.
 */
export function writeOutput(input: Input, edited: ItemTexts, results: readonly Result[]): string[] {
  switch (input.format) {
    case 'json-list':
      return [
        writeJson(input.text, {
          ...input.value,
          results: results.length > 0 ? results : undefined,
        }),
      ];
    case 'json-object':
      return [writeJson(input.text, input.value)];
    case 'yaml-stream':
      return splice(input.text, replacements(input, edited));
    case 'yaml-list': {
      const changes = replacements(input, edited);
      // Results are output only: the input's (from an earlier function) are replaced by ours.
      if (input.results) changes.push({ ...input.results, text: '' });
      if (results.length > 0) resultsInsertions(input, results, changes);
      return splice(input.text, changes);
    }
  }
}

/**
 * The results' insertions, pushed to `changes`. Results belong to the list's document: before
 * what follows it (empty documents after a `---`) and before its closing `...` marker, if any.
 * Edits all lie inside items, so where that is can be read off the input.
 */
function resultsInsertions(
  input: Input & { format: 'yaml-list' },
  results: readonly Result[],
  changes: Replacement[],
): void {
  const { text } = input;
  const doc = text.slice(0, input.document.end);
  const at = closingLine(doc) ?? doc.length;
  const lineBreak = lineBreakOf(text);
  // What the output has before `at`: the input's, unless the input's results end there.
  const before = input.results?.end === at ? input.results.start : at;
  const separator = before === 0 || text[before - 1] === '\n' ? '' : lineBreak;
  // One insertion per result, in order: insertions at one offset keep it (splice sorts stably).
  // Pushed one by one by index, as a spread puts them all on the stack, and for-of or a
  // destructuring walks them with an iterator result each.
  const texts = resultsYaml(results, lineBreak);
  for (let i = 0; i < texts.length; i++) {
    const piece = i === 0 ? separator + texts[0] : (texts[i] as string);
    changes.push({ start: at, end: at, text: piece });
  }
}

/** A closing `...` line, then only blank and comment lines to the end (sticky: tried at one offset). */
const closing = /(?:^|\n)\.\.\.[ \t]*(?:#[^\n]*)?(?:\r?\n[ \t]*(?:#[^\n]*)?)*$/y;

/**
 * The start of the line where `doc` closes with `...` and nothing but blank and comment lines
 * after it, or undefined. Only the last line with other content can be that line: it is found by
 * walking back from the end, and `closing` tried there alone. Searched for from the start, the
 * expression read the whole input (≈10 ms on a 14 MB list).
 */
function closingLine(doc: string): number | undefined {
  let end = doc.length;
  for (;;) {
    const start = end === 0 ? 0 : doc.lastIndexOf('\n', end - 1) + 1;
    let i = start;
    while (doc.charCodeAt(i) === 32 || doc.charCodeAt(i) === 9) i++;
    const c = doc.charCodeAt(i);
    // Content: not white space, a comment, nor the `\r` of a line break (a superset of the
    // blank and comment lines `closing` accepts after the marker).
    if (i < end && c !== 35 && c !== 13) {
      if (!doc.startsWith('...', start)) return undefined;
      closing.lastIndex = start > 0 ? start - 1 : 0;
      return closing.test(doc) ? start : undefined;
    }
    if (start === 0) return undefined;
    end = start - 1;
  }
}

interface Replacement {
  start: number;
  end: number;
  text: string;
}

function replacements(input: Input, edited: ItemTexts): Replacement[] {
  const changes: Replacement[] = [];
  // forEach and an index, not for-of: no entry pair nor iterator per item (≈3 MB on 10k items).
  edited.forEach((splices, index) => {
    const span = input.items[index]?.span;
    if (!span) return;
    for (let i = 0; i < splices.length; i++) {
      const { start, end, text } = splices[i] as Splice;
      changes.push({ start: span.start + start, end: span.start + end, text });
    }
  });
  return changes;
}

function splice(source: string, changes: Replacement[]): string[] {
  const pieces: string[] = [];
  let pos = 0;
  // Stable: an insertion at the end of a removed span stays after the removal. An index, not
  // for-of: no iterator result per change.
  changes.sort((a, b) => a.start - b.start);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i] as Replacement;
    if (change.start > pos) pieces.push(source.slice(pos, change.start));
    if (change.text !== '') pieces.push(change.text);
    pos = change.end;
  }
  if (pos < source.length) pieces.push(source.slice(pos));
  return pieces;
}

function writeJson(source: string, value: unknown): string {
  const text = yamlJson(value, jsonLayout(source, source.indexOf('{')).unit);
  return source.trimEnd() === source ? text : `${text}\n`;
}
