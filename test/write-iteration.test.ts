// What the writer walks by array iteration, counted (issue #24): with inlining off (inputs over
// 1 MiB), each element a for…of, a spread or an array destructuring walks allocates an iterator
// result. The writer's per-edit and per-result paths loop by index; their output is pinned by
// the goldens.
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../src/krm/apply-edits.js';
import { writeOutput } from '../src/krm/write.js';
import type { Splice } from '../src/krm/yaml/splice.js';
import { type Analysis, analyse } from '../src/run.js';
import { deployment, elementsWalked, externalSecret, resourceList } from './helpers.js';

/** A source and `consumers` Deployments reading a key it lacks: an edit and a warning each. */
const input = (consumers: number) =>
  resourceList([
    externalSecret('db'),
    ...Array.from({ length: consumers }, (_, c) =>
      deployment(`d${c}`, 'env:\n- name: A\n  valueFrom:\n    secretKeyRef: {name: db, key: nope}'),
    ),
  ]);

/** The elements applyEdits and writeOutput walk by iteration on `consumers` consumers. */
function walkedOn(consumers: number) {
  const {
    input: read,
    resources,
    results,
    planned,
    aliased,
    projected,
  } = analyse(input(consumers), {}) as Analysis;
  let edited = new Map<number, Splice[]>();
  let stdout: string[] = [];
  const applying = elementsWalked(() => {
    edited = applyEdits(read, resources, planned.edits, results, aliased, projected);
  });
  const writing = elementsWalked(() => {
    stdout = writeOutput(read, edited, results);
  });
  const text = stdout.join('');
  expect(text.match(/checksum\/external-secrets: /g)).toHaveLength(consumers);
  expect(text.match(/reads key nope/g)).toHaveLength(consumers);
  return { applying, writing };
}

describe('the writer', () => {
  it('walks no array element per edit or per result by iteration', () => {
    // main at 300 consumers: applyEdits walked 903 elements (per edit: the depth check, the
    // locators, a destructuring), writeOutput 3,314 (the sorted changes; each result's text in a
    // destructuring, a spread and a for-of).
    walkedOn(1);
    const few = walkedOn(300);
    expect(walkedOn(600)).toEqual(few);
    expect(few.applying + few.writing).toBeLessThan(20);
  });
});
