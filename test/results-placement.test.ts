// Where the results go in a ResourceList's text: before its closing `...` line when it has one
// (with only blank and comment lines after it), else at the end of its document. write.ts finds
// that line walking back from the end; the expression it used to search the whole input is the
// oracle here, on every tail built from the pieces below.
import { describe, expect, it } from 'vitest';
import { type Input, readInput } from '../src/krm/read.js';
import { writeOutput } from '../src/krm/write.js';
import type { Result } from '../src/model/results.js';

const result: Result = { message: 'm', severity: 'info', tags: { rule: 'r' } };

/** The previous search, from the start of the document (the oracle). */
function expectedAt(text: string, input: Input & { format: 'yaml-list' }): number {
  const doc = text.slice(0, input.document.end);
  const end = /(?:^|\n)\.\.\.[ \t]*(?:#[^\n]*)?(?:\r?\n[ \t]*(?:#[^\n]*)?)*$/.exec(doc);
  return end ? end.index + (doc[end.index] === '\n' ? 1 : 0) : doc.length;
}

const head = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- kind: A\n';
const lines = ['...', '... # c', '...#c', '', ' \t', '# c', '  # c', '\r', 'x: 1', '...\r'];

describe('the results of a ResourceList', () => {
  it('go before its closing `...` line, as the search from the start found it', () => {
    let checked = 0;
    for (const a of lines) {
      for (const b of lines) {
        for (const c of lines) {
          for (const end of ['', '\n', '\r\n']) {
            const text = `${head}${a}\n${b}\n${c}${end}`;
            let input: ReturnType<typeof readInput>;
            try {
              input = readInput(text);
            } catch {
              continue;
            }
            if (input.format !== 'yaml-list' || input.listError) continue;
            const at = expectedAt(text, input);
            const output = writeOutput(input, new Map(), [result]).join('');
            const where = JSON.stringify(text);
            // The input's text up to that point, the results (after a line break if that point
            // ends no line), then the rest of the input's text.
            expect(output.startsWith(text.slice(0, at)), where).toBe(true);
            expect(output.endsWith(text.slice(at)), where).toBe(true);
            const inserted = output.slice(at, output.length - (text.length - at));
            expect(inserted, where).toMatch(
              /^(\r?\n)?results:\r?\n- message: m\r?\n[\s\S]*rule: r\r?\n$/,
            );
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
