// End-to-end tests that run the built function through the real kpt, modelled on the kpt
// catalog's harness (kptdev/kpt `pkg/test/runner`, used by krm-functions-catalog `tests/e2etest`).
//
// Every directory under examples/ that contains `.expected/` is a test case:
//   .expected/config.yaml   optional: testType (render | eval, default render),
//                           args (list of "key=value", eval only), exitCode (default 0)
//   .expected/diff.patch    golden `git diff` of the package after the run (absent = no change)
//   .expected/results.yaml  optional golden of kpt's --results-dir output, normalised
//
// Each case is copied to a temporary directory, `git init`ed and committed, then kpt runs on it
// twice. The first run must produce exactly the golden diff (and results); the second runs on the
// output of the first and must change nothing more (idempotency), with the same exit code (and
// the same results, for cases with a results golden). With KPT_E2E_UPDATE_EXPECTED=true the
// goldens are written from the first run instead of compared; the idempotency check still applies. A case's package needs a `.krmignore` listing
// `.expected`, or kpt reads the golden files as resources.
//
// How the function is found:
// - render: kpt runs a Kptfile `exec:` path with Go's os/exec without setting a working directory,
//   so a relative path is resolved against kpt's *own current directory*, not the package or the
//   Kptfile (kpt 1.0.0-beta.56, `pkg/fn/runtime/exec.go`; checked by hand: a package whose Kptfile
//   says `exec: ../../dist/fn` renders from inside the package and fails with "fork/exec
//   ../../dist/fn: no such file or directory" from anywhere else; a bare name is looked up on PATH).
//   The example Kptfiles therefore say `exec: ../../dist/secret-rollout.cjs` and their READMEs say
//   to run kpt from the package directory. This harness keeps the Kptfile byte-for-byte as
//   committed and starts kpt with its working directory set to the *original* example directory,
//   passing the temporary copy as the package argument: the relative path then resolves to this
//   checkout's dist/ exactly as it does for a user, and nothing is written inside the repository.
// - eval: `kpt fn eval <pkg> --exec <absolute path to dist/secret-rollout.cjs> [-- args]`.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { findOnPath } from '../helpers.js';

const repoRoot = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const examplesDir = join(repoRoot, 'examples');
// The built function, as package.json's bin names it (dist/secret-rollout.cjs when written); the
// example Kptfiles name the same file.
const fnPath = join(repoRoot, binPath());
const updateExpected = process.env.KPT_E2E_UPDATE_EXPECTED?.toLowerCase() === 'true';

function binPath(): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['secret-rollout'];
  if (bin === undefined) throw new Error('package.json has no bin for secret-rollout');
  return bin;
}

const EXPECTED_DIR = '.expected';
const DIFF_FILE = 'diff.patch';
const RESULTS_FILE = 'results.yaml';
const CONFIG_FILE = 'config.yaml';
const RUN_COUNT = 2;

interface CaseConfig {
  testType: 'render' | 'eval';
  args: string[];
  exitCode: number;
}

interface TestCase {
  name: string;
  dir: string;
}

// ---------------------------------------------------------------------------------------------
// Environment

// git and kpt run with a clean environment: no user or system git config (diff.noprefix,
// diff.algorithm, commit signing, hooks paths… would change the diff text or break commits), and no
// GIT_DIR / GIT_INDEX_FILE inherited from e.g. a pre-commit hook running this suite.
const childEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')),
);
Object.assign(childEnv, {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'kpt-e2e',
  GIT_AUTHOR_EMAIL: 'kpt-e2e@example.invalid',
  GIT_COMMITTER_NAME: 'kpt-e2e',
  GIT_COMMITTER_EMAIL: 'kpt-e2e@example.invalid',
  LC_ALL: 'C',
});

