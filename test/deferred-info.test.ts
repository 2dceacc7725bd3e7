// An info result worked out only when reported (model/results.ts deferredInfo): what it keeps
// until then is counted, and what it becomes is a result like resourceResult's.
import { describe, expect, it, vi } from 'vitest';
import type { Resource } from '../src/model/resource.js';
import {
  complete,
  deferredInfo,
  type Result,
  type Rule,
  resourceResult,
  subjectOf,
} from '../src/model/results.js';
import { sortByItem } from '../src/rules/transform.js';

const rule: Rule = { id: 'checksum', severity: 'info', summary: 's' };
const resource = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name: 'api',
  namespace: 'shop',
  file: { path: 'api.yaml' },
} as unknown as Resource;

describe('a deferred info result', () => {
  it('keeps its details in itself: no WeakMap entry per result', () => {
    const set = vi.spyOn(WeakMap.prototype, 'set');
    try {
      const n = 1000;
      const made = Array.from({ length: n }, (_, i) =>
        deferredInfo(rule, resource, () => ({ message: `m${i}`, field: { path: 'p' } })),
      );
      // main bab480e: one entry per result in a WeakMap of pending details, n (and a closure).
      expect(set.mock.calls.length).toBeLessThanOrEqual(2);
      expect(made[7]?.message).toBe('');
    } finally {
      set.mockRestore();
    }
  });

  it('makes no ref for its resource until it is complete, and is sorted by its resource', () => {
    const n = 1000;
    const items = Array.from(
      { length: n },
      (_, i) => ({ ...resource, index: i, name: `api-${i}` }) as unknown as Resource,
    );
    const set = vi.spyOn(WeakMap.prototype, 'set');
    try {
      const made = items.map((item) => deferredInfo(rule, item, () => ({ message: 'm' })));
      const sorted = sortByItem(made.slice().reverse(), items, new Map());
      // main fdb9a90: a ref per result when made (a WeakMap entry each, refOf), n + 1.
      expect(set.mock.calls.length).toBeLessThanOrEqual(1);
      expect(sorted).toEqual(made);
      expect(subjectOf(made[5] as Result)).toBe(items[5]);
      expect(complete(made[5] as Result).resourceRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'api-5',
        namespace: 'shop',
      });
    } finally {
      set.mockRestore();
    }
  });

  it('is, once complete, what resourceResult makes, keys in the same order, and is filled once', () => {
    let worked = 0;
    const result = deferredInfo(rule, resource, () => {
      worked++;
      return { message: 'planned', field: { path: 'metadata' } };
    });
    expect(Object.keys(result)).toEqual(['message', 'severity', 'tags']);
    expect(complete(complete(result))).toBe(result);
    expect(worked).toBe(1);
    const made = resourceResult(rule, resource, 'planned', { path: 'metadata' });
    expect(result).toEqual(made);
    expect(Object.keys(result)).toEqual(Object.keys(made));
    expect(JSON.stringify(result)).toBe(JSON.stringify(made));
  });
});
