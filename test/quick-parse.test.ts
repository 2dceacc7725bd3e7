// The quick reader must read exactly what js-yaml reads (same values, same key order, -0 and NaN
// included) or decline; it must decline whatever js-yaml rejects. Checked on hand-written edge
// cases, every first character of a plain scalar, the fuzz seeds and thousands of their mutants,
// and random line soup; and it must actually read the layouts real inputs use.
import { load } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { parseItem, readInput } from '../src/krm/read.js';
import { shallowPart } from '../src/krm/yaml/nesting.js';
import { schema, yamlProblem } from '../src/krm/yaml/parse.js';
import { hasUnusualCharacters, quickParse, ScalarCache } from '../src/krm/yaml/quick-parse.js';
import type { Json } from '../src/model/json.js';
import { maxNodes, type Projection } from '../src/model/resource.js';
import { nonSourceProjection } from '../src/rules/read-plan.js';
import { run } from '../src/run.js';
import { depth, testTimeoutMs } from './depth.js';
import { caseSeed, mutate, Rng } from './fuzz/mutate.js';
import { loadSeeds } from './fuzz/seeds.js';
import { loadSuite } from './yaml-suite-cases.js';

/** JSON with key order kept and the numbers JSON cannot tell apart spelled out. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_, v) =>
    typeof v === 'number' ? `number:${Object.is(v, -0) ? '-0' : String(v)}` : v,
  );

/** What js-yaml reads, as ParseItem takes it: the value, or undefined when it throws. */
function reference(text: string, entry: boolean): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = load(text, { schema });
  } catch {
    return undefined;
  }
  if (!entry) return { value };
  return Array.isArray(value) && value.length === 1 ? { value: value[0] } : undefined;
}

/** Shared by all the cases of this file: a cache hit must read what a miss reads. */
const scalarCache = new ScalarCache();

/**
 * Projections the reader must build exactly as the whole value cut down to them: run()'s, and one
 * of keys the suite cases, their `k:` form and the mutants use.
 */
const projections: readonly Projection[] = [
  nonSourceProjection(),
  new Map<string, Projection>([
    [
      'k',
      new Map<string, Projection>([
        ['a', true],
        ['foo', new Map()],
      ]),
    ],
    ['a', true],
    ['spec', new Map<string, Projection>([['template', true]])],
  ]),
];

/** The value cut down to a projection, as the quick reader builds it (rules/reads.ts). */
function project(value: Json, projection: Projection): Json {
  if (projection === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => project(v, projection));
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) {
    const p = projection.get(key);
    if (p !== undefined) out[key] = project(v, p);
  }
  return out;
}

/** Fails when the quick reader reads something else than js-yaml; true when it read the text. */
function agrees(text: string, entry: boolean): boolean {
  const quick = quickParse(text, 0, text.length, entry);
  expect(canonical(quickParse(text, 0, text.length, entry, scalarCache)), text).toBe(
    canonical(quick),
  );
  // Building less never changes the verdict, and builds exactly the projected value.
  const checkOnly = quickParse(text, 0, text.length, entry, scalarCache, false, null);
  expect(checkOnly === undefined, text).toBe(quick === undefined);
  for (const p of projections) {
    const projected = quickParse(text, 0, text.length, entry, scalarCache, false, p);
    expect(canonical(projected), text).toBe(
      canonical(quick === undefined ? undefined : project(quick, p)),
    );
  }
  if (quick === undefined) return false;
  const expected = reference(text, entry);
  expect(expected, `js-yaml rejects what the quick reader read:\n${text}`).toBeDefined();
  // Validity is the conforming reader's to decide: the quick reader may only read valid YAML.
  expect(yamlProblem(text), `invalid YAML read by the quick reader:\n${text}`).toBeUndefined();
  expect(canonical(quick), text).toBe(canonical(expected?.value));
  // What it reads proves itself shallow to the nesting guard (read.ts checkItemNesting): the
  // guard's scan, too, finds it closed at its end, whatever the quick reader's bound.
  expect(shallowPart(text, 0), `left open to the nesting guard:\n${text}`).toBe(true);
  return true;
}

