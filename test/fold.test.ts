// model/fold.ts: the names a folded message lists, and what is asked to write them.
import { describe, expect, it } from 'vitest';
import { nameList, namesOf } from '../src/model/fold.js';

const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));

describe('nameList', () => {
  it('names up to five, then counts the rest', () => {
    expect(nameList([])).toBe('');
    expect(nameList(['A'])).toBe('A');
    expect(nameList(letters(2))).toBe('A and B');
    expect(nameList(letters(5))).toBe('A, B, C, D and E');
    expect(nameList(letters(6))).toBe('A, B, C, D, E and 1 more');
    expect(nameList(letters(12))).toBe('A, B, C, D, E and 7 more');
  });
});

describe('namesOf', () => {
  // Counted: main's callers named every member (`nameList(members.map(describe))`), a thousand
  // names written for a group of a thousand, five of them printed.
  it('asks a name of the items it shows only', () => {
    const asked: number[] = [];
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const text = namesOf(items, (i) => {
      asked.push(i);
      return `r${i}`;
    });
    expect(text).toBe('r0, r1, r2, r3, r4 and 995 more');
    expect(asked).toEqual([0, 1, 2, 3, 4]);
    expect(namesOf([7, 8], (i) => `r${i}`)).toBe('r7 and r8');
  });
});
