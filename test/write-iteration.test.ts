// What the writer walks by array iteration, counted (issue #24): with inlining off (inputs over
// 1 MiB), each element a for…of or a spread walks allocates an iterator result. The writer's
// per-edit and per-result paths loop by index; their output is pinned by the goldens.
import { describe, expect, it, vi } from 'vitest';
import { deployment, elementsWalked, externalSecret, resourceList, runOk } from './helpers.js';

const { walked, counted } = vi.hoisted(() => {
  const walked = { applyEdits: 0, writeOutput: 0 };
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
vi.mock('../src/krm/apply-edits.js', async (original) => {
  const actual = await original<typeof import('../src/krm/apply-edits.js')>();
  return { ...actual, applyEdits: counted('applyEdits', actual.applyEdits) };
});
vi.mock('../src/krm/write.js', async (original) => {
  const actual = await original<typeof import('../src/krm/write.js')>();
  return { ...actual, writeOutput: counted('writeOutput', actual.writeOutput) };
});

/** A source and `consumers` Deployments reading a key it lacks: an edit and a warning each. */
const input = (consumers: number) =>
  resourceList([
    externalSecret('db'),
    ...Array.from({ length: consumers }, (_, c) =>
      deployment(`d${c}`, 'env:\n- name: A\n  valueFrom:\n    secretKeyRef: {name: db, key: nope}'),
    ),
  ]);

function walkedOn(consumers: number): typeof walked {
  walked.applyEdits = 0;
  walked.writeOutput = 0;
  const out = runOk(input(consumers));
  expect(out.stdout.match(/checksum\/external-secrets: /g)).toHaveLength(consumers);
  expect(out.stdout.match(/reads key nope/g)).toHaveLength(consumers);
  return { ...walked };
}

describe('the writer', () => {
  it('walks no array element per edit or per result by iteration', () => {
    // main at 300 consumers: applyEdits walked 909 elements (per edit: the depth check, the
    // locators, a destructuring), writeOutput 2,817 (the sorted changes; each result's text in a
    // destructuring, a spread and a for-of).
    walkedOn(1);
    const few = walkedOn(300);
    expect(walkedOn(600)).toEqual(few);
    expect(few.applyEdits + few.writeOutput).toBeLessThan(20);
  });
});
