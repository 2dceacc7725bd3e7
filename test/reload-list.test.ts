// The work the double-restart lint spends on Reloader reload lists, counted through re2js: each
// distinct entry compiled once per run, plain names never compiled, answers kept per name, and a
// run-wide budget after which a list is undecided (the lint's warning, test/double-restart.test.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ReloadLists } from '../src/rules/lints/reload-list.js';

const work = vi.hoisted(() => ({ compiled: [] as string[], matched: 0 }));
vi.mock('../src/rules/lints/load-re2js.cjs', async (importOriginal) => {
  const actual = (await importOriginal<{ default: () => typeof import('re2js').RE2JS }>()).default;
  return {
    default: () => ({
      compile(source: string) {
        work.compiled.push(source);
        const pattern = actual().compile(source);
        return {
          programSize: () => pattern.programSize(),
          test(name: string) {
            work.matched++;
            return pattern.test(name);
          },
        };
      },
    }),
  };
});

beforeEach(() => {
  work.compiled = [];
  work.matched = 0;
});

describe('reload lists: work counted', () => {
  it('compiles each distinct entry once per run, plain names never, and keeps answers', () => {
    const lists = new ReloadLists();
    for (let i = 0; i < 50; i++) {
      const list = lists.list(`plain-${i}, d.* ,(?i)X${i % 2}`);
      expect(lists.named(list, 'db')).toBe(true);
      expect(lists.named(list, 'x1')).toBe(i % 2 === 1);
      expect(lists.named(list, 'x1')).toBe(i % 2 === 1);
      expect(lists.named(list, `plain-${i}`)).toBe(true);
    }
    expect(work.compiled.sort()).toEqual(['^(?i)X0$', '^(?i)X1$', '^d.*$']);
    // Per list: `db` one match (d.*), `x1` two (d.*, then (?i)X…) the first time only.
    expect(work.matched).toBe(50 * 3);
  });

  it('never asks about a name longer than Kubernetes allows', () => {
    const lists = new ReloadLists();
    expect(lists.named(lists.list('a+'), 'a'.repeat(254))).toBe(false);
    expect(work.matched).toBe(0);
  });

  it('stops compiling when the run budget is spent: later lists are undecided', () => {
    const lists = new ReloadLists();
    const entries = (from: number) =>
      Array.from({ length: 3000 }, (_, i) => `x${from + i}*`).join(',');
    const first = lists.list(entries(0));
    const second = lists.list(entries(3000));
    const third = lists.list(`db, d.`);
    // 32 KiB of entries at most (8192 steps a character of 2^28): fewer than the 6000 given.
    expect(work.compiled.length).toBeGreaterThan(1000);
    expect(work.compiled.length).toBeLessThan(6000);
    expect(first.cut ?? second.cut).toBeDefined();
    expect(lists.named(second, 'db')).toBeUndefined();
    // A plain entry is still decided by text; a regular expression past the budget is not.
    expect(lists.named(third, 'db')).toBe(true);
    expect(lists.named(third, 'dx')).toBeUndefined();
  });
});