/** Every item of an input as run() splits it, checked; how many the quick reader read. */
function agreesOnItems(input: string): { read: number; items: number } {
  let read = 0;
  let items = 0;
  let parsed: ReturnType<typeof readInput>;
  try {
    parsed = readInput(input);
  } catch {
    return { read, items };
  }
  for (const item of parsed.items) {
    if (!item.span) continue;
    items++;
    const { start, end, entry } = item.span;
    // Read in place, as parseItem does: the text around the item must not matter.
    const quick = quickParse(parsed.text, start, end, entry);
    const alone = parsed.text.slice(start, end);
    expect(canonical(quick), alone).toBe(canonical(quickParse(alone, 0, alone.length, entry)));
    if (agrees(alone, entry)) read++;
  }
  return { read, items };
}

describe('quickParse', () => {
  it.each([
    [
      'block mappings and lists, compact and indented',
      'a:\n  b: 1\n  c:\n  - d\n  -   e: f\n      g: h\ni:\n    - - j\n      - k\n',
    ],
    ['null values', 'a:\nb: ~\nc: null\nd:\n  # only a comment\ne: [x]\n'],
    [
      'scalars of every core type',
      'a: 1\nb: -0\nc: 0x1F\nd: 0o17\ne: .5\nf: .NaN\ng: -.inf\nh: True\ni: 1e3\nj: 1_000\n',
    ],
    ['keys that resolve', '1: a\n0x10: b\ntrue: c\n~: d\n1.5: e\n.inf: f\n-0: g\n'],
    ['quoted scalars and keys', `"a b": 'it''s'\n'c': "d # e"\n"": ''\nf: "x: [y"  # c\n`],
    [
      'plain scalars with indicators inside',
      'a: b:c\nd: e#f\ng: h [i] {j}, k\nl: -m\nn: ?o\np: :q\nr: http://s:80/t\n',
    ],
    ['comments everywhere', '# head\na: b # c\n  # deeper\n# shallower\nd: # e\n  f: g\n'],
    [
      'flow collections',
      'a: {b: 1, "c": [d, e, {f: g}]}\ni: [ j , k, ]\nl: {}\nm: []\nn: {"o":1}\n',
    ],
    [
      'literal block scalars',
      'a: |\n  x\n   y\n\n  z\nb: |-\n  x\nc: |+\n  x\n\n\nd: |2\n   x\ne: |\n\n  x\nf: |\ng: x\n',
    ],
    [
      'folded block scalars',
      'a: >\n  x\n  y\n\n  z\n    w\n  v\nb: >-\n  x\n\n\n  y\nc: >+\n  x\n',
    ],
    [
      'block scalars with spaces on blank lines',
      'a: |\n  \n  x\n      \n  y\n \nb: >\n\n    x\n     y\n\n    z\n',
    ],
    ['a block scalar ended by a comment', 'a: |\n  x\n# c\nb: 1\n'],
    ['a sequence at its key indentation', 'a:\n- b\n- c: d\n  e: f\ng: h\n'],
    ['an indented document', '  a: 1\n  b:\n    c: 2\n'],
    [
      'numbers that look like strings',
      'a: 1.2.3\nb: 0.1.0\nc: 1e\nd: 0b\ne: 08\nf: 2024-01-01\ng: 1:20\n',
    ],
    ['unicode', 'ä: "ö"\nb: ü ß\nc: ☃\n'],
    [
      'multi-line double-quoted scalars',
      'a: "x\n  y"\nb: "x  \n\n   y  "\nc: "\n  x\n  "\nd:\n  e: "x # y\n   z: w\n\n\n   - v"  # c\n',
    ],
    [
      'multi-line single-quoted scalars',
      "a: 'x\n  y'\nb: 'it''s\n\n\n  ''z'''\nc: '\n   \n  x  '\n",
    ],
    [
      'escapes in double-quoted scalars',
      'a: "\\t\\n\\\\\\"\\x41\\u00e9\\U0001F600\\0\\a\\b\\v\\f\\r\\e\\ \\/\\N\\_\\L\\P"\n"\\u0062": "\\x20 \\ "\n',
    ],
    ['escaped line breaks', 'a: "x \\\n   y\\\n  z\\\n  \\ w"\nb: "\\\n  x"\n'],
    ['multi-line quoted scalars in a sequence', 'a:\n- "x\n y"\n- \'x\n\n  y\'\n- b: "x\n    y"\n'],
  ])('reads %s as js-yaml does', (_, text) => {
    expect(agrees(text, false)).toBe(true);
    const entry = `- ${text.replace(/\n(?=.)/g, '\n  ')}`;
    expect(agrees(entry, true)).toBe(true);
  });

  it.each([
    ['a tab', 'a:\tb\n'],
    ['CRLF', 'a: b\r\nc: d\r\n'],
    ['no final line break', 'a: b'],
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a merge key', 'a: 1\n<<: {b: 2}\n'],
    ['an unknown escape', 'a: "x\\qy"\n'],
    ['an escaped lone surrogate', 'a: "\\ud800"\n'],
    ['an escape past the last code point', 'a: "\\U00110000"\n'],
    ['a short hexadecimal escape', 'a: "\\x4"\n'],
    ['a multi-line plain scalar', 'a: b\n  c\n'],
    ['a multi-line quoted scalar not indented past its key', 'a:\n  b: "x\n  y"\n'],
    ['a multi-line quoted scalar at column 0', "a: 'x\ny'\n"],
    ['a multi-line quoted key', '"a\n b": c\n'],
    ['a multi-line quoted scalar in flow', 'a: ["x\n  y"]\n'],
    ['an escaped line break before an empty line', 'a: "x\\\n\n  y"\n'],
    ['an unclosed multi-line quoted scalar', 'a: "x\n  y\n'],
    ['text after a multi-line quoted scalar', 'a: "x\n  y" z\n'],
    ['a multi-line quoted scalar as a key', 'a: "x\n  y": z\n'],
    ['a document marker in a quoted scalar', 'a: "x\n---\n y"\n'],
    ['a multi-line flow collection', 'a: [b,\n  c]\n'],
    ['an explicit key', '? a\n: b\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a duplicate key spelled differently', '1: a\n"1": b\n'],
    ['a duplicate key in flow', 'a: {b: 1, b: 2}\n'],
    ['__proto__', '__proto__: 1\n'],
    ['a bad indentation', 'a: 1\n  b: 2\n'],
    ['a scalar document', 'a\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a document end marker', 'a: 1\n...\n'],
    ['a value after `: ` in a value', 'a: b: c\n'],
    ['a key without a colon in a mapping', 'a: 1\nb\n'],
    ['a block scalar header with a digit 0', 'a: |0\n  x\n'],
    ['a block scalar header with text', 'a: |x\n  y\n'],
    ['a control character', 'a: b\u0001\n'],
    ['a byte order mark', '\uFEFFa: 1\n'],
    ['a lone surrogate', 'a: \uD800\n'],
    ['a flow key without a value', 'a: {b}\n'],
    ['an empty flow value', 'a: {b: }\n'],
    ['a merge key in flow', 'a: {<<: {b: 1}}\n'],
    ['astral characters (declined with every surrogate)', 'a: 😀\n'],
    ['an empty entry before a less indented one', 'a:\n  -\n- b\n'],
    ['a pair in a flow sequence', 'a: [b: c]\n'],
    ['a comment in a flow collection', 'a: [b #c\n  ]\n'],
    // Invalid YAML that js-yaml reads (found by the YAML test suite and the differential check).
    ['a comment without a space before it', 'a: "b"#c\n'],
    ['a comment right after a flow collection', 'a: [b]#c\n'],
    ['a leading empty line more indented than the text', 'a: >\n   \n x\nb: 1\n'],
    ['an implicit key over 1024 characters', `${'k'.repeat(1025)}: v\n`],
    ['a flow key over 1024 characters', `a: {${'k'.repeat(1025)}: v}\n`],
  ])('declines %s', (_, text) => {
    expect(quickParse(text, 0, text.length, false)).toBeUndefined();
  });

  it.each([
    ['a comment after a space', 'a: "b" #c\n'],
    ['leading empty lines no deeper than the text', 'a: >\n  \n\n  x\nb: 1\n'],
    ['a key of 1024 characters', `${'k'.repeat(1024)}: v\n`],
  ])('still reads %s', (_, text) => {
    expect(agrees(text, false)).toBe(true);
  });

  it('reads a document marker line', () => {
    expect(agrees('# c\n--- # d\na: 1\n', false)).toBe(true);
  });

  it('reads only its range of a larger text', () => {
    const item = 'b:\na: |\n  x\n';
    for (const next of ['    y\n', '  c: 1\n', '--- d\n', '']) {
      const text = `- z\n${item}${next}`;
      expect(quickParse(text, 4, 4 + item.length, false)).toEqual({ b: null, a: 'x\n' });
    }
    expect(quickParse('# c\n---\na: 1\n', 0, 4, false)).toBeUndefined();
  });

  it('reads keys from its cache only when their text matches', () => {
    const cache = new ScalarCache();
    // "Aa" and "BB" have the same hash; 1.0 reads as "1", so it is never cached.
    const text = 'Aa: 1\nBB: 2\n1.0: 3\nx:\n  BB: 4\n  Aa: 5\n';
    const once = { Aa: 1, BB: 2, '1': 3, x: { BB: 4, Aa: 5 } };
    expect(quickParse(text, 0, text.length, false, cache)).toEqual(once);
    expect(quickParse(text, 0, text.length, false, cache)).toEqual(once);
    expect(quickParse('1: a\n', 0, 5, false, cache)).toEqual({ '1': 'a' });
  });

  it('takes the key its shapes expect next only where the line reads as that key', () => {
    // The key after `m` is first read in one form, then met in others that read otherwise, or
    // not as a key: each text read as js-yaml reads it, and 6 of them at all.
    const texts = [
      'a:\n  m: 1\n  "1.0": x\nc:\n  m: 2\n  1.0: z\n',
      'a:\n  m: 1\n  "0x10": x\nc:\n  m: 2\n  0x10: z\n',
      'a:\n  m: 1\n  "t #c": x\nc:\n  m: 2\n  t #c: z\n',
      'a:\n  m: 1\n  "true": 1\nc:\n  m: 2\n  true: 2\n',
      'a:\n  m: 1\n  t: 1\nc:\n  m: 2\n  t : 3\nd:\n  m: 3\n  tt: 4\ne:\n  m: 4\n  t: 5\n',
      'a:\n  m: 1\n  t: 1\nc:\n  m: 2\n  t:\n',
      'a:\n  m: 1\n  t: 1\nc:\n  m: 2\n  t: #c\n',
      'a:\n  m: 1\n  t: 1\nc:\n  m: 2\n  t:x\n',
      'a:\n  m: 1\n  t: 1\nc:\n  m: 2\n  t: 1\n  t: 2\n',
    ];
    expect(texts.filter((text) => agrees(text, false))).toHaveLength(6);
  });

  it('reads values from its cache only when their text and style match', () => {
    const cache = new ScalarCache();
    // "Aa" and "BB" have the same hash; quoted, `1` and `true` are strings, plain they are not.
    const text =
      "a: Aa\nb: BB\nc: '1'\nd: 1\ne: [Aa, BB, '1', 1, \"true\", true]\n" +
      'f: {BB: Aa, Aa: BB, x: "1", y: 1}\ng: "true"\nh: true\ni: "B\\x42"\nj: \'a\'\'b\'\nk: BB\n';
    const once = {
      a: 'Aa',
      b: 'BB',
      c: '1',
      d: 1,
      e: ['Aa', 'BB', '1', 1, 'true', true],
      f: { BB: 'Aa', Aa: 'BB', x: '1', y: 1 },
      g: 'true',
      h: true,
      i: 'BB',
      j: "a'b",
      k: 'BB',
    };
    expect(quickParse(text, 0, text.length, false, cache)).toEqual(once);
    expect(quickParse(text, 0, text.length, false, cache)).toEqual(once);
    expect(load(text, { schema })).toEqual(once);
  });

  it('reads values of every length and character from its cache as js-yaml reads them', () => {
    const cache = new ScalarCache();
    // Around the length of a slot's copy (30 characters fit), empty, beyond Latin-1, and "Aa"
    // and "BB" (one hash) in a longer text, each plain and quoted, twice.
    const texts = [
      ...[1, 29, 30, 31, 32, 64].map((n) => 'x'.repeat(n)),
      'é',
      'aāb',
      `${'y'.repeat(20)}Aa`,
      `${'y'.repeat(20)}BB`,
    ];
    const lines = texts.flatMap((v, i) => [`p${i}: ${v}\n`, `q${i}: '${v}'\n`, `d${i}: "${v}"\n`]);
    const text = `${lines.join('')}e: ''\nf: ""\n`;
    const expected = load(text, { schema });
    for (let i = 0; i < 2; i++) {
      expect(quickParse(text, 0, text.length, false, cache)).toEqual(expected);
      // The same texts in other slots' order: a hit only where text and style match.
      const reversed = `${[...lines].reverse().join('')}e: ''\nf: ""\n`;
      expect(quickParse(reversed, 0, reversed.length, false, cache)).toEqual(
        load(reversed, { schema }),
      );
    }
  });

  it("compares a repeated value with its slot's copy, not with the string it read before", () => {
    // Each hit compared the text with the cached string (String.prototype.startsWith, two loads
    // after the slot's, each a cache miss on a large input); main: 2 × 49 calls with it.
    const value = 'payments-worker-db';
    const entry = `- {name: ${value}, key: '${value}'}\n`;
    const text = `a:\n${entry.repeat(50)}`;
    const startsWith = vi.spyOn(String.prototype, 'startsWith');
    try {
      const read = quickParse(text, 0, text.length, false, new ScalarCache()) as { a: unknown[] };
      expect(read.a).toHaveLength(50);
      expect(startsWith.mock.calls.filter(([known]) => known === value)).toHaveLength(0);
      // Beyond Latin-1 a value has no copy: its hits compare the string, as on main.
      const wide = 'payments-worker-ā';
      const other = text.replaceAll(value, wide);
      expect(quickParse(other, 0, other.length, false, new ScalarCache())).toEqual(
        load(other, { schema }),
      );
      expect(startsWith.mock.calls.filter(([known]) => known === wide)).toHaveLength(98);
    } finally {
      startsWith.mockRestore();
    }
  });

  it('finds every character YAML forbids among the unusual ones (input reading relies on it)', () => {
    for (let code = 0; code < 0x10000; code++) {
      const text = `a: b${String.fromCharCode(code)}\n`;
      let nonPrintable = false;
      try {
        load(text, { schema });
      } catch (error) {
        nonPrintable = /non-printable/.test((error as Error).message);
      }
      if (nonPrintable) expect(hasUnusualCharacters(text), `U+${code.toString(16)}`).toBe(true);
      if (hasUnusualCharacters(text))
        expect(quickParse(text, 0, text.length, false)).toBeUndefined();
    }
  });

  it("reads on from each line's end where its value's read stops: comments, quotes, flow", () => {
    // No line's end is searched for before its value is read (quick-parse.ts blockMapping): each
    // layout's read must stop at its line break, or find it after a comment, as js-yaml reads.
    const read: [string, boolean][] = [
      ['a: b # c\nd: e\n', false],
      ['a: b#c\nd: e\n', false],
      ["a: 'b' # c\nd: e\n", false],
      ['a: "b"   \nd: e\n', false],
      ['a: [b, "c"] # d\ne: f\n', false],
      ['a: {b: c}\nd: e\n', false],
      ['a: # c\n  b: d\ne: f\n', false],
      ['a:\n- b # c\n- "d" # e\nf: g\n', false],
      ['a: "b\n  c" # d\ne: f\n', false],
      ["a: 'b\n\n  c'\nd: e\n", false],
      ['a: "x\\\n  y"\nb: c\n', false],
      ['a: "\\x41\\u0042"\nb: c\n', false],
      ['"a b": c\nd: e\n', false],
      ["'a': |\n  b\nc: d\n", false],
      ['- # c\n  a: b\n', true],
      ['- a: b # c\n  d: "e"\n', true],
      ['- b # c\n', true],
      ['- "b"\n', true],
    ];
    for (const [text, entry] of read) {
      expect(quickParse(text, 0, text.length, entry), text).toBeDefined();
      expect(agrees(text, entry), text).toBe(true);
    }
    // Beyond the reader or invalid: a hex escape cut by its line's end, a comment without its
    // space, a quoted key not closed on its line, a document marker where a key may start.
    for (const text of [
      'a: "\\x4\n  1"\n',
      'a: "b"#c\n',
      '"a\n  b": c\n',
      'a: [b\n  ]\n',
      'a: 1\n--- b: 2\n',
      'a: 1\n... b: 2\n',
      '--- b: 2\n',
    ]) {
      expect(agrees(text, false), text).toBe(false);
    }
  });

  it('declines a list entry that is not alone', () => {
    expect(quickParse('- a: 1\n- b: 2\n', 0, 14, true)).toBeUndefined();
    expect(quickParse('a: 1\n', 0, 5, true)).toBeUndefined();
  });

  it('refuses a duplicate key where it builds nothing, in small and large mappings', () => {
    for (const n of [3, 16, 17, 40]) {
      const keys = Array.from({ length: n }, (_, i) => `k${i}: ${i}`);
      for (const text of [
        `${keys.join('\n')}\n`,
        `m:\n  ${keys.join('\n  ')}\n`,
        `m: {${keys.map((k) => k.replace(':', ': ')).join(', ')}}\n`,
      ]) {
        agrees(text, false);
        const twice = text.replace(`k${n - 1}:`, 'k0:');
        expect(quickParse(twice, 0, twice.length, false, undefined, false, null), twice).toBe(
          undefined,
        );
        agrees(twice, false);
      }
    }
  });

  it('reuses its key lists: the keys of a mapping never count in the next one at its depth', () => {
    const mapping = (n: number) => Array.from({ length: n }, (_, i) => `  k${i}: ${i}`).join('\n');
    for (const [first, second] of [
      [40, 3],
      [3, 40],
      [17, 17],
      [40, 40],
    ] as const) {
      const text = `a:\n${mapping(first)}\nb:\n${mapping(second)}\nc: {k0: 1, k1: 2}\n`;
      expect(quickParse(text, 0, text.length, false, undefined, false, null), text).toBeDefined();
      agrees(text, false);
    }
  });

  it('leaves items it reads that could exceed the node bound to the alias-bomb check', () => {
    const row = `[${'x,'.repeat(999)}x]`;
    const rows = Array.from({ length: maxNodes / 1000 + 1 }, () => row).join(',');
    const item = `- apiVersion: v1\n  kind: Foo\n  metadata: {name: big}\n  data: [${rows}]\n`;
    expect(quickParse(item, 0, item.length, true)).toBeDefined();
    const out = run(`apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${item}`);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toContain('item expands to more than 1,000,000 nodes');
  });

  it('resolves every first character of a plain scalar as js-yaml does', () => {
    // Every ASCII one; beyond, every 7th (all of them under test:deep).
    const suffixes = ['', 'ull', 'ULL', 'rue', 'alse', '0', '1', '.5', 'e3', 'x1F', 'o7', 'b1'];
    const more = ['inf', 'Inf', 'nan', 'NaN', '<', 'a', '_1', ' x'];
    for (let code = 0x21; code < 0x250; code += code < 0x80 ? 1 : depth(7, 1)) {
      const c = String.fromCharCode(code);
      for (const suffix of [...suffixes, ...more]) {
        const scalar = c + suffix;
        agrees(`k: ${scalar}\n`, false);
        agrees(`${scalar}: v\n`, false);
        agrees(`k: [${scalar}]\n`, false);
        agrees(`k: {${scalar}: v}\n`, false);
        agrees(`- ${scalar}\n`, true);
      }
    }
  });

  it('reads no invalid case of the YAML test suite, and the valid ones as js-yaml does', () => {
    let read = 0;
    let forms = 0;
    const quotedRead: string[] = [];
    for (const c of loadSuite()) {
      const text = c.text.endsWith('\n') ? c.text : `${c.text}\n`;
      const indented = text.replace(/\n(?=.)/g, '\n  ');
      // A document that is one scalar, as a value: the suite's multi-line quoted scalars.
      const body = text.replace(/^---\n/, '');
      const value = `k: ${body.replace(/\n(?=.)/g, '\n  ')}`;
      for (const [form, entry] of [
        [text, false],
        [`- ${indented}`, true],
        [`k:\n  ${indented}`, false],
        [value, false],
      ] as const) {
        forms++;
        const quick = quickParse(form, 0, form.length, entry);
        if (quick === undefined) continue;
        read++;
        if (form === value && /^["']/.test(body) && !c.fail) quotedRead.push(c.id);
        if (c.fail && form === text) throw new Error(`read invalid case ${c.id}:\n${form}`);
        agrees(form, entry);
      }
    }
    // Enough is read for the comparison to mean something.
    expect(read).toBeGreaterThan(forms / 10);
    // The suite's multi-line quoted scalars without tabs (folding, empty lines, escapes, escaped
    // line breaks), as values.
    expect(quotedRead).toEqual(
      expect.arrayContaining(['3RLN', '4GC6', '6WPF', '9TFX', 'DE56', 'KH5V', 'SSW6', 'T4YY']),
    );
  });

  it('reads CRLF items as js-yaml reads them (through their LF form), and only valid ones', () => {
    let items = 0;
    for (const seed of loadSeeds()) {
      let input: ReturnType<typeof readInput>;
      try {
        input = readInput(seed.text.replace(/\r?\n/g, '\r\n'));
      } catch {
        continue;
      }
      for (const item of input.items) {
        if (!item.span) continue;
        const { start, end, entry } = item.span;
        const alone = input.text.slice(start, end);
        const parsed = parseItem(input.text, item.span);
        const expected = reference(alone, entry);
        if (!('value' in parsed)) continue;
        items++;
        expect(yamlProblem(alone), alone).toBeUndefined();
        expect(canonical(parsed.value), alone).toBe(canonical(expected?.value));
      }
    }
    expect(items).toBeGreaterThan(50);
  });

  it('reads the items of every fuzz seed as js-yaml does, and most of them', () => {
    let read = 0;
    let items = 0;
    for (const seed of loadSeeds()) {
      const counts = agreesOnItems(seed.text);
      read += counts.read;
      items += counts.items;
    }
    expect(read).toBeGreaterThan(items * 0.5);
  });

  // QUICK_PARSE_RUNS and QUICK_PARSE_SEED explore further (the defaults keep CI deterministic):
  // 500 cases for `npm test`, 3000 under test:deep.
  const cases = Number(process.env.QUICK_PARSE_RUNS ?? depth(500, 3000));
  const seed = Number(process.env.QUICK_PARSE_SEED ?? 20261122);
  const timeout = Math.max(testTimeoutMs, cases * 40);

  it(
    'reads mutated inputs as js-yaml does, or declines them',
    () => {
      const seeds = loadSeeds().map((s) => s.text);
      for (let n = 0; n < cases; n++) {
        const rng = new Rng(caseSeed(seed, n));
        const context = { rng, other: () => rng.pick(seeds) };
        agreesOnItems(mutate(rng.pick(seeds), context).text);
      }
    },
    timeout,
  );

  it(
    'reads random line soup as js-yaml does, or declines it',
    () => {
      const rng = new Rng(seed);
      let read = 0;
      for (let n = 0; n < cases * 10; n++) {
        const text = soup(rng);
        if (agrees(text, false)) read++;
        if (agrees(`- ${text.replace(/\n(?=.)/g, '\n  ')}`, true)) read++;
      }
      // Enough of the soup is valid for the comparison to mean something.
      expect(read).toBeGreaterThan(cases);
    },
    timeout,
  );
});

const keys = ['a', 'b', 'a b', '"a"', "'b'", '"c d"', '1', 'true', '~', 'x:y', 'a#b', '-k', 'k-'];
const values = [
  ...['"q\\', '"\\u00e9 q', '"\\t', "'q''", '"q\\"', 'q"', "q'", 'q" # c', "q'': x"],
  ...['', 'v', 'w x', '1', '-1', '0x1F', '.5', 'null', 'True', '~', 'a:b', 'a#b', 'a # c', '-v'],
  ...['"q"', "'q'", "'it''s'", '"a # b"', '[a, b]', '{a: 1}', '{a: [b, {c: d}]}', '[]', '{}'],
  ...['[a, ]', '{a: 1, b}', '[a', '{a: 1', '"q', "'q", '# c', ': x', '- x', '|', '|-', '|+', '>'],
  ...['>-', '|2', '|1-', '| # c', '|x', '&a v', '*a', '!!str v', 'a: b', '? x', '%x', '`x', '@x'],
];

/** A few lines of YAML-like text: keys, entries, values and block lines at random indentations. */
function soup(rng: Rng): string {
  const lines: string[] = [];
  const count = 1 + rng.int(8);
  for (let i = 0; i < count; i++) {
    const indent = ' '.repeat(rng.pick([0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 6]));
    const kind = rng.int(10);
    const text = [
      '',
      ' ',
      '# c',
      'x',
      'x y ',
      '- x',
      'a: b',
      '---',
      '...',
      '- - x',
      '-   a: b',
      'q"',
      "q'",
      'x\\ y"',
      '\\ q"',
    ];
    if (kind === 0) lines.push(`${indent}${rng.pick(text)}`);
    else if (kind === 1) lines.push(`${indent}-${rng.chance(0.5) ? '' : ` ${rng.pick(values)}`}`);
    else if (kind === 2) lines.push(`${indent}- ${rng.pick(keys)}: ${rng.pick(values)}`);
    else lines.push(`${indent}${rng.pick(keys)}:${rng.chance(0.9) ? ' ' : ''}${rng.pick(values)}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('quickParse on one long line of flow collections', () => {
  it("looks for the line's end once, not again from each quoted scalar", () => {
    const n = 2_000;
    const entries = Array.from({ length: n }, (_, i) => `"k${i}": "v${i}"`).join(', ');
    const text = `a: {${entries}}\n`;
    const indexOf = String.prototype.indexOf;
    let scanned = 0;
    const spy = vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (
      this: string,
      search: string,
      from?: number,
    ) {
      const found = indexOf.call(this, search, from);
      if (search === '\n') scanned += (found < 0 ? this.length : found) - (from ?? 0);
      return found;
    });
    try {
      const value = quickParse(text, 0, text.length, false) as { a: Record<string, string> };
      expect(value.a[`k${n - 1}`]).toBe(`v${n - 1}`);
    } finally {
      spy.mockRestore();
    }
    // Characters passed over looking for a line end; main looked from each of the 4,000 quoted
    // scalars to the end of the line (7 × 10⁷ here: bench/adversarial one-line-items).
    expect(scanned).toBeLessThanOrEqual(2 * text.length);
  });
});

describe('quickParse on many items of one layout', () => {
  it('reads a key it has read at that place before once, not walked and then compared', () => {
    const item = [
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata:',
      '    name: api',
      '    namespace: shop',
      '    labels:',
      '      app.kubernetes.io/name: api',
      '    annotations:',
      "      config.kubernetes.io/index: '0'",
      "      internal.config.kubernetes.io/path: 'api.yaml'",
      '  spec:',
      '    replicas: 2',
      '    template:',
      '      metadata:',
      '        labels:',
      '          app.kubernetes.io/name: api',
      '      spec:',
      '        containers:',
      '        - name: app',
      '          image: example/api:v1',
      '          envFrom:',
      '          - secretRef:',
      '              name: api-env',
      '',
    ].join('\n');
    const n = 100;
    const text = item.repeat(2 * n);
    const cache = new ScalarCache();
    const read = (i: number) =>
      quickParse(text, i * item.length, (i + 1) * item.length, true, cache, true);
    // The first items teach it the layout.
    for (let i = 0; i < n; i++) read(i);
    const values: Json[] = [];
    const { charCodeAt, startsWith } = String.prototype;
    let examined = 0;
    const codes = vi.spyOn(String.prototype, 'charCodeAt').mockImplementation(function (
      this: string,
      at: number,
    ) {
      examined++;
      return charCodeAt.call(this, at);
    });
    const starts = vi.spyOn(String.prototype, 'startsWith').mockImplementation(function (
      this: string,
      search: string,
      at?: number,
    ) {
      examined += search.length;
      return startsWith.call(this, search, at);
    });
    try {
      for (let i = n; i < 2 * n; i++) values.push(read(i) as Json);
    } finally {
      codes.mockRestore();
      starts.mockRestore();
    }
    for (const value of values) expect(value).toEqual(read(0));
    // Characters looked at per item of 503 (each charCodeAt, and startsWith's whole search):
    // 755. Main walked and hashed the first key of each mapping (in a run, also each key after
    // one a projection leaves out), then compared it with the key it looked up: 923.
    expect(examined / n).toBeLessThanOrEqual(800);
  });
});
