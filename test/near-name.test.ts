// The near-name lint's cost is bounded whatever the names: counted, never timed. Every call of the
// shared edit distance is counted on an input crafted so that every name is near every other
// (same length, same segments): the comparisons stay linear in the reads, and the lint says where
// its budget stopped them.
import { describe, expect, it, vi } from 'vitest';
// The crowded-names adversarial family's names: the i-th ordering of the ten digits.
// @ts-expect-error: a plain .mjs script without types
import { ordering } from '../bench/adversarial/crowded-names.mjs';
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
  it('compares each read with every name of its lengths until the budget runs out, then says so', () => {
    const n = 600;
    const items: string[] = [];
    // Made: s-<digits>; read: r-<another ordering of them>: all of one length, every pair one
    // letter and no digit apart in the characters they have, so each needs an edit distance (144
    // cells).
    for (let i = 0; i < n; i++) items.push(externalSecret(`s-${ordering(7 * i)}`));
    for (let i = 0; i < n; i++) {
      items.push(deployment(`app-${i}`, secretKeyRef(`r-${ordering(7 * i + 3)}`, 'user')));
    }
    calls.count = 0;
    // As warnings: info results past 200 are summed up in one.
    const config =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  nearNameSeverity: warning\n';
    const out = run(resourceList(items, config));
    expect(out.exitCode).toBe(0);
    // n × n = 360,000 pairs; the run has 1 million cells plus 8,192 per read, and each distance
    // costs 144 of them: at most ≈41,000 distances are paid for.
    expect(calls.count).toBeGreaterThan(0);
    expect(calls.count).toBeLessThanOrEqual((1_000_000 + n * 8_192) / 144);
    const stopped = resultsOf(out.stdout).filter((r) =>
      String(r.message).includes('with only some of the names'),
    );
    expect(stopped).toHaveLength(1);
    expect(String(stopped[0]?.message)).toMatch(/ and \d+ other missing names /);
    expect(near.distance('ab', 'ab', 1)).toBe(0);
  });
});
