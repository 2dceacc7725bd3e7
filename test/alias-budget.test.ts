// Alias expansion bounded per input (issue #20 §1): every item may expand to 1,000,000 nodes, but
// the items of one input together to at most 1 per character of it + 1,000,000, so that the walks
// of the expanded values cost in proportion to the input. Shown by output: at 6d61c3f two items of
// 900k nodes each in 0.5 KB were both read and the run succeeded.
import { describe, expect, it } from 'vitest';
import { expandedNodes, expansionBase } from '../src/krm/yaml/parse.js';
import { run } from '../src/run.js';

const ten = (s: string) => `[${Array(10).fill(s).join(', ')}]`;
/** A Deployment whose extension field expands to ≈ 900,000 nodes through nested aliases. */
const item = (i: number) =>
  `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web${i}\n  namespace: shop\nx-data:\n  l0: &l0 ${ten('x')}\n  l1: &l1 ${ten('*l0')}\n  l2: &l2 ${ten('*l1')}\n  l3: &l3 ${ten('*l2')}\n  l4: &l4 ${ten('*l3')}\n  l5: [*l4, *l4, *l4, *l4, *l4, *l4, *l4]\n`;

describe('alias expansion per input', () => {
  it('reads one item near the per-item bound', () => {
    const out = run(item(0));
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
  });

  it('refuses the item that takes the input past its budget, naming the bound and the line', () => {
    const text = item(0) + item(1);
    const out = run(text);
    expect(out.exitCode).toBe(1);
    const bound = (text.length + expansionBase).toLocaleString('en');
    expect(out.stderr).toBe(
      `error: document 1 (Deployment shop/web1): YAML aliases expand this input to more than ${bound} nodes (1 per character of input + 1,000,000; a YAML alias bomb?) at line 14, column 1 (invalid-input)\n`,
    );
  });

  it('starts a fresh budget for each run', () => {
    expect(run(item(0)).exitCode).toBe(0);
    expect(run(item(0)).exitCode).toBe(0);
  });

  it('counts each distinct node once, aliases expanded', () => {
    const leaf = ['x', 'y'];
    const mid = { a: leaf, b: leaf };
    // 1 + 2 × (1 + 2 × 3) = 15 nodes as walks see them.
    expect(expandedNodes([mid, mid] as never, 100)).toBe(15);
    expect(expandedNodes([mid, mid] as never, 14)).toBe(Number.POSITIVE_INFINITY);
    expect(expandedNodes('x', 0)).toBe(1);
  });

  it('finds a cycle (`&a [*a]`, which js-yaml builds) instead of walking it', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(expandedNodes(cycle as never, 1e9)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the alias-bomb walk (toResource)', () => {
  it('walks a list of 300,000 entries in an item over 1 MB', () => {
    // At 6d61c3f it spread the list into one push: `internal error: Maximum call stack size
    // exceeded`.
    const text = `apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: a\nl:\n${'- 1\n'.repeat(300_000)}`;
    const out = run(text);
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
  });
});
