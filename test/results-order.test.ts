// The results of a run in item order (transform.ts sortByItem): the previous ranking, by a map
// keyed by ref beside one by name, is the oracle here, on items that share names, refs to
// duplicate items, refs to no item and results without one.
import { describe, expect, it, vi } from 'vitest';
import { findCopies } from '../src/model/copies.js';
import type { Resource } from '../src/model/resource.js';
import {
  complete,
  deferredInfo,
  type ResourceRef,
  type Result,
  type Rule,
  refOf,
} from '../src/model/results.js';
import { sortByItem } from '../src/rules/transform.js';

/** main 4ff87a7's ranking: a stable sort by the position of the last item a ref names. */
function oracle(results: Result[], resources: readonly Resource[]): Result[] {
  const same = (ref: ResourceRef, r: Resource) =>
    ref.name === r.name &&
    ref.kind === r.kind &&
    (ref.namespace ?? '') === (r.namespace ?? '') &&
    ref.apiVersion === r.apiVersion;
  const rankOf = (ref: ResourceRef | undefined) => {
    if (!ref) return -1;
    let rank = -1;
    resources.forEach((r, i) => {
      if (same(ref, r)) rank = i;
    });
    return rank;
  };
  return results
    .map((result, i) => ({ result, i, rank: rankOf(result.resourceRef) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ result }) => result);
}

const item = (kind: string, name: string, namespace?: string, apiVersion = 'v1') =>
  ({ kind, name, namespace, apiVersion, index: 0 }) as unknown as Resource;

const result = (message: string, resourceRef?: ResourceRef): Result => ({
  message,
  severity: 'info',
  tags: { rule: 'r' },
  ...(resourceRef ? { resourceRef } : {}),
});

describe('results in item order', () => {
  it('rank as the previous ranking did: shared names, duplicate items, refs to no item', () => {
    const resources = [
      item('Deployment', 'app', 'a'),
      item('Service', 'app', 'a'),
      item('Deployment', 'app', 'b'),
      item('Deployment', 'app', undefined),
      item('Secret', 'db', 'a'),
      // A duplicate of the first: its results and the first's rank here, at the last.
      item('Deployment', 'app', 'a'),
      item('Deployment', 'app', 'a', 'apps/v1'),
      // Kind and namespace whose texts run together the same way.
      item('ab', 'x', 'c'),
      item('a', 'x', 'bc'),
    ];
    // Refs as the rules make them (one per item), and equal ones made apart.
    const refs = [
      ...resources.map(refOf),
      { apiVersion: 'v1', kind: 'Deployment', name: 'app', namespace: 'a' },
      { apiVersion: 'v1', kind: 'Deployment', name: 'app', namespace: '' },
      { apiVersion: 'v1', kind: 'Deployment', name: 'gone', namespace: 'a' },
      { apiVersion: 'v2', kind: 'Secret', name: 'db', namespace: 'a' },
    ];
    // Several results per ref, in an order that is not the items'; some without a ref.
    const results: Result[] = [];
    for (let round = 0; round < 3; round++) {
      for (let k = refs.length - 1; k >= 0; k -= 1 + round) {
        results.push(result(`${round}-${k}`, refs[k]));
        if (k % 4 === 0) results.push(result(`${round}-${k}-none`));
      }
    }
    const sorted = sortByItem(results, resources, findCopies(resources));
    expect(sorted.map((r) => r.message)).toEqual(oracle(results, resources).map((r) => r.message));
  });

  it('ranks items that share one name in linear work: each item and ref read a bounded number of times', () => {
    const n = 300;
    // n items of one name, in n namespaces, each with a result; their refs count the reads of
    // their kind, which every comparison of a ref with an item makes.
    let reads = 0;
    const resources = Array.from({ length: n }, (_, i) => item('Deployment', 'app', `ns-${i}`));
    const results = resources.map((r, i) =>
      result(`${i}`, {
        apiVersion: 'v1',
        get kind() {
          reads++;
          return 'Deployment';
        },
        name: 'app',
        namespace: r.namespace,
      } as ResourceRef),
    );
    const sorted = sortByItem([...results].reverse(), resources, findCopies(resources));
    // On main 4ff87a7, each item was compared with every ref of its name: n² reads (90,000).
    expect(reads).toBeLessThanOrEqual(4 * n);
    expect(sorted.map((r) => r.message)).toEqual(results.map((r) => r.message));
  });

  it('keeps one map, by name: no entry per ref beside it', () => {
    const n = 1000;
    const resources = Array.from({ length: n }, (_, i) => item('Deployment', `app-${i}`, 'shop'));
    // Two results per item, the second pass in reverse.
    const results = [...resources, ...[...resources].reverse()].map((r, i) =>
      result(`${i}`, refOf(r)),
    );
    const copies = findCopies(resources);
    const set = vi.spyOn(Map.prototype, 'set');
    let sorted: Result[];
    try {
      sorted = sortByItem(results, resources, copies);
      // One entry per name. On main 4ff87a7, 3n: the rank of each ref set twice beside its name.
      expect(set.mock.calls.length).toBe(n);
    } finally {
      set.mockRestore();
    }
    expect(sorted.map((r) => r.message)).toEqual(oracle(results, resources).map((r) => r.message));
  });

  it('ranks a result that names its item itself, given once, by the item: no entry by name', () => {
    const n = 1000;
    const rule: Rule = { id: 'checksum', severity: 'info', summary: 's' };
    // Names shared by two items, of one kind (copies) or two.
    const resources = Array.from(
      { length: n },
      (_, i) =>
        ({
          ...item(i % 3 === 0 ? 'StatefulSet' : 'Deployment', `app-${i % 500}`, 'shop'),
          index: i,
        }) as Resource,
    );
    // Deferred results name their resource until reported; a tenth of the items have a ref too.
    const results = [
      ...resources.map((r, i) => deferredInfo(rule, r, () => ({ message: `${i}` }))),
      ...resources
        .slice(0, n / 10)
        .reverse()
        .map((r, i) => result(`r${i}`, refOf(r))),
    ];
    const copies = findCopies(resources);
    const set = vi.spyOn(Map.prototype, 'set');
    let sorted: Result[];
    try {
      sorted = sortByItem(results, resources, copies);
      // The refs' and the copies' only (233); main fdb9a90 set one per name and item met: 1,502.
      expect(set.mock.calls.length).toBeLessThanOrEqual(300);
    } finally {
      set.mockRestore();
    }
    results.forEach(complete);
    expect(sorted).toEqual(oracle(results, resources));
  });
});
