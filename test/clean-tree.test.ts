// What the README's commands write in a clone stays out of `git status`: the tarball of
// `npm pack` (README, install from a clone) is ignored. `.ci/run` checks the rest: after the
// tests, the benchmark and the fuzzer, nothing in the clone is new or changed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

it("npm pack's tarball is ignored by git", () => {
  const { name, version } = JSON.parse(
    readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
  ) as { name: string; version: string };
  const tarball = `${name}-${version}.tgz`;
  const ignored = spawnSync('git', ['check-ignore', '--no-index', '-q', tarball], {
    cwd: repoRoot,
  });
  expect(ignored.error).toBeUndefined();
  expect(ignored.status, `${tarball} is not in .gitignore`).toBe(0);
});
