// isPlainLayout's verdict against main 0c4fb3f's (copied below as it was): session 16 changed its
// search (a `:` is plain text, the `: ` of a kpt quoted value is looked for behind the quote) for
// speed only. Both must agree on every text and every offset it is judged to: a verdict of
// "plain" where main's was not would let an edit skip its proof.
import { describe, expect, it } from 'vitest';
import { isPlainLayout } from '../src/krm/yaml/plain-layout.js';
import { caseSeed, mutate, Rng } from './fuzz/mutate.js';
import { loadSeeds } from './fuzz/seeds.js';

// ---- main 0c4fb3f's src/krm/yaml/plain-layout.ts, its code unchanged (comments shortened) ----
const jsOnlySpaces =
  '\\v\\f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const jsOnlySpace = new RegExp(`[${jsOnlySpaces}]`);

const settled = new RegExp(
  `(?:[^"'[{&*!<\\t:${jsOnlySpaces}]+|:(?! ['"])|: '[^'\\n${jsOnlySpaces}]*'(?= *(?:\\r?\\n|$))|: "[^"\\\\\\n${jsOnlySpaces}]*"(?= *(?:\\r?\\n|$)))*`,
  'y',
);

function mainVerdict(text: string, end = text.length): boolean {
  // A lone carriage return is a line break to YAML, not to the line reader.
  // (Looked for first with indexOf: most items hold no carriage return at all.)
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return false;
  // Searched no further than the line `end` is on (`end` is a line start where the locator set
  // it): the search would otherwise pass over the rest of the item, which needs no judging.
  const last = end < text.length ? text.indexOf('\n', Math.max(end - 1, 0)) : -1;
  const judged = last < 0 ? text : text.slice(0, last + 1);
  for (let from = 0; ; ) {
    settled.lastIndex = from;
    settled.test(judged);
    // Only plain text stands before `at` on its line: a special character, or a `:` before one.
    const at = settled.lastIndex;
    if (at >= judged.length) return true;
    let start = at;
    while (start > 0 && text.charCodeAt(start - 1) !== 10) start--;
    if (start >= end) return true;
    const lineBreak = text.indexOf('\n', at);
    const lineEnd = lineBreak < 0 ? text.length : lineBreak;
    from = lineEnd;
    if (jsOnlySpace.test(text[at] as string)) return false;
    if (!commentBefore(text, start, at) && !isPlainLine(text, start, at, lineEnd)) return false;
  }
}

function commentBefore(text: string, start: number, at: number): boolean {
  for (let i = start; i < at; i++) {
    if (text.charCodeAt(i) === 35 && (i === start || text.charCodeAt(i - 1) === 32)) return true;
  }
  return false;
}

function isPlainLine(text: string, start: number, from: number, end: number): boolean {
  let indent = start;
  while (indent < from && text.charCodeAt(indent) === 32) indent++;
  // Only spaces before it: it starts the line's content, where a tab is indentation.
  if (indent === from && text.charCodeAt(from) === 9) return false;
  // At the start of a node: at the line's content, after `- `, `key: `, `[`, `,` …
  let valueStart = indent === from || nodeStart[text.charCodeAt(from - 1)] === 1;
  let i = from;
  let quote = 0; // 34 ", 39 '
  let depth = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    // Inside a quoted value as anywhere (most characters are below 128: no test).
    if ((c > 127 || c === 11 || c === 12) && jsOnlySpace.test(text[i] as string)) return false;
    if (quote === 34) {
      if (c === 92)
        i++; // backslash escape
      else if (c === 34) quote = 0;
      continue;
    }
    if (quote === 39) {
      if (c === 39) {
        if (text.charCodeAt(i + 1) === 39) i++;
        else quote = 0;
      }
      continue;
    }
    if (c === 35 && (i === start || text.charCodeAt(i - 1) === 32)) break; // comment
    // Quotes and brackets open a scalar or collection only where a node starts; inside a plain
    // scalar (`don't`) they are text, for js-yaml as for YAML.
    if (valueStart && (c === 34 || c === 39)) quote = c;
    else if (valueStart && (c === 91 || c === 123)) depth++;
    else if (depth > 0 && (c === 93 || c === 125)) depth--;
    else if (valueStart && (c === 38 || c === 42 || c === 33))
      return false; // & * ! at a node
    else if (c === 60 && text.charCodeAt(i + 1) === 60) return false; // << merge key
    valueStart = nodeStart[c] === 1;
  }
  return quote === 0 && depth === 0;
}

