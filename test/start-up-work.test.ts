// Work every run does before it reads an item, counted: on an empty ResourceList it is most of
// what the function adds to Node.js's own start (issue #24, cold start ≤ 1.2× `node -e ''`).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');

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

// What an empty list's run makes of the rules (build.mjs keeps them in a file of their own,
// loaded on first use): counted here, by the modules' own functions.
const made = vi.hoisted(() => ({ readPlan: 0, transform: 0 }));
const counted = vi.hoisted(
  () =>
    <Args extends unknown[], R>(name: 'readPlan' | 'transform', f: (...args: Args) => R) =>
    (...args: Args): R => {
      made[name]++;
      return f(...args);
    },
);
vi.mock('../src/rules/read-plan.js', async (original) => {
  const actual = await original<typeof import('../src/rules/read-plan.js')>();
  return { ...actual, readPlan: counted('readPlan', actual.readPlan) };
});
vi.mock('../src/rules/transform.js', async (original) => {
  const actual = await original<typeof import('../src/rules/transform.js')>();
  return { ...actual, transform: counted('transform', actual.transform) };
});

const { defaultConfig } = await import('../src/model/config.js');
const { run, plan } = await import('../src/run.js');
const { transform } = await import('../src/rules/transform.js');
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

describe('the start of the built command', () => {
  it('reads no file but the bundle and its code cache, stdout on /dev/null included', () => {
    // A preload that lists every file the process opens by path through node:fs (the bundle's
    // only way to a file; readFileSync opens by openSync, hence the set): on main, the closed-stdout check read /proc/self/fdinfo/1 (≈0.4 ms).
    const dir = mkdtempSync(path.join(tmpdir(), 'start-'));
    const preload = path.join(dir, 'opened.cjs');
    writeFileSync(
      preload,
      `const fs = require('node:fs');
const opened = [];
for (const name of ['openSync', 'readFileSync']) {
  const original = fs[name];
  fs[name] = function (file, ...rest) {
    if (typeof file === 'string') opened.push(file);
    return original.call(this, file, ...rest);
  };
}
process.on('exit', () => fs.writeSync(2, JSON.stringify(opened)));`,
    );
    const empty = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n';
    const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
    // Write-only (a shell's >/dev/null) and read-write (a closed stdout, refused): the check runs
    // to its end in both.
    for (const [flags, status] of [
      ['w', 0],
      ['r+', 1],
    ] as const) {
      const out = openSync('/dev/null', flags);
      const run = spawnSync(process.execPath, ['-r', preload, cli], {
        input: empty,
        stdio: ['pipe', out, 'pipe'],
        encoding: 'utf8',
      });
      closeSync(out);
      expect(run.status, flags).toBe(status);
      const opened = JSON.parse(run.stderr.slice(run.stderr.indexOf('['))) as string[];
      // The command itself (Node's loader), then the launcher's two reads.
      expect([...new Set(opened.map((file) => path.basename(file)))], flags).toEqual([
        'secret-rollout.cjs',
        'secret-rollout-bundle.v8cache',
        'secret-rollout-bundle.cjs',
      ]);
    }
  });
});

describe('a run on a list without items', () => {
  const empty = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n';

  it('makes no read plan and runs no rule (on main it made both, and loaded all the rules)', () => {
    made.readPlan = 0;
    made.transform = 0;
    expect(run(empty)).toEqual({ stdout: empty, stderr: '', exitCode: 0 });
    expect(plan(empty, { format: 'json' }).exitCode).toBe(0);
    // Options given (the rule catalog reads them), still no item.
    expect(
      run(empty, { settings: { ordering: 'kapp', unpinnedVersionSeverity: 'error' } }),
    ).toEqual({ stdout: empty, stderr: '', exitCode: 0 });
    expect(made).toEqual({ readPlan: 0, transform: 0 });
    const item = '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n';
    run(empty.replace('items: []\n', `items:\n${item}`));
    expect(made).toEqual({ readPlan: 1, transform: 1 });
  });

  it('plans what transform plans for no items, whatever the options', () => {
    const variants: Partial<typeof defaultConfig>[] = [
      {},
      { ordering: [] },
      { ordering: ['argocd', 'depends-on', 'kapp'] },
      { argocdHealthCheck: false },
      { imagePullSecrets: true, fixVaultAgentJobs: true, mode: 'check', targetNames: 'hashed' },
      { clusterExternalSecretNamespaces: 'all', defaultNamespace: 'shop' },
      {
        configMapChecksumAnnotation: 'checksum/config',
        secretChecksumAnnotation: 'checksum/secret',
        secretChecksumKey: 'key',
      },
      {
        podTemplates: [{ group: 'example.com', kind: 'Runner', path: 'spec.template' }],
        secretReferences: [{ group: 'example.com', kind: 'Thing', path: 'spec.auth.name' }],
        severity: new Map([['unpinned-version', 'error' as const]]),
      },
    ];
    for (const variant of variants) {
      const config = { ...defaultConfig, ...variant };
      const planned = transform([], config, [], { characters: 0, bytes: () => 0 });
      expect(planned.edits, JSON.stringify(variant)).toEqual([]);
      expect(planned.results, JSON.stringify(variant)).toEqual([]);
      expect(planned.plan.ordering).toEqual(config.ordering);
      const { ordering: _, ...rest } = planned.plan;
      // Lists, Maps, Sets and the tables by item number (checksums: no size, but values).
      for (const part of Object.values(rest)) {
        const p = part as { size?: number; length?: number; values(): Iterable<unknown> };
        expect(p.size ?? p.length ?? [...p.values()].length).toBe(0);
      }
    }
  });
});
