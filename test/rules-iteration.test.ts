// What the rules' per-item stages walk by array iteration, counted (issue #24): with inlining off
// (inputs over 1 MiB), each element a for…of walks allocated an iterator result, 16 MB in all on
// the dense 10k bench. The stages loop by index; their output is pinned by checksum.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { deployment, elementsWalked, externalSecret, resourceList, runOk } from './helpers.js';

const { walked, counted } = vi.hoisted(() => {
  const walked = { findProducers: 0, findConsumers: 0, planChecksums: 0 };
  const counted =
    <F extends (...args: never[]) => unknown>(name: keyof typeof walked, f: F) =>
    (...args: Parameters<F>) => {
      let out: unknown;
      walked[name] += elementsWalked(() => {
        out = f(...args);
      });
      return out as ReturnType<F>;
    };
  return { walked, counted };
});
vi.mock('../src/rules/producers.js', async (original) => {
  const actual = await original<typeof import('../src/rules/producers.js')>();
  return { ...actual, findProducers: counted('findProducers', actual.findProducers) };
});
vi.mock('../src/rules/consumers.js', async (original) => {
  const actual = await original<typeof import('../src/rules/consumers.js')>();
  return { ...actual, findConsumers: counted('findConsumers', actual.findConsumers) };
});
vi.mock('../src/rules/checksums.js', async (original) => {
  const actual = await original<typeof import('../src/rules/checksums.js')>();
  return { ...actual, planChecksums: counted('planChecksums', actual.planChecksums) };
});

const input = (consumers: number) =>
  resourceList([
    externalSecret('db'),
    ...Array.from({ length: consumers }, (_, c) =>
      deployment(`d${c}`, 'envFrom:\n- secretRef: {name: db}'),
    ),
  ]);

/** The elements the three stages walked by iteration, in one run on `consumers` consumers. */
function walkedOn(consumers: number): typeof walked {
  for (const stage of Object.keys(walked) as (keyof typeof walked)[]) walked[stage] = 0;
  runOk(input(consumers));
  return { ...walked };
}

describe('the per-item stages of the rules', () => {
  it('walk no array element per item or per reference by iteration', () => {
    // What is walked is the source's own reading, the same for 300 consumers as for 600. main:
    // about 6 elements per consumer (findConsumers 1,509 and planChecksums 314 at 300).
    // The first run compiles the tables (walked once per process).
    walkedOn(1);
    const few = walkedOn(300);
    expect(walkedOn(600)).toEqual(few);
    expect(few.findConsumers + few.planChecksums).toBeLessThan(50);
  });
});
