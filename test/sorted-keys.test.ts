// The writers' key order (site.ts sortedKeys) is sort()'s: by UTF-16 code units, integer-like
// keys among the others as text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedKeys } from '../src/krm/yaml/site.js';

describe('sortedKeys', () => {
  it('orders a mapping’s keys as Object.keys(…).sort() does', () => {
    const key = fc.oneof(
      fc.constantFrom('a', 'B', 'b', '_', '10', '9', '0', '', 'é', '\u{1F600}', 'aa', 'a.b'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 40 }), (keys) => {
        const value = Object.fromEntries(keys.map((k, i) => [k, i]));
        expect(sortedKeys(value)).toEqual(Object.keys(value).sort());
      }),
      { seed: 20261126, numRuns: 2000 },
    );
  });
});
