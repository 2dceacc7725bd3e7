// Document and item boundaries found by scanning lines, checked against a real parser's view.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SpanError,
  sequenceItems,
  splitDocuments,
  type TopLevelEntry,
  topLevelEntries,
} from '../src/krm/yaml/spans.js';
import { run } from '../src/run.js';

const docs = (text: string) =>
  splitDocuments(text).map((d) => ({ text: text.slice(d.start, d.end), content: d.hasContent }));

describe('splitDocuments', () => {
  it('starts a document at every marker; comments and directives alone are not content', () => {
    // The prefix of comments and directives belongs to its document: %YAML alone is none.
    expect(docs('# head\n%YAML 1.2\n---\na: 1\n---\n# c\nb: 2\n')).toEqual([
      { text: '# head\n%YAML 1.2\n---\na: 1\n', content: true },
      { text: '---\n# c\nb: 2\n', content: true },
    ]);
    expect(docs('a: 1\n...\n%YAML 1.2\n---\nb: 2\n').map((d) => d.text)).toEqual([
      'a: 1\n...\n',
      '%YAML 1.2\n---\nb: 2\n',
    ]);
    expect(docs('a: 1\n%YAML 1.2\n---\nb: 2\n').map((d) => d.text)).toEqual([
      'a: 1\n%YAML 1.2\n',
      '---\nb: 2\n',
    ]);
  });

  it('sees empty documents between markers, and content on a marker line', () => {
    expect(docs('---\n---\n# only a comment\n--- {a: 1}\n...\nb: 2')).toEqual([
      { text: '---\n', content: false },
      { text: '---\n# only a comment\n', content: false },
      { text: '--- {a: 1}\n...\n', content: true },
      { text: 'b: 2', content: true },
    ]);
  });

  it('does not split at markers inside a line or indented', () => {
    expect(docs('a: |\n  ---\nb: "---"\n----: x\n').length).toBe(1);
  });
});

describe('sequenceItems', () => {
  const items = (text: string) => {
    const entry = topLevelEntries(text, { start: 0, end: text.length }).find(
      (e) => e.key === 'items',
    );
    if (!entry) throw new Error('no items');
    return sequenceItems(text, entry).map((s) => text.slice(s.start, s.end));
  };

  it('splits at entries of either indentation, keeping comments and block scalars inside', () => {
    const text =
      'kind: ResourceList\nitems:\n- a: |\n    - not an entry\n  b: 1\n# between\n- c: 2\nfunctionConfig: {}\n';
    expect(items(text)).toEqual(['- a: |\n    - not an entry\n  b: 1\n# between\n', '- c: 2\n']);
    expect(items('items:\n  - a: 1\n  -\n    b: 2\n')).toEqual(['  - a: 1\n', '  -\n    b: 2\n']);
  });

  it('rejects a mapping or a shallower line where entries belong', () => {
    expect(() => items('items:\n  a: 1\n')).toThrow(SpanError);
    expect(() => items('items:\n  - a: 1\n b: 2\n')).toThrow(SpanError);
  });
});

// The regular expression topLevelEntries used to be (it backtracked over runs of spaces, and ran
// on past its document to the next key): the oracle for which lines open a key, and where.
const oldKey =
  /(?:^|\n)(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s#'"?:,[\]{}&*!|>%@`-](?:[^\n:#]|:(?![ \t\r\n])|(?<! )#)*?))[ \t]*:(?=[ \t\r\n]|$)/g;
function oldEntries(text: string) {
  const entries: { key: string; start: number; end: number; valueStart: number }[] = [];
  oldKey.lastIndex = 0;
  for (let m = oldKey.exec(text); m; m = oldKey.exec(text)) {
    const start = text[m.index] === '\n' ? m.index + 1 : m.index;
    const previous = entries[entries.length - 1];
    if (previous) previous.end = start;
    let key = (m[2] ?? m[3]) as string;
    if (m[1] !== undefined) {
      try {
        key = JSON.parse(`"${m[1]}"`);
      } catch {
        key = m[1];
      }
    }
    entries.push({ key, start, end: text.length, valueStart: m.index + m[0].length });
  }
  const last = entries[entries.length - 1];
  if (last) {
    const marker = /\n\.\.\.(?=[ \t\r\n#]|$)/.exec(text.slice(last.start, last.end));
    if (marker) last.end = last.start + marker.index + 1;
  }
  return entries;
}

const pieces = [
  'a',
  'k',
  ' ',
  '  ',
  '\t',
  ':',
  ': ',
  '#',
  ' #',
  '"',
  "'",
  '\\',
  '\\"',
  '-',
  '[',
  '\r',
  '\n',
  '\n',
  '\n',
  '...',
  '---',
  'key: v\n',
  '"q\\"k": 1\n',
  "'s k' : 2\n",
  'a:b',
  'a#b: 3\n',
];
const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join(''));

describe('topLevelEntries', () => {
  it('finds the keys the regular expression it replaced found', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const found = topLevelEntries(text, { start: 0, end: text.length });
        expect(
          found.map(({ key, start, end, valueStart }) => ({ key, start, end, valueStart })),
        ).toEqual(oldEntries(text));
      }),
      { numRuns: 3000 },
    );
  });

  // Work is counted, not timed: the meter adds up the characters the scan steps over. A document
  // followed by a megabyte of other documents, and a line of a megabyte of spaces (the regular
  // expression this scan replaced took minutes on both), cost at most twice their own length.
  it('looks at each character of its document at most twice, and at nothing after it', () => {
    const doc = 'apiVersion: v1\nkind: ConfigMap\n';
    const text = `${doc}${'--- {"a": 1}\n'.repeat(80_000)}`;
    const meter = { visited: 0 };
    expect(topLevelEntries(text, { start: 0, end: doc.length }, meter).map((e) => e.key)).toEqual([
      'apiVersion',
      'kind',
    ]);
    expect(meter.visited).toBeGreaterThanOrEqual(doc.length);
    expect(meter.visited).toBeLessThanOrEqual(2 * doc.length);

    const spaces = `a: 1\nx${' '.repeat(1 << 20)}y: 2\n`;
    const long = { visited: 0 };
    const keys = topLevelEntries(spaces, { start: 0, end: spaces.length }, long);
    expect(keys.map((e) => e.key)).toEqual(['a', `x${' '.repeat(1 << 20)}y`]);
    expect(long.visited).toBeGreaterThanOrEqual(spaces.length);
    expect(long.visited).toBeLessThanOrEqual(2 * spaces.length);
  });
});

