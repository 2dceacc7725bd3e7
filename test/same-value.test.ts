// The proof's comparison (splice.ts sameValue) gives isDeepStrictEqual's verdict on the values the
// readers and the rules make, and on any other value it is handed.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValue } from '../src/krm/yaml/splice.js';
import type { Json } from '../src/model/json.js';

/** A copy with every mapping's keys in reverse order: the same value to both. */
function reordered(value: Json): Json {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reordered(value[key] as Json)]),
  );
}

/** A copy with one node (the n-th met, depth first) replaced by `by`, or the value itself. */
function replaced(value: Json, n: number, by: Json): Json {
  let count = 0;
  const walk = (v: Json): Json => {
    if (count++ === n) return by;
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.keys(v).map((key) => [key, walk(v[key] as Json)]));
  };
  return walk(value);
}

const scalar = fc.oneof(
  fc.constantFrom<Json>(0, -0, Number.NaN, 1, '', '0', 'a', true, false, null),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -2, max: 2 }),
);
const value: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '0', '__proto__'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

describe('sameValue', () => {
  it('agrees with isDeepStrictEqual on values, their copies and near copies', () => {
    fc.assert(
      fc.property(value, value, fc.nat(20), (a, other, n) => {
        for (const b of [a, reordered(a), replaced(a, n, other), other]) {
          expect(sameValue(a, b)).toBe(isDeepStrictEqual(a, b));
          expect(sameValue(b, a)).toBe(isDeepStrictEqual(b, a));
        }
      }),
      { seed: 20261126, numRuns: 2000 },
    );
  });

  it.each<[string, unknown, unknown]>([
    ['0 and -0', 0, -0],
    ['NaN and NaN', Number.NaN, Number.NaN],
    ['a list and a mapping', [], {}],
    ['a mapping with a key more', { a: 1 }, { a: 1, b: 2 }],
    ['a key with undefined and none', { a: undefined }, { b: undefined }],
    ['a mapping without a prototype', Object.create(null), {}],
    ['two dates', new Date(0), new Date(0)],
    ['two other dates', new Date(0), new Date(1)],
    ['a date and a mapping', new Date(0), {}],
  ])('judges %s as isDeepStrictEqual does', (_, a, b) => {
    expect(sameValue(a as Json, b as Json)).toBe(isDeepStrictEqual(a, b));
    expect(sameValue(b as Json, a as Json)).toBe(isDeepStrictEqual(b, a));
  });

  it('leaves a value that holds itself to isDeepStrictEqual, past any depth a reader reads', () => {
    const a: { self?: unknown } = {};
    a.self = a;
    const b: { self?: unknown } = {};
    b.self = { self: b };
    expect(sameValue(a as Json, b as Json)).toBe(isDeepStrictEqual(a, b));
    const c: { self?: unknown; x?: number } = { x: 1 };
    c.self = c;
    expect(sameValue(a as Json, c as Json)).toBe(false);
  });
});
