// What reading an item costs, counted (never timed): the peeks at an item's own lines that pick
// its projection and decide whether it passes through (items.ts, pass-through.ts).
import { describe, expect, it, vi } from 'vitest';
import { readItems } from '../src/krm/items.js';
import { readInput } from '../src/krm/read.js';
import * as lines from '../src/krm/yaml/locate-lines.js';
import { defaultConfig } from '../src/model/config.js';
import { readPlan } from '../src/rules/read-plan.js';

vi.mock('../src/krm/yaml/locate-lines.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/yaml/locate-lines.js')>();
  return { ...actual, peekScalar: vi.fn(actual.peekScalar) };
});

const list = (items: string[]) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('')}`;
const deployment = (i: number) =>
  `- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: d${i}\n  spec: {}\n`;
const service = (i: number) =>
  `- apiVersion: v1\n  kind: Service\n  metadata:\n    name: s${i}\n  spec: {}\n`;

describe('reading items', () => {
  // Each peek walks the item's lines from its top; main peeked apiVersion and kind twice for
  // every parsed item (once to decide on passing through, once for the projection).
  it.each([
    ['parsed', deployment],
    ['passed through', service],
  ])('peeks at the apiVersion and kind of each %s item once', (_, item) => {
    const n = 50;
    const input = readInput(list(Array.from({ length: n }, (_, i) => item(i))));
    const peek = vi.mocked(lines.peekScalar);
    peek.mockClear();
    const read = readItems(input, readPlan(defaultConfig));
    expect(read.results).toEqual([]);
    expect(read.resources.length + read.bystanders.length).toBe(n);
    expect(peek).toHaveBeenCalledTimes(2 * n);
  });
});