// sequenceItems as it was, with regular expressions over the whole text: the oracle for the
// line scan that replaced it.
function oldItems(text: string, entry: { key: string; start: number; end: number }) {
  const body = text.indexOf('\n', entry.start) + 1;
  if (body === 0 || body >= entry.end) return [];
  const first = /^( *)[^ \t\r\n#]/gm;
  first.lastIndex = body;
  const head = first.exec(text);
  if (!head || head.index >= entry.end) return [];
  const indent = (head[1] as string).length;
  const shallow = new RegExp(`\\n {0,${indent}}(?=[^ \\r\\n])`, 'g');
  shallow.lastIndex = head.index - 1;
  const items: { start: number; end: number }[] = [];
  for (let m = shallow.exec(text); m && m.index + 1 < entry.end; m = shallow.exec(text)) {
    const lineStart = m.index + 1;
    const at = m.index + m[0].length;
    if (text[at] === '#') continue;
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
    if (!isEntry) throw new SpanError('not a sequence');
    const previous = items[items.length - 1];
    if (previous) previous.end = lineStart;
    items.push({ start: lineStart, end: entry.end });
  }
  return items;
}

describe('sequenceItems, the line scan', () => {
  const lines = fc.array(
    fc.constantFrom(
      '- a: 1',
      '  - b: 2',
      '  c: 3',
      '    d',
      '-',
      '- ',
      '-\t',
      '  -',
      '# c',
      '  # c',
      ' #',
      '\t- x',
      ' \tx',
      '',
      '   ',
      '...',
      '---',
      '--- x',
      '-x',
      'k: v',
      '  \r',
    ),
    { maxLength: 12 },
  );
  it('splits where the regular expressions it replaced split', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), (body, crlf) => {
        const text = ['items:', ...body, 'next: 1', ''].join(crlf ? '\r\n' : '\n');
        const entry = topLevelEntries(text, { start: 0, end: text.length })[0];
        if (entry?.key !== 'items') return;
        const run = (split: () => { start: number; end: number }[]) => {
          try {
            return split().map(({ start, end }) => ({ start, end }));
          } catch (error) {
            if (error instanceof SpanError) return 'SpanError';
            throw error;
          }
        };
        expect(run(() => sequenceItems(text, entry))).toEqual(run(() => oldItems(text, entry)));
      }),
      { numRuns: 3000 },
    );
  });
});

// A regular expression `^(?:…line…\n)*$` over the whole prefix kept a backtracking entry per
// line: three million comment lines before the first `---` ended in a RangeError (`internal
// error: Maximum call stack size exceeded`). The prefix is now read a line at a time.
it('splits after millions of comment lines', () => {
  const head = '# c\n'.repeat(3_000_000);
  const text = `${head}a: 1\n---\nb: 2\n`;
  expect(splitDocuments(text).map((d) => d.end)).toEqual([head.length + 5, text.length]);
  expect(splitDocuments(`${head}---\nb: 2\n`)).toHaveLength(1);
});

describe('topLevelEntries: keys the scan does not read', () => {
  it('end the entry before them, under no key of ours', () => {
    // FUZZ_SEED=32261126: `! proposedValue: "-2"` was taken into `results:` and dropped with it.
    for (const line of ['! k: v', '&a k: v', '*a : v', '? k']) {
      const text = `items:\n- a: 1\nresults:\n${line}\nlast: 1\n`;
      const entries = topLevelEntries(text, { start: 0, end: text.length });
      expect(
        entries.map((e) => e.key),
        line,
      ).toEqual(['items', 'results', '', 'last']);
      const results = entries[1] as TopLevelEntry;
      expect(text.slice(results.start, results.end), line).toBe('results:\n');
    }
    // Before any entry, such a line is the document's own: no entry.
    const first = '! k: v\nitems: []\n';
    expect(topLevelEntries(first, { start: 0, end: first.length }).map((e) => e.key)).toEqual([
      'items',
    ]);
  });
});

describe("the input's results", () => {
  it('are replaced alone: a key the scan reads as none ends them, another is an error', () => {
    const list = (after: string) =>
      `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n${after}`;
    // A tagged key is an entry of its own: kept (main 058521a dropped it with the results).
    const tagged = run(list('! kept: "-2"\n'));
    expect(tagged.exitCode).toBe(0);
    expect(tagged.stdout).toContain('! kept: "-2"\n');
    // `-a` is a plain key to YAML that the scan does not read: not dropped in silence.
    const dashed = run(list('-a: v\n'));
    expect(dashed.exitCode).toBe(1);
    expect(dashed.stdout).toContain(
      'unsupported YAML at line 4: a top-level key within the results that this reader does not read as one',
    );
  });
});
