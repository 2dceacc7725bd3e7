// What reading an item costs, counted (never timed): the peeks at an item's own lines that pick
// its projection and decide whether it passes through, and the quick reader's reads of it
// (items.ts, pass-through.ts).
import { describe, expect, it, vi } from 'vitest';
import { readItems } from '../src/krm/items.js';
import { readInput } from '../src/krm/read.js';
import * as lines from '../src/krm/yaml/locate-lines.js';
import * as quick from '../src/krm/yaml/quick-parse.js';
import { defaultConfig } from '../src/model/config.js';
import { readPlan } from '../src/rules/read-plan.js';

vi.mock('../src/krm/yaml/locate-lines.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/yaml/locate-lines.js')>();
  return { ...actual, peekScalar: vi.fn(actual.peekScalar) };
});
vi.mock('../src/krm/yaml/quick-parse.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/yaml/quick-parse.js')>();
  return { ...actual, quickParse: vi.fn(actual.quickParse) };
});

const list = (items: string[]) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('')}`;
const deployment = (i: number) =>
  `- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: d${i}\n  spec: {}\n`;
const service = (i: number) =>
  `- apiVersion: v1\n  kind: Service\n  metadata:\n    name: s${i}\n  spec: {}\n`;
const commented = (i: number) =>
  `- # managed by team ${i}\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: d${i}\n  spec: {}\n`;
const kindFirst = (i: number) =>
  `- kind: Deployment\n  apiVersion: apps/v1\n  metadata:\n    name: d${i}\n  spec: {}\n`;

describe('reading items', () => {
  // Each peek walks the item's lines from its top; main peeked apiVersion and kind twice for
  // every parsed item (once to decide on passing through, once for the projection). An item laid
  // out as kpt prints it is not peeked at all (items.ts peekIdentity: bab480e peeked each twice).
  // The quick reader reads a whole item whatever it builds, with the same verdict: the read of a
  // bystander's identity is its validity check too (main read each bystander twice).
  it.each([
    ['parsed', deployment, 'resources', 0],
    ['passed through', service, 'bystanders', 0],
    ['parsed, under a comment,', commented, 'resources', 0],
    ['parsed, kind first,', kindFirst, 'resources', 2],
  ] as const)(
    'peeks at the apiVersion and kind of each %s item at most once, and reads it once',
    (_, item, kept, peeks) => {
      const n = 50;
      const input = readInput(list(Array.from({ length: n }, (_, i) => item(i))));
      const peek = vi.mocked(lines.peekScalar);
      const reads = vi.mocked(quick.quickParse);
      peek.mockClear();
      reads.mockClear();
      const read = readItems(input, readPlan(defaultConfig));
      expect(read.results).toEqual([]);
      expect(read[kept]).toHaveLength(n);
      expect(peek).toHaveBeenCalledTimes(peeks * n);
      expect(reads).toHaveBeenCalledTimes(n);
    },
  );
});
