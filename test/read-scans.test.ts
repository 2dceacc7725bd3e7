// The reader's scans over the whole input (src/krm/read.ts, src/krm/yaml/spans.ts, lines.ts):
// their cost is bounded by counting work, never by timing it, and the scans that replaced
// regular expressions give the same verdicts as those did.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError, maxItems, readInput } from '../src/krm/read.js';
import { lineNumberAt, type ScanMeter } from '../src/krm/yaml/lines.js';
import { yamlProblem } from '../src/krm/yaml/parse.js';
import { run } from '../src/run.js';
import { deep, depth } from './depth.js';

const list = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';
const item = (i: number) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n`;
const repeat = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i)).join('');

/**
 * Inputs of each shape that made a scan restart per document, per key or per character (each took
 * tens of seconds at a few megabytes), `n` the number of repeated units.
 */
const shapes: Record<string, (n: number) => string> = {
  'a long line of spaces in a document': (n) => `a: 1\nx${' '.repeat(20 * n)}y: 1\n`,
  'a long line of spaces in a ResourceList': (n) =>
    `${list}items: []\nx${' '.repeat(20 * n)}y: 1\n`,
  'many tiny documents': (n) => repeat(n, (i) => `---\na: ${i}\n`),
  'one-line JSON documents': (n) => repeat(n, (i) => `--- {"a": ${i}}\n`),
  'JSON documents between markers': (n) => repeat(n, (i) => `---\n{"a": ${i}}\n`),
  'empty documents': (n) => `${'---\n'.repeat(n)}a: 1\n`,
  'comment-only documents': (n) => `a: 1\n${'---\n# a comment\n'.repeat(n)}`,
  'comment lines full of [': (n) => `a: 1\n${`# ${'['.repeat(998)}\n`.repeat(n / 50)}`,
  'comment lines full of - ': (n) => `a: 1\n${`# ${'- '.repeat(998)}\n`.repeat(n / 50)}`,
  'a ResourceList of many items': (n) => `${list}items:\n${repeat(n, item)}`,
  'an envelope of many keys, invalid at its end': (n) =>
    `${list}items: []\n${repeat(n, (i) => `k${i}: v\n`)}x: [\n`,
};

function visits(text: string): number {
  const meter: ScanMeter = { visited: 0 };
  try {
    readInput(text, meter);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
  }
  return meter.visited;
}

describe('the scans over the whole input', () => {
  // The meter adds up the characters each scan steps over (a scan of a document's lines, the
  // nesting guard, the envelope's blanking, line numbers). Each character is looked at a bounded
  // number of times whatever the shape: at most `perCharacter` times in all, at 1× and 8× the
  // size. A scan that restarted per document or per key would exceed the bound at the larger size
  // (and grow 64× from 1× to 8×). Every character is looked at at least once (the nesting guard).
  const perCharacter = 8;
  it.each(Object.keys(shapes))('%s: at most a few looks at each character', (shape) => {
    const make = shapes[shape] as (n: number) => string;
    for (const n of [1_000, 8_000]) {
      const text = make(n);
      const visited = visits(text);
      expect(visited).toBeGreaterThanOrEqual(text.length);
      expect(visited, `${shape} at ${text.length} characters`).toBeLessThanOrEqual(
        perCharacter * text.length,
      );
    }
  });
});

describe('the nesting guard on a ResourceList', () => {
  it('scans the text around the items, not the items the quick reader reads', () => {
    // Its own bound proves them shallow (src/krm/read.ts checkItemNesting). Before, the guard
    // scanned the whole text twice: 6 looks per character in all on this list, then 4 (≈3.3 now
    // that the split of the list takes its lines from the search for top-level keys, below).
    const text = `${list}items:\n${repeat(8_000, item)}`;
    expect(visits(text)).toBeLessThanOrEqual(4.5 * text.length);
  });
});

describe('the split of a ResourceList into items', () => {
  it('takes a list at column 0 from the lines the search for top-level keys found', () => {
    // That search passes every line of the items (keys may follow them); main searched them again
    // for the entries: 4 looks per character in all on this list, now ≈3.3.
    const text = `${list}items:\n${repeat(8_000, item)}`;
    expect(visits(text)).toBeLessThanOrEqual(3.5 * text.length);
  });
});

describe('documents without content', () => {
  // Runs of blank, comment and bare marker lines skip the conforming reader: whatever the lines,
  // the stream must pass exactly when that reader finds the whole text valid.
  const lines = fc.array(
    fc.constantFrom(
      '---',
      '...',
      '--- # c',
      '... # c',
      '# c',
      '  # c',
      '',
      '  ',
      '\t',
      '\t# c',
      '... x',
      '%YAML 1.2',
      '%TAG ! tag:x,2000:',

      '---\t# c',
      '#',
      '--- #',
    ),
    { minLength: 1, maxLength: 6 },
  );
  const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
  it('are judged as the conforming reader judges them', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), (between, crlf) => {
        const text = `${cm('a')}${between.join(crlf ? '\r\n' : '\n')}\n---\n${cm('b')}`;
        expect(run(text).exitCode).toBe(yamlProblem(text) === undefined ? 0 : 1);
      }),
      { numRuns: depth(300, 2000) },
    );
  });
});

describe('lineNumberAt', () => {
  const naive = (text: string, offset: number) =>
    text.slice(0, Math.max(0, offset)).split('\n').length;

  it('counts lines from the last offset asked, forwards or back', () => {
    const texts = fc.array(fc.constantFrom('a', '\n', '\r\n', 'bc'), { maxLength: 30 });
    fc.assert(
      fc.property(texts, texts, fc.array(fc.nat(70), { maxLength: 12 }), (a, b, offsets) => {
        const one = a.join('');
        const two = b.join('');
        for (const [k, offset] of offsets.entries()) {
          const text = k % 3 === 2 ? two : one;
          expect(lineNumberAt(text, offset)).toBe(naive(text, offset));
        }
      }),
      { numRuns: 2000 },
    );
  });

  // One message per bad item of a ResourceList: their line numbers, asked in input order, cost
  // one pass over the text in all (they cost one pass each, quadratic in the number of items).
  it('costs one pass over the text for offsets asked in order', () => {
    const text = 'x\n'.repeat(100_000);
    const meter: ScanMeter = { visited: 0 };
    for (let offset = 0; offset < text.length; offset += 20) {
      expect(lineNumberAt(text, offset, meter)).toBe(offset / 2 + 1);
    }
    expect(meter.visited).toBeLessThanOrEqual(text.length);
  });
});

describe("the ResourceList's own structure", () => {
  const items = `items:\n${item(0)}`;
  const errors = (text: string) => {
    const out = run(text);
    return { exitCode: out.exitCode, errors: out.stdout.match(/severity: error\n.*/g) ?? [] };
  };

  it('is judged from its first line to its last, outside the items too', () => {
    // Text before the first key, a document after the list, text after the closing `...`.
    for (const [text, where] of [
      [`  note: [\n${list}${items}`, 'line 2, column 1'],
      [`${list}${items}---\n# generated\n... done\n`, 'line 10, column 5'],
      [`${list}${items}... done\n`, 'line 8, column 5'],
    ] as const) {
      const { exitCode, errors: found } = errors(text);
      expect(exitCode).toBe(1);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/ResourceList: invalid YAML: .* at /);
      expect(found[0]).toContain(where);
    }
  });

  it('still takes what is valid around the items: directives, markers, comments', () => {
    const text = `%YAML 1.2\n---\n# head\n${list}# before\n${items}# between\n${item(1)}\n  # after\nfunctionConfig: {apiVersion: v1, kind: ConfigMap}\n...\n`;
    expect(run(text)).toMatchObject({ exitCode: 0, stdout: text });
    // After the items, more than 1024 blank characters before the next key (the `yaml` library
    // refuses that key after an empty `-`, which must not stand for the items).
    const far = `${list}${items}${'\n'.repeat(2000)}functionConfig: {apiVersion: v1, kind: ConfigMap}\n`;
    expect(run(far)).toMatchObject({ exitCode: 0, stdout: far });
  });
});

