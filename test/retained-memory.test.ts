// What a run keeps alive per item and per reference, counted (objects, not bytes or time): peak
// RSS is all that survived a scavenge (ARCHITECTURE.md, Memory), so what is held across a whole
// pass weighs as much as what the run needs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { applyEdits } from '../src/krm/apply-edits.js';
import { readItems } from '../src/krm/items.js';
import { readInput } from '../src/krm/read.js';
import { defaultConfig } from '../src/model/config.js';
import type { Edit } from '../src/model/edit.js';
import type { JsonObject } from '../src/model/json.js';
import type { Result } from '../src/model/results.js';
import { readPlan } from '../src/rules/read-plan.js';
import { oneKey, secretUses, sharedKeySets } from '../src/rules/workloads/references.js';

/**
 * The heap in use (after a full collection) at each whole re-read applyEdits makes for a proof,
 * and the real parseItem. Bytes, not objects: a WeakRef would keep its value alive to the end of
 * the test's synchronous run.
 */
const reread = vi.hoisted(() => ({
  heapAtEach: [] as number[],
  parseItem: undefined as undefined | typeof import('../src/krm/read.js').parseItem,
}));
vi.mock('../src/krm/read.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/read.js')>();
  reread.parseItem = actual.parseItem;
  return {
    ...actual,
    parseItem: (...args: Parameters<typeof actual.parseItem>) => {
      reread.heapAtEach.push(heapInUse());
      return actual.parseItem(...args);
    },
  };
});

/** V8's `gc`, exposed in a new context once the flag is set: made once, as a context is large. */
let gc: (() => void) | undefined;

/** The bytes in use after a full collection. */
function heapInUse(): number {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  return process.memoryUsage().heapUsed;
}

describe('apply-edits', () => {
  it('keeps no item’s re-read value once that item is proven (no anchors in the document)', () => {
    // Each item ≈1,500 mappings when read whole; a quoted scalar over two lines is no plain
    // layout, so its edit is proven by a re-read.
    const big = Array.from(
      { length: 1500 },
      (_, j) => `      - {a: ${j}, b: x${j}, c: y${j}, d: z${j}}\n`,
    ).join('');
    const item = (i: number) =>
      `- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: d${i}\n  spec:\n    x: "a\n      b"\n    big:\n${big}`;
    const items = Array.from({ length: 6 }, (_, i) => item(i)).join('');
    const text = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}`;
    const input = readInput(text);
    const read = readItems(input, readPlan(defaultConfig));
    const edits: Edit[] = read.resources.map((r) => ({
      item: r.index,
      path: ['metadata', 'annotations'],
      key: 'checksum/x',
      value: 'abc',
    }));
    // Every item counted as projected: its proof re-reads it whole (parseItem).
    const all = new Set(read.resources.map((r) => r.index));
    const results: Result[] = [];
    reread.heapAtEach.length = 0;
    const edited = applyEdits(input, read.resources, edits, results, read.aliased, all);
    expect(results).toEqual([]);
    expect(edited.size).toBe(6);
    // From the third re-read on: the first ones also build what every later one reuses.
    const [, , third, , , sixth] = reread.heapAtEach as number[];
    expect(reread.heapAtEach).toHaveLength(6);
    // What one whole value holds, read the same way (four held, for a steadier mean).
    const before = heapInUse();
    const span = input.items[0]?.span;
    if (!reread.parseItem || !span) throw new Error('no parseItem or span');
    const read4 = [1, 2, 3, 4].map(() => reread.parseItem?.(input.text, span));
    const oneValue = (heapInUse() - before) / read4.length;
    expect(oneValue).toBeGreaterThan(150_000);
    // Main kept the proven items' values to the end: ≈3 × oneValue more at the sixth re-read
    // than at the third. The rest of the process allocates too: half main's growth is the bound.
    expect((sixth as number) - (third as number)).toBeLessThan(1.5 * oneValue);
  });
});

describe('references', () => {
  it('shares one key set among the references that read the same key', () => {
    const env = (i: number) => ({
      name: `E${i}`,
      valueFrom: { secretKeyRef: { name: `s${i}`, key: i % 2 === 0 ? 'password' : 'user' } },
    });
    const podSpec: JsonObject = {
      containers: Array.from({ length: 10 }, (_, c) => ({
        name: `c${c}`,
        env: Array.from({ length: 20 }, (_, i) => env(i)),
      })),
    };
    const uses = secretUses(podSpec, ['spec']);
    expect(uses).toHaveLength(200);
    // Main built a Set per reference: 200.
    expect(new Set(uses.map((u) => u.keys)).size).toBe(2);
    expect(uses[0]?.keys).toEqual(new Set(['password']));
  });

  it('keeps at most sharedKeySets shared key sets', () => {
    const first = oneKey('k-first');
    for (let i = 0; i < sharedKeySets; i++) oneKey(`k${i}`);
    // Cleared once full: the first key's set is a new one.
    expect(oneKey('k-first')).not.toBe(first);
    expect([...oneKey('k-first')]).toEqual(['k-first']);
  });
});
