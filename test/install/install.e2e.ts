// The README's install paths, end to end, with the real npm: `npm run test:install`; not part of
// `npm test` (about a minute, needs the npm registry). .ci/run runs it.
//
// Everything starts from a fresh `git clone` of this repository's HEAD commit into an empty
// temporary directory, as a user's or contributor's clone from a git host would be: no dist/, no
// node_modules, nothing beside it. Uncommitted changes are therefore NOT tested: commit first.
// Each install goes to its own temporary global prefix (nothing global is touched), and each
// installed `secret-rollout` must print the package version and turn examples/ci/manifests.yaml
// into exactly what the clone's own `node dist/secret-rollout.cjs` makes of it.
//
// Install from git: npm 10 and 11 (Node 20's) cannot `npm install -g git+…` a package whose
// prepare builds: the preparation install inherits --global and installs nothing, then the
// global package is left as a link to a deleted temporary clone (npm/cli#8440, #4148; npm 12
// passes --global=false). There the README's route is `npm pack git+…` (a non-global prepare,
// which works) and installing that tarball; with npm ≥ 12 the test runs the direct command.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const keep = process.env.KEEP_INSTALL_TEST_DIR === '1';

/** The npm environment without what `npm run` exports (npm_config_prefix and the like). */
const baseEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv },
): Ran {
  const r = spawnSync(command, args, {
    cwd: options.cwd,
    env: { ...baseEnv, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const what = `\`${command} ${args.join(' ')}\` in ${options.cwd}`;
  if (r.error) throw new Error(`${what} could not run: ${r.error.message}`);
  if (r.status === null) throw new Error(`${what} was killed by ${r.signal}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a setup or install step; its failure names the command and shows its output. */
function ok(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): string {
  const r = run(command, args, options);
  if (r.status !== 0) {
    throw new Error(
      `\`${command} ${args.join(' ')}\` in ${options.cwd} exited ${r.status}:\n` +
        `--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`,
    );
  }
  return r.stdout;
}

// Known when the tests are collected (it.runIf), before beforeAll runs.
const npmMajor = Number(ok('npm', ['--version'], { cwd: repoRoot }).split('.')[0]);

let work = '';
let clone = '';
let head = '';
let version = '';
let manifests = '';
/** What the clone's own bundle makes of the example: every install must match it. */
let reference: Ran = { status: -1, stdout: '', stderr: '' };

beforeAll(() => {
  head = ok('git', ['rev-parse', 'HEAD'], { cwd: repoRoot }).trim();
  work = realpathSync(mkdtempSync(join(tmpdir(), 'secret-rollout-install-')));
  if (keep) console.log(`install test directory: ${work}`);
  clone = join(work, 'clone');
  ok('git', ['clone', '--quiet', '--no-checkout', repoRoot, clone], { cwd: work });
  ok('git', ['checkout', '--quiet', '--detach', head], { cwd: clone });
  // The point of a fresh clone: a build output or installed module here would hide a missing step.
  expect(existsSync(join(clone, 'dist')), 'dist/ is in git').toBe(false);
  expect(existsSync(join(clone, 'node_modules')), 'node_modules/ is in git').toBe(false);

  version = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string })
    .version;
  manifests = readFileSync(join(clone, 'examples/ci/manifests.yaml'), 'utf8');

  // A contributor's first step; `prepare` builds dist/.
  ok('npm', ['ci'], { cwd: clone });
  const bundle = join(clone, 'dist/secret-rollout.cjs');
  expect(existsSync(bundle), '`npm ci` (prepare) did not build dist/secret-rollout.cjs').toBe(true);
  reference = run(process.execPath, [bundle], { cwd: work, input: manifests });
  // Not vacuous: the example really gets annotated.
  expect(reference.status, reference.stderr).toBe(0);
  expect(reference.stdout).toContain('checksum/external-secrets:');
  expect(reference.stdout).toContain('argocd.argoproj.io/sync-wave:');
});

afterAll(() => {
  if (work !== '' && !keep) rmSync(work, { recursive: true, force: true });
});

