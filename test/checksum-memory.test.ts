// What planChecksums makes per source it hashes, counted: a checksum's pair (content and Secret
// name) is found by its content alone when the content is read under one name, as nearly every
// content is. The values are pinned by checksum.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { planChecksums } from '../src/rules/checksums.js';
import type { Consumption } from '../src/rules/consumers.js';
import { deployment, envFrom, externalSecret, resourceList, runOk } from './helpers.js';

const seen = vi.hoisted(() => ({ consumption: undefined as Consumption | undefined }));
vi.mock('../src/rules/consumers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/consumers.js')>();
  return {
    ...actual,
    findConsumers: (...args: Parameters<typeof actual.findConsumers>) => {
      seen.consumption = actual.findConsumers(...args);
      return seen.consumption;
    },
  };
});

describe('planChecksums, counted', () => {
  it('makes no Map per content it hashes', () => {
    const n = 30;
    const items = Array.from({ length: n }, (_, i) => [
      externalSecret(`s${i}`),
      deployment(`d${i}`, envFrom(`s${i}`)),
    ]).flat();
    const text = resourceList(items);
    runOk(text);
    const consumption = seen.consumption as Consumption;
    const expected = planChecksums(consumption, text.length);
    let made = 0;
    const BuiltIn = globalThis.Map;
    globalThis.Map = class extends BuiltIn<unknown, unknown> {
      constructor(entries?: Iterable<readonly [unknown, unknown]> | null) {
        super(entries);
        made++;
      }
    } as MapConstructor;
    let counted: ReturnType<typeof planChecksums>;
    try {
      counted = planChecksums(consumption, text.length);
    } finally {
      globalThis.Map = BuiltIn;
    }
    expect([...counted.checksummed.values()].flat().map((c) => c.value)).toEqual(
      [...expected.checksummed.values()].flat().map((c) => c.value),
    );
    // The run's own (the plan's, the work's look-ups); main made one more per content: 35.
    expect(made).toBeLessThanOrEqual(6);
  });

  // main copied each list's pair numbers to sort them (one list per checksum of two sources or
  // more), and wrote its pair numbers and entries into two more lists made for it.
  it('copies no list of pair numbers per checksum', () => {
    const n = 30;
    const items = Array.from({ length: n }, (_, i) => [
      externalSecret(`s${i}`),
      deployment(
        `d${i}`,
        `envFrom:\n- secretRef: {name: s${i}}\n- secretRef: {name: s${(i + 1) % n}}`,
      ),
    ]).flat();
    const text = resourceList(items);
    runOk(text);
    const consumption = seen.consumption as Consumption;
    const slice = vi.spyOn(Array.prototype, 'slice');
    try {
      const plan = planChecksums(consumption, text.length);
      expect(new Set([...plan.checksummed.values()].flat().map((c) => c.value)).size).toBe(n);
      // main: 30.
      expect(slice).not.toHaveBeenCalled();
    } finally {
      slice.mockRestore();
    }
  });
});
