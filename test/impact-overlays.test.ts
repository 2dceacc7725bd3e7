// `impact` on a repository whose applications render the same names: two overlays of one package
// (clusters/prod and clusters/staging, a cluster each), or a package beside its rendered output.
// A render sees one application's items, so impact plans such applications apart: merged, one
// overlay's ExternalSecret hid the other's (main reported staging's bump as prod's, "content
// changed"; with both bumped, staging was gone). The trees are commits of a real git repository,
// checked out with `git worktree add` as docs/commands.md tells a user to.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impactCli } from '../src/impact-cli.js';
import { applicationGroups, type Impact, type ImpactSide } from '../src/report/impact.js';

/** A package as a render writes it: its store, one ExternalSecret, a Deployment reading it. */
const rendered = (version: string) => `apiVersion: external-secrets.io/v1
kind: SecretStore
metadata:
  name: vault
  namespace: payments
spec:
  provider:
    vault:
      server: https://vault.internal:8200
---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: payments-db
  namespace: payments
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault
    kind: SecretStore
  data:
    - secretKey: DB_PASSWORD
      remoteRef:
        key: payments/db
        version: "${version}"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: payments-api
  namespace: payments
spec:
  template:
    spec:
      containers:
        - name: api
          image: registry.example.com/payments-api:1.4.2
          envFrom:
            - secretRef:
                name: payments-db
`;

let scratch: string;
let repo: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'impact-overlays-'));
  repo = path.join(scratch, 'repo');
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function git(...args: string[]): string {
  const out = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`git ${args.join(' ')}: ${out.stderr}`);
  return out.stdout.trim();
}

/** Commits the files (path → text, `null` to delete) and returns the commit. */
function commit(files: Record<string, string | null>, message: string): string {
  for (const [file, text] of Object.entries(files)) {
    const at = path.join(repo, file);
    if (text === null) rmSync(at, { recursive: true });
    else {
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, text);
    }
  }
  git('add', '-A');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
}

/** `impact` of two commits, each checked out with `git worktree add` under the scratch directory. */
function impactOf(base: string, head: string, ...args: string[]) {
  for (const [name, rev] of [
    [`base-${base}`, base],
    [`head-${head}`, head],
  ] as const) {
    spawnSync('git', ['worktree', 'add', '-q', '--detach', path.join(scratch, name), rev], {
      cwd: repo,
    });
  }
  return impactCli([`base-${base}`, `head-${head}`, ...args], '9.9.9', scratch);
}

const json = (out: { stdout: string; exitCode: number }) => {
  expect(out.exitCode).toBe(0);
  return JSON.parse(out.stdout) as Impact;
};

/** Two overlays rendering the same names, at the versions given. */
const overlays = (prod: string, staging: string) => ({
  'clusters/prod/kustomization.yaml': 'resources:\n- all.yaml\n',
  'clusters/prod/all.yaml': rendered(prod),
  'clusters/staging/kustomization.yaml': 'resources:\n- all.yaml\n',
  'clusters/staging/all.yaml': rendered(staging),
});

const reason = {
  source: {
    apiVersion: 'external-secrets.io/v1',
    kind: 'ExternalSecret',
    namespace: 'payments',
    name: 'payments-db',
  },
  detail: 'data[DB_PASSWORD].remoteRef.version: "3" → "4"',
};
const api = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'payments',
  name: 'payments-api',
};

