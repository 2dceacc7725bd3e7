// examples/flux-in-place: the README's commands, run as written with the real kpt on a copy of the
// folder made a git repository, the built command on PATH as `secret-rollout`. The render must
// change only the annotation lines it adds; the gate must pass after it, and fail (writing nothing)
// when the ExternalSecret changes without a new render. Also the two kpt facts the README relies
// on: a kustomization.yaml stops kpt unless .krmignore lists it, and kpt re-formats a file in
// another layout on its own (measured with `--exec cat`, docs/operators.md).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath, repoRoot } from './helpers.js';

const example = path.join(repoRoot, 'examples/flux-in-place');
const readme = readFileSync(path.join(example, 'README.md'), 'utf8');
const [render, gate] = (/```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'));

let scratch: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  if (!findOnPath('kpt')) throw new Error('kpt is not on PATH: the example needs it');
  scratch = mkdtempSync(path.join(tmpdir(), 'flux-in-place-'));
  mkdirSync(path.join(scratch, 'bin'));
  symlinkSync(
    path.join(repoRoot, 'dist/secret-rollout.cjs'),
    path.join(scratch, 'bin/secret-rollout'),
  );
  env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
    PATH: `${path.join(scratch, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  };
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function sh(script: string, cwd: string) {
  return spawnSync('bash', ['--norc', '-euo', 'pipefail', '-c', script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A copy of the example as a git repository with one commit. */
function repository(name: string): string {
  const repo = path.join(scratch, name);
  cpSync(example, repo, { recursive: true });
  const git = sh(
    'git init -q && git add -A && git -c user.name=t -c user.email=t@example.invalid commit -qm i',
    repo,
  );
  expect(git.status, git.stderr).toBe(0);
  return repo;
}

const diff = (repo: string) =>
  sh('git add -A && git diff --cached --no-color --no-ext-diff -U0', repo).stdout;

describe('examples/flux-in-place, as its README says', () => {
  it('has the two commands', () => {
    expect(render).toBe('kpt fn eval . --exec secret-rollout -- ordering=none');
    expect(gate).toMatch(/^kpt fn eval \. --exec secret-rollout -o unwrap -- .*mode=check/);
  });

  it('renders in place: the only changed bytes are the annotation lines; then the gate passes', () => {
    const repo = repository('render');
    const before = sh(gate as string, repo);
    expect(before.status).toBe(1);
    expect(before.stderr).toContain(
      'Deployment shop/shop-api: checksum/external-secrets is not set',
    );
    expect(diff(repo)).toBe('');

    const ran = sh(render as string, repo);
    expect(ran.status, ran.stderr).toBe(0);
    const changed = diff(repo)
      .split('\n')
      .filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));
    expect(changed).toEqual([
      '+      annotations:',
      expect.stringMatching(/^\+ {8}checksum\/external-secrets: "[0-9a-f]{64}"$/),
    ]);
    expect(diff(repo)).toContain('+++ b/apps/shop/deployment.yaml');

    sh('git -c user.name=t -c user.email=t@example.invalid commit -qm rendered', repo);
    expect(sh(gate as string, repo).status).toBe(0);
    expect(sh(render as string, repo).status).toBe(0);
    expect(diff(repo), 'a second run changes nothing').toBe('');
  });

  it('the gate fails on a version bump without a render, and writes nothing', () => {
    const repo = repository('stale');
    expect(sh(render as string, repo).status).toBe(0);
    sh('git -c user.name=t -c user.email=t@example.invalid commit -qam rendered', repo);
    const file = path.join(repo, 'apps/shop/external-secret.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('version: "4"', 'version: "5"'));
    sh('git -c user.name=t -c user.email=t@example.invalid commit -qam bump', repo);
    const out = sh(gate as string, repo);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(
      /Deployment shop\/shop-api: checksum\/external-secrets is "[0-9a-f]{64}", not the checksum of ExternalSecret shop\/shop-db/,
    );
    expect(diff(repo)).toBe('');
  });

  it('needs its .krmignore: kpt stops on a kustomization.yaml without apiVersion', () => {
    const repo = repository('no-krmignore');
    writeFileSync(path.join(repo, '.krmignore'), '.expected\n');
    const out = sh(render as string, repo);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('item has no apiVersion string');
  });

  it('kpt, not secret-rollout, re-formats a file in another layout', () => {
    const repo = repository('layout');
    const sops =
      'apiVersion: v1\nkind: Secret\nmetadata:\n    name: registry\n    namespace: shop\n';
    writeFileSync(path.join(repo, 'apps/shop/registry.yaml'), `---\n${sops}`);
    sh('git add -A && git -c user.name=t -c user.email=t@example.invalid commit -qm sops', repo);
    expect(sh('kpt fn eval . --exec cat', repo).status).toBe(0);
    expect(readFileSync(path.join(repo, 'apps/shop/registry.yaml'), 'utf8')).toBe(
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry\n  namespace: shop\n',
    );
  });
});
