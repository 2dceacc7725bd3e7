// Every input the fuzzer saved (test/fuzz/findings/<hash>.yaml, described in <hash>.txt) must keep
// the invariants of check.ts: a test here fails while its bug exists. The seeds must keep them too,
// which shows the checker accepts valid inputs. Nothing here is timed: timing findings (`cost: …`,
// `slow: …`, cost.ts) are replayed for their output only; `npm run bench` times them.
import { describe, expect, it } from 'vitest';
import { check, loadFindings } from './check.js';
import { loadSeeds } from './seeds.js';

describe('fuzz findings', () => {
  const findings = loadFindings();
  it('are saved with a description', () => {
    for (const f of findings) expect(f.description, f.hash).not.toBe('');
  });
  for (const f of findings) {
    it(`${f.hash}: ${f.description.slice(0, 160)}`, () => {
      const problem = check(f.text);
      expect(problem?.detail, `test/fuzz/findings/${f.hash}.yaml`).toBeUndefined();
    });
  }
});

describe('fuzz seeds', () => {
  for (const seed of loadSeeds()) {
    it(seed.name, () => {
      expect(check(seed.text)?.detail).toBeUndefined();
    });
  }
});