/** The `secret-rollout` that an install put in `prefix`'s bin works like the clone's bundle. */
function expectInstalled(prefix: string): void {
  const bin = join(prefix, 'bin', 'secret-rollout');
  expect(existsSync(bin), `${bin} was not installed`).toBe(true);
  expect(run(bin, ['--version'], { cwd: work })).toEqual({
    status: 0,
    stdout: `${version}\n`,
    stderr: '',
  });
  expect(run(bin, [], { cwd: work, input: manifests })).toEqual(reference);
  // helm/README.md: `helm plugin install "$(npm root -g)/secret-rollout/helm/secret-rollout"`;
  // Helm 4 executes post-render.sh itself, so it must stay executable.
  const plugin = join(prefix, 'lib/node_modules/secret-rollout/helm/secret-rollout');
  expect(existsSync(join(plugin, 'plugin.yaml'))).toBe(true);
  expect(statSync(join(plugin, 'post-render.sh')).mode & 0o111).toBe(0o111);
}

/**
 * `npm pack --silent <spec>` in `cwd` (as the README's `$(npm pack --silent git+…)`), the tarball
 * written to `dest`: it prints only the tarball's name, and the tarball holds the bundle.
 */
function pack(spec: string, cwd: string, dest: string): string {
  mkdirSync(dest, { recursive: true });
  const args = ['pack', '--silent', ...(dest === cwd ? [] : ['--pack-destination', dest]), spec];
  const stdout = ok('npm', args, { cwd });
  expect(stdout, 'npm pack --silent must print the tarball name alone').toMatch(
    /^secret-rollout-[\w.-]+\.tgz\n$/,
  );
  const tarball = join(dest, stdout.trim());
  const files = ok('tar', ['-tzf', tarball], { cwd: work }).trim().split('\n').sort();
  expect(files).toEqual([
    'package/README.md',
    'package/dist/secret-rollout-bundle.cjs',
    'package/dist/secret-rollout-bundle.v8cache',
    'package/dist/secret-rollout-ignore.cjs',
    'package/dist/secret-rollout-re2js.cjs',
    'package/dist/secret-rollout-rules.cjs',
    'package/dist/secret-rollout-rules.v8cache',
    'package/dist/secret-rollout-yaml.cjs',
    'package/dist/secret-rollout.cjs',
    'package/helm/secret-rollout/plugin.yaml',
    'package/helm/secret-rollout/post-render.sh',
    'package/package.json',
  ]);
  return tarball;
}

describe('install paths (README "Install")', () => {
  it('npm pack, then npm install -g <tarball>', () => {
    const tarball = pack('.', clone, join(work, 'pack'));
    const prefix = join(work, 'global-tarball');
    ok('npm', ['install', '-g', '--prefix', prefix, tarball], { cwd: work });
    expectInstalled(prefix);
  });

  it('from a git URL: npm install -g "$(npm pack git+…)"', () => {
    // git+file:// stands for git+https://github.com/…: npm clones it itself, so dist/ only exists
    // if its prepare built it.
    const dir = join(work, 'git-pack');
    const tarball = pack(`git+file://${clone}#${head}`, dir, dir);
    const prefix = join(work, 'global-git-pack');
    ok('npm', ['install', '-g', '--prefix', prefix, tarball], { cwd: work });
    expectInstalled(prefix);
  });

  it.runIf(npmMajor >= 12)('from a git URL: npm install -g git+… (npm ≥ 12)', () => {
    const prefix = join(work, 'global-git');
    ok(
      'npm',
      ['install', '-g', '--allow-git=root', '--prefix', prefix, `git+file://${clone}#${head}`],
      {
        cwd: work,
      },
    );
    expectInstalled(prefix);
  });

  it('npm link (contributors): the global bin runs the clone', () => {
    const prefix = join(work, 'global-link');
    // The global prefix from the environment: `--prefix` would also make npm take that directory
    // for the project to link.
    ok('npm', ['link'], { cwd: clone, env: { npm_config_prefix: prefix } });
    expect(realpathSync(join(prefix, 'lib', 'node_modules', 'secret-rollout'))).toBe(clone);
    expect(realpathSync(join(prefix, 'bin', 'secret-rollout'))).toBe(
      join(clone, 'dist', 'secret-rollout.cjs'),
    );
    expectInstalled(prefix);
  });
});
