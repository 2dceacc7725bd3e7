// Work every run does before it reads an item, counted: on an empty ResourceList it is most of
// what the function adds to Node.js's own start (issue #24, cold start ≤ 1.2× `node -e ''`).
import { describe, expect, it, vi } from 'vitest';

const parsed = vi.hoisted(() => ({ paths: 0 }));
vi.mock('../src/model/path.js', async (original) => {
  const actual = await original<typeof import('../src/model/path.js')>();
  return {
    ...actual,
    parsePath: (text: string) => {
      parsed.paths++;
      return actual.parsePath(text);
    },
  };
});

const { defaultConfig } = await import('../src/model/config.js');
const { readPlan } = await import('../src/rules/read-plan.js');
const { readerPaths, secretsNamedBy } = await import(
  '../src/rules/workloads/operator-references.js'
);

describe('the read plan of a run', () => {
  it('parses none of the reader table paths (≈370): only a reader item needs them parsed', () => {
    parsed.paths = 0;
    // A fresh option value: nothing cached from an earlier plan.
    const plan = readPlan({ ...defaultConfig, secretReferences: [] });
    expect(plan.projection('external-secrets.io/v1beta1', 'ClusterSecretStore')).toBeDefined();
    expect(parsed.paths).toBe(0);
  });

  it('still plans every field of the table, the namespace beside a name included', () => {
    const option = [
      { group: 'example.com', kind: 'Thing', path: 'spec.auth.name', namespacePath: 'ns' },
    ];
    expect(readerPaths(option).get('example.com/Thing')).toEqual([
      'spec.auth.name',
      'spec.auth.ns',
    ]);
    const thing = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't', namespace: 'a' },
      spec: { auth: { name: 's', ns: 'b' } },
    };
    parsed.paths = 0;
    const named = secretsNamedBy(
      { apiVersion: 'example.com/v1', kind: 'Thing', namespace: 'a', value: thing } as never,
      option,
    );
    expect(named).toEqual([{ namespace: 'b', name: 's', field: 'spec.auth.name' }]);
    expect(parsed.paths).toBeGreaterThan(0);
  });
});