// A stream of many documents each with its own error. Their messages were spread into one call's
// arguments, which the stack holds (150,000 ended in `internal error: Maximum call stack size
// exceeded`); now they are added one by one, and past maxItems documents the input is refused
// before any is parsed (each costs a parse: 8 MB of one-line JSON documents took 20 s).
describe('many documents', () => {
  // The stack overflowed only at this size: under test:deep.
  it.runIf(deep)('reports an error for each of 100,000 documents', () => {
    const out = run('---\na: 1\n'.repeat(maxItems));
    expect(out.exitCode).toBe(1);
    expect(out.stderr).not.toMatch(/internal error|call stack/);
    expect(out.stderr.split('\n').filter((l) => l.includes('has no apiVersion'))).toHaveLength(
      maxItems,
    );
  });

  it('refuses more than 100,000 documents or items in one line', () => {
    const stream = run('---\na: 1\n'.repeat(150_000));
    expect(stream).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'secret-rollout: the input has 150000 documents, more than the 100000 read at most\n',
    });
    // Documents without content count: a run of them is parsed where one holds a directive.
    expect(run(`${'---\n'.repeat(maxItems)}%YAML 1.2\n---\na: 1\n`).stderr).toBe(
      'secret-rollout: the input has 100001 documents, more than the 100000 read at most\n',
    );
    const yamlList = run(`${list}items:\n${'- {}\n'.repeat(maxItems + 1)}`);
    expect(yamlList.exitCode).toBe(1);
    expect(yamlList.stdout).toContain(
      'message: "the input has 100001 items, more than the 100000 read at most"',
    );
    const jsonList = run(
      JSON.stringify({
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: new Array(maxItems + 1).fill({}),
      }),
    );
    expect(jsonList.stderr).toBe(
      'secret-rollout: the input has 100001 items, more than the 100000 read at most\n',
    );
  });
});
