// What bounding the annotations an edit writes to costs, counted (never timed): the check meets
// every edit of a run once, unoptimised, so what it does per key of a mapping is paid on every
// item an edit writes to (dense at 10k items: 2,447 mappings of 8,963 keys).
import { describe, expect, it, vi } from 'vitest';
import type { Edit } from '../src/model/edit.js';
import type { Resource } from '../src/model/resource.js';
import { limitAnnotations } from '../src/rules/annotation-limit.js';

/** `n` items whose own annotations hold `keys` keys each, and an annotation edit of each. */
function items(n: number, keys: number) {
  const resources: Resource[] = [];
  const edits: Edit[] = [];
  for (let i = 0; i < n; i++) {
    const annotations: Record<string, string> = {};
    for (let k = 0; k < keys; k++) annotations[`example.com/key-${k}`] = `value ${i}`;
    const value = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, annotations },
    };
    resources.push({ index: i, value, annotations } as unknown as Resource);
    edits.push({ item: i, path: ['metadata', 'annotations'], key: 'example.com/wave', value: '1' });
  }
  return { resources, edits };
}

describe('annotation-limit cost', () => {
  it('bounds a mapping by its keys listed once, with no own-property check per key', () => {
    const n = 100;
    const keys = 8;
    const { resources, edits } = items(n, keys);
    const mappings = new Set(resources.map((r) => r.annotations as object));
    const hasOwn = vi.spyOn(Object, 'hasOwn');
    const listed = vi.spyOn(Object, 'keys');
    let limited: ReturnType<typeof limitAnnotations>;
    // Counted before the spies are restored, which clears their calls.
    const of = (calls: unknown[][]) => calls.filter(([o]) => mappings.has(o as object)).length;
    let checked = -1;
    let lists = -1;
    try {
      limited = limitAnnotations(edits, resources);
    } finally {
      checked = of(hasOwn.mock.calls);
      lists = of(listed.mock.calls);
      hasOwn.mockRestore();
      listed.mockRestore();
    }
    expect(limited.edits).toBe(edits);
    expect(limited.results).toEqual([]);
    // A for…in walk checked each key it met (n × keys: 800 calls).
    expect(checked).toBe(0);
    expect(lists).toBe(n);
  });
});
