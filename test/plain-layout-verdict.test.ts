// isPlainLayout's verdict against one with main 0c4fb3f's search (below): session 16 changed its
// search (a `:` is plain text, the `: ` of a kpt quoted value is looked for behind the quote) for
// speed only. Both must agree on every text and every offset it is judged to: a verdict of
// "plain" where main's was not would let an edit skip its proof.
import { describe, expect, it } from 'vitest';
import { isPlainLayout, plainLayoutWith } from '../src/krm/yaml/plain-layout.js';
import { caseSeed, mutate, Rng } from './fuzz/mutate.js';
import { loadSeeds } from './fuzz/seeds.js';

// main 0c4fb3f's search: a `:` ended its run unless no quote followed it, and a kpt quoted value
// was matched from its `: `. The rest of the verdict is the module's own (plainLayoutWith).
const jsOnlySpaces =
  '\\v\\f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const mainVerdict = plainLayoutWith(
  new RegExp(
    `(?:[^"'[{&*!<\\t:${jsOnlySpaces}]+|:(?! ['"])|: '[^'\\n${jsOnlySpaces}]*'(?= *(?:\\r?\\n|$))|: "[^"\\\\\\n${jsOnlySpaces}]*"(?= *(?:\\r?\\n|$)))*`,
    'y',
  ),
);

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
