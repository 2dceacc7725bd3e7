import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distance, nearest } from '../src/model/near.js';

describe('near words', () => {
  it('counts edits, and stops past the bound', () => {
    expect(distance('plann', 'plan', 2)).toBe(1);
    expect(distance('verbsoe', 'verbose', 2)).toBe(2);
    expect(distance('abcdef', 'uvwxyz', 2)).toBe(3);
  });

  it('never compares words longer than a Kubernetes name', () => {
    const long = 'a'.repeat(254);
    expect(distance(long, long, 2)).toBe(3);
    expect(distance('a'.repeat(253), 'a'.repeat(253), 2)).toBe(0);
  });

  it('computes only the cells within the bound of the diagonal', () => {
    // A name as near-name compares it, against one of its length: each cell reads a character of
    // the second word once, counted here. Main computed every cell (625); the band is 5 wide.
    const a = 'shipping-3-worker-db-6370';
    const text = 'shipping-3-worker-db-6371';
    let cells = 0;
    const counted = {
      length: text.length,
      charCodeAt: (i: number) => {
        cells++;
        return text.charCodeAt(i);
      },
    } as unknown as string;
    expect(distance(a, counted, 2)).toBe(1);
    expect(cells).toBeLessThanOrEqual(5 * a.length);
  });

  it('picks the nearest candidate, the first among equals, case-insensitively', () => {
    expect(nearest('storewave', ['storeWave', 'sourceWave'])).toBe('storeWave');
    expect(nearest('chek', ['check', 'cheek'])).toBe('check');
    expect(nearest('zzz', ['plan', 'check'])).toBeUndefined();
  });

  it("gives the full table's answer, whatever was compared before (its rows are shared)", () => {
    // The textbook table, whole. Past the bound only "past it" is an answer (callers compare).
    const full = (a: string, b: string) => {
      let row = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) {
          const cost = a[i - 1] === b[j - 1] ? 0 : 1;
          next.push(
            Math.min(
              (row[j] as number) + 1,
              (next[j - 1] as number) + 1,
              (row[j - 1] as number) + cost,
            ),
          );
        }
        row = next;
      }
      return row[b.length] as number;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-'), maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, word, fc.integer({ min: 0, max: 3 })), { maxLength: 8 }),
        (pairs) => {
          for (const [a, b, max] of pairs)
            expect(Math.min(distance(a, b, max), max + 1)).toBe(Math.min(full(a, b), max + 1));
        },
      ),
    );
  });
});