const nodeStart = new Uint8Array(128);
for (const c of ' -:[{,?') nodeStart[c.charCodeAt(0)] = 1;
// ---- end of main's copy ----

/** Every offset a locator can judge to: each line start, and a few inside lines. */
function offsets(text: string): number[] {
  const at = [0, 1, text.length];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) at.push(i + 1, i);
  return at.filter((n) => n <= text.length);
}

function agree(text: string): number {
  let compared = 0;
  for (const end of offsets(text)) {
    const verdict = isPlainLayout(text, end);
    if (verdict !== mainVerdict(text, end)) {
      expect({ text, end, verdict }).toEqual({ text, end, verdict: mainVerdict(text, end) });
    }
    compared++;
  }
  return compared;
}

/** Pieces that make and break the kpt quoted value and the line check's cases. */
const pieces = [
  'a',
  'key',
  ': ',
  ':',
  '::',
  ': ',
  ' ',
  '  ',
  "'",
  '"',
  "''",
  '\\',
  '\\"',
  '#',
  ' #',
  '- ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&',
  '*',
  '!',
  '<',
  '<<',
  '?',
  '|',
  '>',
  '\t',
  '\r',
  '\r\n',
  '\n',
  '\n',
  '\n  ',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\v',
  'é',
  ": '0'",
  ': "x"',
  ": 'it''s'",
  ': "a\\"b"',
  ": ''",
  ': ""',
];

describe('isPlainLayout against main 0c4fb3f', () => {
  it('gives its verdict on the fuzz seeds and their mutations, at every offset', () => {
    const seeds = loadSeeds().map((s) => s.text);
    let compared = 0;
    for (const seed of seeds) compared += agree(seed);
    for (let n = 0; n < 300; n++) {
      const rng = new Rng(caseSeed(16270002, n));
      compared += agree(mutate(rng.pick(seeds), { rng, other: () => rng.pick(seeds) }).text);
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('gives its verdict on random soup of the characters it looks at', () => {
    const rng = new Rng(16270003);
    let plain = 0;
    for (let n = 0; n < 4000; n++) {
      let text = '';
      const length = 1 + rng.int(24);
      for (let i = 0; i < length; i++) text += rng.pick(pieces);
      agree(text);
      if (isPlainLayout(text)) plain++;
    }
    // Both verdicts are met often: the soup tests the plain runs as well as the refusals.
    expect(plain).toBeGreaterThan(400);
    expect(plain).toBeLessThan(3600);
  });

  it('gives its verdict on the kpt quoted values, closed or not', () => {
    const lines = [
      "  a: '0'",
      '  a: "0"',
      "  a: '0' ",
      "  a: '0'x",
      "  a:  '0'",
      "  a:'0'",
      "  a: 'x\n  y'",
      '  a: "x\\"y"',
      '  a: "x" # c',
      "  a: ''''",
      "  a: 'x\u00a0'",
      '  a: "x\u2028"',
      "  a: 'x' &b",
      "  a: b: 'c'",
      "  a::: 'c'",
      "  - a: 'c'",
      "  '0': 'c'",
      "  a: '0'\r",
      "  a: '0'\r\n  b: [",
    ];
    for (const a of lines) for (const b of lines) agree(`x:\n${a}\n${b}\n`);
  });
});
