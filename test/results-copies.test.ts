// The results' way to the writer (transform.ts): settled, folded and sorted, each step a list of
// every result (≈11k at 10k items), each outliving a scavenge on the fan-in bench. Counted: the
// lists a step makes where it has nothing to add or fold.
import { describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../src/model/config.js';
import { foldRepeats } from '../src/model/fold.js';
import { checksum } from '../src/model/result-rules.js';
import { plainResult, type Result } from '../src/model/results.js';
import { settle } from '../src/rules/rule-table.js';

const results = (n: number): Result[] =>
  Array.from({ length: n }, (_, i) => plainResult(checksum, `checksum ${i}`));

describe('foldRepeats', () => {
  // main 0c4fb3f copied the list result by result whatever it folded.
  it('hands back the list itself when nothing repeats', () => {
    const list = results(50);
    expect(foldRepeats(list, new Set(list))).toBe(list);
  });

  it('still folds the repeats it is given', () => {
    const ref = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', name });
    const list = ['a', 'b', 'c'].map((name) => ({
      ...plainResult(checksum, 'the same note'),
      resourceRef: ref(name),
    }));
    const folded = foldRepeats(list, new Set(list));
    expect(folded).toHaveLength(1);
    expect(folded[0]?.message).toBe('the same note (3 resources: Secret a, Secret b and Secret c)');
  });
});

describe('settle', () => {
  // main 0c4fb3f copied the results to append the silence annotations' warnings, then filtered
  // the copy: two lists of them all.
  it('makes one list of the results kept, no copy to append to', () => {
    const list = results(50);
    const slice = vi.spyOn(Array.prototype, 'slice');
    let settled: Result[];
    let copies: number;
    try {
      settled = settle(list, [], { ...defaultConfig });
      copies = slice.mock.calls.length;
    } finally {
      slice.mockRestore();
    }
    expect(copies).toBe(0);
    expect(settled).toEqual(list);
  });
});
