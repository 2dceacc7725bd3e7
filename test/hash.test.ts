// canonicalJson (model/hash.ts) against a reference written from its definition: object keys
// sorted by UTF-16 code units at every level, JSON.stringify for everything else. Keys include
// array indexes (which every object lists first, in numeric order, not in text order),
// "__proto__" and characters outside the BMP.

import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  canonicalJson,
  canonicalSize,
  sha256Hex,
  sha256HexOfPieces,
  sortShort,
  sortValues,
} from '../src/model/hash.js';
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

describe('canonicalSize, counted', () => {
  // main listed each object's keys with Object.keys (a list per object, ≈1.5 MB of the sampling
  // heap profile of fan-in's checksums) and each value to visit in a list per call.
  it('lists no object keys', () => {
    const value = { b: [{ c: 'x', d: { e: 1 } }], a: { f: [1, 2, { g: null }] } };
    const bytes = Buffer.byteLength(canonicalJson(value));
    const keys = vi.spyOn(Object, 'keys');
    try {
      expect(canonicalSize(value, Infinity)).toBe(bytes);
      // Stopped at its limit, with values left to visit.
      expect(canonicalSize(value, 3)).toBeGreaterThan(3);
      expect(keys).not.toHaveBeenCalled();
    } finally {
      keys.mockRestore();
    }
  });
});

describe('canonicalSize with a KeyOrder', () => {
  it('says the keys are in order only when the text written without sorting is canonical', () => {
    fc.assert(
      fc.property(json, fc.nat(40), (value, limit) => {
        const order = { sorted: true };
        canonicalSize(value, limit, order);
        return !order.sorted || canonicalJson(value, true) === reference(value);
      }),
      { numRuns: 3000, seed: 20261126 },
    );
    const order = { sorted: false };
    canonicalSize({ a: 1, b: [{ c: 1, d: 2 }] }, Infinity, order);
    expect(order.sorted).toBe(true);
    canonicalSize({ a: 1, b: [{ d: 1, c: 2 }] }, Infinity, order);
    expect(order.sorted).toBe(false);
    // Array-index keys come first as numbers, not in text order.
    canonicalSize({ '9': 2, '10': 1 }, Infinity, order);
    expect(order.sorted).toBe(false);
    // Stopped at the limit before the unsorted object: not known to be in order.
    canonicalSize(['a long text first', { b: 1, a: 2 }], 4, order);
    expect(order.sorted).toBe(false);
  });
});

describe('sortShort', () => {
  it('orders as Array.prototype.sort does, equal items in their order, short or long', () => {
    const byKey = (a: [number, number], b: [number, number]) => a[0] - b[0];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5), fc.nat()), { maxLength: 80 }), (items) => {
        expect(sortShort([...items], byKey)).toEqual([...items].sort(byKey));
      }),
      { numRuns: 1000, seed: 20261126 },
    );
  });

  it('sortValues orders numbers by value, short or long', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 80 }), (numbers) => {
        expect(sortValues([...numbers])).toEqual([...numbers].sort((a, b) => a - b));
      }),
      { numRuns: 1000, seed: 20261126 },
    );
  });

  it('sortValues orders texts as Array.prototype.sort does, short or long', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 80 }), (texts) => {
        expect(sortValues([...texts])).toEqual([...texts].sort());
      }),
      { numRuns: 1000, seed: 20261126 },
    );
  });

  it('sortValues orders the first `count` only, short or long', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 80 }), fc.nat(80), (texts, n) => {
        const count = Math.min(n, texts.length);
        const sorted = sortValues([...texts], count);
        expect(sorted.slice(0, count)).toEqual(texts.slice(0, count).sort());
        expect(sorted.slice(count)).toEqual(texts.slice(count));
      }),
      { numRuns: 1000, seed: 20261126 },
    );
  });

  // Counted through valueOf, which `>` calls on each side: a checksum's twenty entries share long
  // prefixes, each comparison reading far into both texts.
  it('sortValues finds a place by halving: about log2 comparisons a value, one when in order', () => {
    let compared = 0;
    const counted = (n: number) =>
      ({
        valueOf() {
          compared++;
          return n;
        },
      }) as unknown as number;
    // Twenty numbers in a fixed shuffled order (a linear congruential sequence).
    const order = Array.from({ length: 20 }, (_, i) => (i * 7 + 3) % 20);
    const values = order.map(counted);
    sortValues(values);
    // Two valueOf calls a comparison; main scanned back from the end: 108 comparisons here.
    expect(compared / 2).toBe(70);
    compared = 0;
    sortValues(values);
    expect(compared / 2).toBe(19);
    expect(values.map(Number)).toEqual([...order].sort((a, b) => a - b));
  });

  // Counted, not timed: V8's sort allocates its work array and state per call, for every object
  // of every hashed content (main called it once per object whose keys were out of order).
  it('sorts a short object without Array.prototype.sort', () => {
    const sort = vi.spyOn(Array.prototype, 'sort');
    try {
      expect(canonicalJson({ target: { name: 'a' }, data: [{ b: 1, a: 2 }], c: 3 })).toBe(
        '{"c":3,"data":[{"a":2,"b":1}],"target":{"name":"a"}}',
      );
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
  });
});