describe('applications that render the same names are planned apart', () => {
  let both3: string;
  let staging4: string;
  let both4: string;
  beforeAll(() => {
    both3 = commit(overlays('3', '3'), 'two overlays at version 3');
    staging4 = commit(overlays('3', '4'), 'bump staging only');
    both4 = commit(overlays('4', '4'), 'bump prod too');
  });

  it('one overlay bumped: its workload rolls, in its application, for the version bump', () => {
    const out = impactOf(both3, staging4);
    expect(out.stdout.split('\n').slice(0, 7)).toEqual([
      '### secret-rollout impact',
      '',
      '**1 workload will restart** in `clusters/staging` because 1 secret source changed.',
      '',
      '| Workload | Because |',
      '| --- | --- |',
      '| `Deployment payments/payments-api` | `ExternalSecret payments/payments-db`: data\\[DB\\_PASSWORD\\].remoteRef.version: "3" → "4" |',
    ]);
    expect(json(impactOf(both3, staging4, '--format', 'json')).rollouts).toEqual([
      { application: 'clusters/staging', resource: api, reasons: [reason] },
    ]);
  });

  it('both bumped: one entry per application, in markdown and JSON', () => {
    const md = impactOf(both3, both4).stdout;
    expect(md).toContain(
      '**2 workloads will restart** in 2 applications because 2 secret sources changed.',
    );
    expect([...md.matchAll(/^<summary>(.*)<\/summary>$/gm)].map((m) => m[1])).toEqual([
      '<code>clusters/prod</code>: 1 workload (1 source changed)',
      '<code>clusters/staging</code>: 1 workload (1 source changed)',
    ]);
    expect(json(impactOf(both3, both4, '--format', 'json')).rollouts).toEqual([
      { application: 'clusters/prod', resource: api, reasons: [reason] },
      { application: 'clusters/staging', resource: api, reasons: [reason] },
    ]);
  });

  it('nothing bumped: nothing rolls, and no warning about a duplicate across applications', () => {
    const out = impactOf(both4, both4);
    expect(out.stdout).toContain("Nothing rolls: no workload's secret checksum changes.");
    expect(out.stdout).not.toContain('#### New lints');
    const sarif = JSON.parse(impactOf(both4, both4, '--format', 'sarif').stdout);
    expect(sarif.runs[0].results).toEqual([]);
  });

  it("SARIF puts a lint at its own overlay's file", () => {
    const unpinned = commit(
      {
        ...overlays('4', '4'),
        'clusters/staging/all.yaml': rendered('4').replace('        version: "4"\n', ''),
      },
      'unpin staging',
    );
    const sarif = JSON.parse(impactOf(both4, unpinned, '--format', 'sarif').stdout);
    const results = sarif.runs[0].results.map(
      (r: {
        ruleId: string;
        locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
      }) => [r.ruleId, r.locations[0]?.physicalLocation.artifactLocation.uri],
    );
    expect(results).toEqual([['unpinned-version', `head-${unpinned}/clusters/staging/all.yaml`]]);
    commit(overlays('4', '4'), 'pin staging again');
  });

  it('a workload added to one overlay is added there, named with its application', () => {
    const added = commit(
      {
        ...overlays('4', '4'),
        'clusters/prod/worker.yaml': rendered('4')
          .split('---\n')[2]
          ?.replace('payments-api', 'payments-worker') as string,
      },
      'a worker in prod',
    );
    const impact = json(impactOf(both4, added, '--format', 'json'));
    expect(impact.added).toEqual([
      { ...api, name: 'payments-worker', application: 'clusters/prod' },
    ]);
    expect(impact.rollouts).toEqual([]);
    commit({ 'clusters/prod/worker.yaml': null }, 'no worker');
  });
});

describe('a package beside its rendered output', () => {
  it('pkg/ and rendered.yaml are two applications, each rolling for its own bump', () => {
    const before = commit(
      { 'clusters/prod': null, 'pkg/all.yaml': rendered('3'), 'rendered.yaml': rendered('3') },
      'a package and its render',
    );
    const after = commit(
      { 'pkg/all.yaml': rendered('4'), 'rendered.yaml': rendered('4') },
      'bump both',
    );
    expect(json(impactOf(before, after, '--format', 'json')).rollouts).toEqual([
      { application: '.', resource: api, reasons: [reason] },
      { application: 'pkg', resource: api, reasons: [reason] },
    ]);
  });
});

describe('which applications are planned together', () => {
  let asked = 0;
  /** A side of ConfigMaps, each `[application, name]`; counts the applications asked for. */
  const side = (entries: readonly [string, string][]) =>
    ({
      resources: entries.map(([application, name]) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'a',
        name,
        application,
      })),
      applicationOf: (r: { application: string }) => {
        asked++;
        return r.application;
      },
    }) as unknown as ImpactSide;
  const groups = (base: [string, string][], head: [string, string][]) => {
    const found = applicationGroups([side(base), side(head)]);
    return found && { of: Object.fromEntries(found.of), count: found.count };
  };

  it('all together where no two applications of a side render the same resource', () => {
    const tree: [string, string][] = [
      ['a', 'x'],
      ['b', 'y'],
    ];
    expect(groups(tree, tree)).toBeUndefined();
    // A resource moved to another application is no conflict.
    expect(groups([['a', 'x']], [['b', 'x']])).toBeUndefined();
  });

  it('apart where they do, on either side; the others join the first group they fit', () => {
    const base: [string, string][] = [
      ['a', 'x'],
      ['b', 'x'],
      ['c', 'y'],
    ];
    expect(groups(base, [])).toEqual({ of: { a: 0, b: 1, c: 0 }, count: 2 });
    expect(groups([], base)).toEqual({ of: { a: 0, b: 1, c: 0 }, count: 2 });
  });

  it('in one walk: each resource asked for its application at most twice (counted)', () => {
    const n = 3000;
    const same = Array.from({ length: n }, (_, i): [string, string] => [`app-${i}`, 'x']);
    asked = 0;
    const found = groups(same, same);
    expect(found?.count).toBe(n);
    expect(asked).toBeLessThanOrEqual(2 * 2 * n);
  });
});
