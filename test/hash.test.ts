// canonicalJson (model/hash.ts) against a reference written from its definition: object keys
// sorted by UTF-16 code units at every level, JSON.stringify for everything else. Keys include
// array indexes (which every object lists first, in numeric order, not in text order),
// "__proto__" and characters outside the BMP.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSize } from '../src/model/hash.js';
import type { Json } from '../src/model/json.js';

function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const members = keys.map(
      (k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`,
    );
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('0', '1', '2', '9', '10', '011', '4294967294', '4294967295', '__proto__'),
  fc.constantFrom('a', 'b', 'B', 'é', '\u{1F600}', '\uFFFF', ''),
);
const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<Json>(null, true, false, 0, -0, 1.5, -7, 2 ** 53, ''),
    fc.string({ maxLength: 6 }),
    fc.array(tie('json'), { maxLength: 4 }),
    // Object.fromEntries makes every key an own property, "__proto__" included.
    fc
      .array(fc.tuple(key, tie('json')), { maxLength: 6 })
      .map((entries) => Object.fromEntries(entries) as Json),
  ),
}));

describe('canonicalJson', () => {
  it('sorts keys as text at every level, array indexes included', () => {
    expect(canonicalJson({ b: 1, a: { '9': 2, '10': 1, x: [{ d: 1, c: 2 }] } })).toBe(
      '{"a":{"10":1,"9":2,"x":[{"c":2,"d":1}]},"b":1}',
    );
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":{"b":1,"a":2}}'))).toBe(
      '{"__proto__":{"a":2,"b":1},"z":1}',
    );
    expect(canonicalJson({ '\u{1F600}': 1, '\uFFFF': 2 })).toBe('{"\u{1F600}":1,"\uFFFF":2}');
  });

  it('equals the reference on random values', () => {
    fc.assert(
      fc.property(json, (value) => canonicalJson(value) === reference(value)),
      { numRuns: 3000, seed: 20261125 },
    );
  });

  it('has the UTF-8 length canonicalSize counts without writing it, up to its limit', () => {
    fc.assert(
      fc.property(json, fc.nat(40), (value, limit) => {
        const bytes = Buffer.byteLength(canonicalJson(value));
        const counted = canonicalSize(value, limit);
        return (
          canonicalSize(value, Infinity) === bytes &&
          (bytes > limit ? counted > limit : counted === bytes)
        );
      }),
      { numRuns: 3000, seed: 20261125 },
    );
    expect(canonicalSize(['"\\\n\u0001é\u{1F600}', NaN, -0, 1e21], Infinity)).toBe(
      Buffer.byteLength(canonicalJson(['"\\\n\u0001é\u{1F600}', NaN, -0, 1e21])),
    );
  });
});