/** Throws (so the test fails, never skips) unless kpt and the built function are available. */
function requirePrerequisites(): void {
  if (findOnPath('kpt') === undefined) {
    throw new Error(
      'kpt was not found on PATH. These e2e tests run the real kpt (tested with 1.0.0-beta.56) ' +
        'and do not skip without it: install kpt (https://kpt.dev/installation/) and re-run.',
    );
  }
  if (!existsSync(fnPath)) {
    throw new Error(`${relative(repoRoot, fnPath)} is missing: run npm run build first.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Ran {
  const r = spawnSync(command, args, {
    cwd,
    env: childEnv,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new Error(`${command} ${args.join(' ')} could not run: ${r.error.message}`);
  if (r.status === null) throw new Error(`${command} ${args.join(' ')} killed by ${r.signal}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function git(cwd: string, ...args: string[]): string {
  const r = run('git', args, cwd);
  if (r.status !== 0) {
    throw new Error(`git ${args.join(' ')} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  }
  return r.stdout;
}

function commitAll(pkg: string, message: string): string {
  git(pkg, 'add', '--all');
  git(pkg, 'commit', '--quiet', '--allow-empty', '--no-verify', '--no-gpg-sign', '-m', message);
  return git(pkg, 'rev-parse', 'HEAD').trim();
}

/** Staged diff of the whole package against `base`, with output options pinned. */
function diffSince(pkg: string, base: string): string {
  git(pkg, 'add', '--all');
  return git(
    pkg,
    'diff',
    '--cached',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    base,
  );
}

function findCases(dir: string): TestCase[] {
  const found: TestCase[] = [];
  const walk = (d: string): void => {
    const entries = readdirSync(d, { withFileTypes: true });
    if (entries.some((e) => e.isDirectory() && e.name === EXPECTED_DIR)) {
      found.push({ name: relative(dir, d), dir: d });
    }
    for (const e of entries) {
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') {
        walk(join(d, e.name));
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

function readConfig(caseDir: string): CaseConfig {
  const file = join(caseDir, EXPECTED_DIR, CONFIG_FILE);
  const config: CaseConfig = { testType: 'render', args: [], exitCode: 0 };
  if (!existsSync(file)) return config;
  const raw: unknown = parse(readFileSync(file, 'utf8')) ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`${file}: expected a mapping`);
  }
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'testType') {
      if (value !== 'render' && value !== 'eval') {
        throw new Error(`${file}: testType must be render or eval, got ${JSON.stringify(value)}`);
      }
      config.testType = value;
    } else if (key === 'exitCode') {
      if (!Number.isInteger(value)) throw new Error(`${file}: exitCode must be an integer`);
      config.exitCode = value as number;
    } else if (key === 'args') {
      if (!Array.isArray(value) || !value.every((a) => typeof a === 'string' && a.includes('='))) {
        throw new Error(`${file}: args must be a list of "key=value" strings`);
      }
      config.args = value as string[];
    } else {
      throw new Error(`${file}: unknown key ${JSON.stringify(key)}`);
    }
  }
  if (config.args.length > 0 && config.testType !== 'eval') {
    throw new Error(`${file}: args are only used with testType: eval`);
  }
  return config;
}

/**
 * kpt's results.yaml in a stable form: the temporary package path and this checkout's path are
 * replaced by placeholders (eval results name the function by absolute path), and the document is
 * re-serialised so formatting differences between kpt versions do not matter. Order is kept.
 */
function normaliseResults(text: string, pkg: string): string {
  return canonicalYaml(text.split(pkg).join('<package>').split(repoRoot).join('<repo>'));
}

function canonicalYaml(text: string): string {
  return `${stringify(parse(text), { lineWidth: 0 }).trimEnd()}\n`;
}

function readResults(resultsDir: string, pkg: string): string | undefined {
  const file = join(resultsDir, RESULTS_FILE);
  return existsSync(file) ? normaliseResults(readFileSync(file, 'utf8'), pkg) : undefined;
}

function runKpt(config: CaseConfig, testCase: TestCase, pkg: string, resultsDir: string): Ran {
  if (config.testType === 'render') {
    // cwd = the original example directory, so the Kptfile's relative exec path resolves (above).
    return run(
      'kpt',
      ['fn', 'render', '--allow-exec', '--results-dir', resultsDir, pkg],
      testCase.dir,
    );
  }
  const args = ['fn', 'eval', pkg, '--exec', fnPath, '--results-dir', resultsDir];
  if (config.args.length > 0) args.push('--', ...config.args);
  return run('kpt', args, dirname(pkg));
}

function writeOrRemove(file: string, content: string | undefined): void {
  if (content === undefined || content === '') rmSync(file, { force: true });
  else writeFileSync(file, content);
}

// ---------------------------------------------------------------------------------------------
// The suite

const cases = findCases(examplesDir);

describe('kpt e2e (examples/)', () => {
  it('finds example packages with .expected/', () => {
    expect(
      cases.length,
      `no directory under ${examplesDir} contains ${EXPECTED_DIR}/`,
    ).toBeGreaterThan(0);
  });

  for (const testCase of cases) {
    it(testCase.name, { timeout: 180_000 }, () => {
      requirePrerequisites();
      const config = readConfig(testCase.dir);
      const expectedDir = join(testCase.dir, EXPECTED_DIR);
      const diffFile = join(expectedDir, DIFF_FILE);
      const resultsFile = join(expectedDir, RESULTS_FILE);
      const expectedDiff = existsSync(diffFile) ? readFileSync(diffFile, 'utf8') : '';
      const expectedResults = existsSync(resultsFile)
        ? canonicalYaml(readFileSync(resultsFile, 'utf8'))
        : undefined;

      const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'secret-rollout-e2e-')));
      try {
        const pkg = join(tmp, basename(testCase.dir));
        cpSync(testCase.dir, pkg, { recursive: true });
        git(pkg, '-c', 'init.defaultBranch=main', 'init', '--quiet');
        const initial = commitAll(pkg, 'initial');

        // Results are compared when the case has a results golden (or gets one in update mode).
        const checkResults =
          expectedResults !== undefined || (updateExpected && config.exitCode !== 0);
        let firstResults: string | undefined;
        for (let i = 1; i <= RUN_COUNT; i++) {
          const resultsDir = join(tmp, `results-${i}`);
          const ran = runKpt(config, testCase, pkg, resultsDir);
          const context = `run ${i} of ${RUN_COUNT}, kpt exit ${ran.status}\n--- kpt stdout\n${ran.stdout}--- kpt stderr\n${ran.stderr}`;
          expect(ran.status, `exit code (${context})`).toBe(config.exitCode);
          const actualResults = readResults(resultsDir, pkg);

          if (i === 1) {
            const actualDiff = diffSince(pkg, initial);
            firstResults = actualResults;
            if (updateExpected) {
              writeOrRemove(diffFile, actualDiff);
              if (checkResults) writeOrRemove(resultsFile, actualResults);
            } else {
              expect(actualDiff, `git diff after run 1 vs ${diffFile} (${context})`).toBe(
                expectedDiff,
              );
              if (checkResults) {
                expect(actualResults, `results vs ${resultsFile} (${context})`).toBe(
                  expectedResults,
                );
              }
            }
            commitAll(pkg, 'after run 1');
          } else {
            const further = diffSince(pkg, 'HEAD');
            expect(
              further,
              `run ${i} changed the output of run 1: not idempotent (${context})`,
            ).toBe('');
            if (checkResults) {
              expect(actualResults, `run ${i} results differ from run 1 (${context})`).toBe(
                firstResults,
              );
            }
          }
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});
