// Lists of any length are never spread into a call's arguments (`f(...list)`): every element goes
// on the stack, and past ≈120,000 of them the run ends in `internal error: Maximum call stack size
// exceeded`. Each test gives one such place a list of 200,000 (more results or rows than the
// reader's 100,000 items can make, but within what one item can: each item may have several).
import { describe, expect, it } from 'vitest';
import { readInput } from '../src/krm/read.js';
import { writeOutput } from '../src/krm/write.js';
import type { Resource } from '../src/model/resource.js';
import type { Result } from '../src/model/results.js';
import { kptfileConfig } from '../src/options.js';
import { planTable } from '../src/report/plan.js';
import type { Plan } from '../src/rules/transform.js';

const many = 200_000;

describe('lists longer than the stack holds as arguments', () => {
  it('writes a ResourceList with a result each', () => {
    const input = readInput('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n');
    const results: Result[] = Array.from({ length: many }, (_, i) => ({
      severity: 'warning',
      message: `w${i}`,
      tags: { rule: 'duplicate-writer' },
    }));
    const out = writeOutput(input, new Map(), results).join('');
    expect(out.match(/^- severity: warning$/gm)).toHaveLength(many);
  });

  it('draws a plan table with a row each', () => {
    const store = (i: number): Resource => ({
      index: i,
      value: {},
      apiVersion: 'external-secrets.io/v1',
      kind: 'SecretStore',
      name: `s${i}`,
      namespace: 'shop',
      annotations: {},
      file: undefined,
    });
    const plan: Plan = {
      ordering: ['argocd'],
      nodes: new Map(),
      stores: Array.from({ length: many }, (_, i) => store(i)),
      sources: [],
      consumersOf: new Map(),
      readersOf: new Map(),
      checksums: new Map(),
      placed: new Set(),
      conflicts: new Map(),
    };
    const lines = planTable(plan).trimEnd().split('\n');
    expect(lines).toHaveLength(many + 1);
    // The widest name sets the column's width.
    expect(lines[0]).toBe('WAVE  KIND         NAME          DETAIL');
  });

  it('reads a Kptfile with that many secret-rollout functions', () => {
    const mutators = Array.from({ length: many }, () => ({ image: 'secret-rollout' }));
    const validators = [{ image: 'secret-rollout', configMap: { mode: 'check' } }];
    const value = { apiVersion: 'kpt.dev/v1', kind: 'Kptfile', pipeline: { mutators, validators } };
    const found = kptfileConfig([{ value, path: 'Kptfile' }], () => []);
    expect(found && 'error' in found && found.error).toMatch(
      /^several secret-rollout functions in the input's Kptfiles: Kptfile pipeline\.mutators\[0\]/,
    );
  });
});
