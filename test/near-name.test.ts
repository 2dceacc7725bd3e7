// The near-name lint's cost is bounded whatever the names: counted, never timed. Every call of the
// shared edit distance is counted on an input crafted so that every name is near every other
// (same length, same segments): the comparisons stay linear in the reads.
import { describe, expect, it, vi } from 'vitest';
import * as near from '../src/model/near.js';
import { run } from '../src/run.js';
import { deployment, externalSecret, resourceList, resultsOf, secretKeyRef } from './helpers.js';

const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/model/near.js', async (original) => {
  const actual = await original<typeof near>();
  return {
    ...actual,
    distance: (a: string, b: string, max: number) => {
      calls.count++;
      return actual.distance(a, b, max);
    },
  };
});

describe('near-name cost', () => {
  it('compares each read with at most 16 names per length it looks at, however many are alike', () => {
    const n = 600;
    const pad = (i: number) => String(i).padStart(4, '0');
    const items: string[] = [];
    // Made: s-0000-x …; read: r-0000-x … (one edit from none, two from many: all the same length).
    for (let i = 0; i < n; i++) items.push(externalSecret(`s-${pad(i)}-x`));
    for (let i = 0; i < n; i++) {
      items.push(deployment(`app-${pad(i)}`, secretKeyRef(`r-${pad(i)}-x`, 'user')));
    }
    calls.count = 0;
    // As warnings: info results past 200 are summed up in one.
    const config =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  nearNameSeverity: warning\n';
    const out = run(resourceList(items, config));
    expect(out.exitCode).toBe(0);
    // Names of 8 characters: up to 2 edits, so lengths 6 to 10, 16 names each at most.
    expect(calls.count).toBeGreaterThan(0);
    expect(calls.count).toBeLessThanOrEqual(n * 5 * 16);
    const infos = resultsOf(out.stdout).filter((r) =>
      String(r.message).includes('which nothing in the input makes'),
    );
    // The cap can miss a near name in a crowded bucket (docs/lints.md says so); some are found.
    expect(infos.length).toBeGreaterThan(0);
    expect(infos.length).toBeLessThanOrEqual(n);
    expect(near.distance('ab', 'ab', 1)).toBe(0);
  });
});
