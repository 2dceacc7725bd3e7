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

  it('picks the nearest candidate, the first among equals, case-insensitively', () => {
    expect(nearest('storewave', ['storeWave', 'sourceWave'])).toBe('storeWave');
    expect(nearest('chek', ['check', 'cheek'])).toBe('check');
    expect(nearest('zzz', ['plan', 'check'])).toBeUndefined();
  });
});