describe('sha256HexOfPieces', () => {
  it('is the digest of the pieces joined, fed whole or piece by piece', () => {
    for (const size of [0, 1, 300, 1024, 1025, 70_000]) {
      const pieces = ['[{"content":', JSON.stringify('é'.repeat(size)), ',"secret":"s"}]'];
      expect(sha256HexOfPieces(pieces)).toBe(sha256Hex(pieces.join('')));
    }
  });

  it('takes a one-character piece as its byte, beside longer texts', () => {
    for (const size of [0, 1, 300, 30_000, 70_000]) {
      const entry = `{"content":${JSON.stringify('é'.repeat(size))},"secret":"s"}`;
      const pieces = ['[', entry, ',', '{"a":1}', ',', entry, ']'];
      expect(sha256HexOfPieces(pieces)).toBe(sha256Hex(pieces.join('')));
    }
    // Not ASCII: written as UTF-8, not as one byte.
    expect(sha256HexOfPieces(['é', 'x', '\u{1F600}'])).toBe(sha256Hex('éx\u{1F600}'));
  });

  // The checksums write over one list of pieces (checksums.ts `fed`): only the first `count`
  // count, large or small. Main hashed the whole list (this fails there).
  it('hashes the first count pieces of a longer list', () => {
    for (const size of [1, 70_000]) {
      const pieces = [
        '[{"content":',
        JSON.stringify('x'.repeat(size)),
        '}]',
        'stale',
        'x'.repeat(size),
      ];
      expect(sha256HexOfPieces(pieces, 3)).toBe(sha256Hex(pieces.slice(0, 3).join('')));
    }
  });

  // Counted: a Hash object and an update per piece cost twice a one-shot hash of a short list.
  it('hashes a short list without a Hash object', () => {
    const createHash = vi.spyOn(crypto, 'createHash');
    try {
      sha256HexOfPieces(['[{"content":', '{"a":1}', ',"secret":"s"}]']);
      expect(createHash).not.toHaveBeenCalled();
    } finally {
      createHash.mockRestore();
    }
  });

  /** The digest of `pieces` and how many times a Hash was fed for it. */
  function fed(pieces: readonly string[]): { digest: string; updates: number } {
    const real = crypto.createHash;
    let updates = 0;
    const createHash = vi.spyOn(crypto, 'createHash').mockImplementation((algorithm) => {
      const hash = real(algorithm);
      const update = hash.update.bind(hash);
      hash.update = ((data: string, encoding: crypto.Encoding) => {
        updates++;
        return update(data, encoding);
      }) as typeof hash.update;
      return hash;
    });
    try {
      return { digest: sha256HexOfPieces(pieces), updates };
    } finally {
      createHash.mockRestore();
    }
  }

  // Counted: main fed a long list piece by piece (four updates an entry; 4,001 here).
  it('feeds a long list of small pieces to the digest 64 KiB at a time', () => {
    const pieces = ['['];
    for (let i = 0; i < 1000; i++)
      pieces.push('{"content":', `"${'v'.repeat(40)}"`, ',"secret":', '"s"}');
    const { digest, updates } = fed(pieces);
    expect(digest).toBe(sha256Hex(pieces.join('')));
    const chars = pieces.join('').length;
    expect(chars).toBeGreaterThan(64 * 1024);
    expect(updates).toBe(Math.ceil(chars / (64 * 1024)));
  });

  it('feeds a piece longer than a chunk alone, between the chunks around it', () => {
    const pieces = ['[{"content":', `"${'é'.repeat(200_000)}"`, ',"secret":"s"}]'];
    const { digest, updates } = fed(pieces);
    expect(digest).toBe(sha256Hex(pieces.join('')));
    expect(updates).toBe(3);
  });
});
