// The container image, end to end: builds the real Dockerfile with buildah and runs the image
// through the real orchestrators, as users do. `npm run test:container`; not part of `npm test`.
//
// What is real: the Dockerfile (both stages, `npm run build` inside the build stage), the image,
// kpt 1.0 (`kpt fn render` with `image:`, `kpt fn eval --image`), kubectl's kustomize (`container:`
// transformer), the GitHub Actions step script of examples/ci/github-actions.yaml.
//
// What is substituted, and why:
// - Base images. Nothing can be pulled here (only the npm and Debian registries are reachable), so
//   the test builds two local bases from this machine's Node.js (`FROM scratch` + the node binary
//   + the libraries `ldd` lists + /etc/passwd with nobody + /tmp; the build base also gets npm,
//   /bin/sh and /usr/bin/env) and passes them as BUILD_IMAGE / RUNTIME_IMAGE. The Node version is
//   therefore the machine's, not the default node:24-alpine.
// - `npm ci`. package-lock.json cannot be `npm ci`-installed here: it lacks the entries of
//   @biomejs/biome's platform packages that this registry mirror does not have, so `npm ci` stops
//   with "Missing: @biomejs/cli-…@ from lock file", online or offline, and the npm cache has no
//   package metadata for an offline `npm install`. The build therefore runs with
//   `--build-arg NPM_CI=false` and this checkout's node_modules bind-mounted read-only at
//   /src/node_modules; everything after `npm ci` runs as written.
// - Docker. There is no engine; test/container/bin/docker (docker-shim.mjs) maps the `docker`
//   calls kpt and kubectl make onto `buildah from` + `buildah run --isolation chroot`, honouring
//   --user, --network none, --security-opt=no-new-privileges and -e. It also makes every run
//   --read-only (DOCKER_SHIM_READ_ONLY=1) and has the function's own process report its uid,
//   capabilities, network interfaces and whether / is writable (DOCKER_SHIM_PROBE=1), which the
//   test asserts for every run.
//
// Needs root (buildah with the vfs driver and chroot isolation, mount namespaces), buildah, kpt,
// kubectl, unshare and setpriv; fails, never skips, without them. Images go to a temporary
// buildah store (CONTAINERS_STORAGE_CONF) that is deleted afterwards; set
// KEEP_CONTAINER_TEST_STORE=1 to keep it (its path is printed).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { findOnPath } from '../helpers.js';

const repoRoot = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const shimBin = join(repoRoot, 'test', 'container', 'bin');
const examples = join(repoRoot, 'examples');

const IMAGE = 'localhost/secret-rollout:dev';
const BUILD_BASE = 'localhost/secret-rollout-test/node-build:local';
const RUNTIME_BASE = 'localhost/secret-rollout-test/node-runtime:local';
const ENTRYPOINT = ['node', '/app/secret-rollout.cjs'];
const CHECKSUM = 'checksum/external-secrets';
const WAVE = 'argocd.argoproj.io/sync-wave';
/** The only lines the function may add: its annotations, and their parents when missing. */
const ADDED_LINE = new RegExp(
  `^\\s*(metadata:|annotations:|(${CHECKSUM}|${WAVE.replaceAll('.', '\\.')}): "?-?[0-9a-f]+"?)\\s*$`,
);

const keepStore = process.env.KEEP_CONTAINER_TEST_STORE === '1';
let work = '';
let env: NodeJS.ProcessEnv = {};
let shimLog = '';
const timings: string[] = [];

// ---------------------------------------------------------------------------------------------
// Helpers

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd?: string;
  input?: string;
  extraEnv?: NodeJS.ProcessEnv;
  timeout?: number;
}

function run(command: string, args: readonly string[], options: RunOptions = {}): Ran {
  const r = spawnSync(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: { ...env, ...options.extraEnv },
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeout ?? 300_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw new Error(`${command} ${args.join(' ')} could not run: ${r.error.message}`);
  if (r.status === null) throw new Error(`${command} ${args.join(' ')} killed by ${r.signal}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(command: string, args: readonly string[], options: RunOptions = {}): string {
  const r = run(command, args, options);
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

function timed<T>(label: string, f: () => T): T {
  const start = performance.now();
  const result = f();
  timings.push(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/** Throws, so every test fails with the reason, unless everything the suite runs is there. */
function requirePrerequisites(): void {
  const hints: Record<string, string> = {
    buildah:
      'apt-get install buildah (Debian package; builds and runs the image without an engine)',
    kpt: 'the machine image has it (Debian package google-cloud-cli-kpt), or https://kpt.dev/installation/',
    kubectl: 'kubectl ≥ 1.27 (its embedded kustomize runs the container: transformer)',
    unshare: 'util-linux',
    setpriv: 'util-linux',
    ldd: 'libc-bin',
    npm: 'npm (copied into the local build base image)',
  };
  const missing = Object.keys(hints).filter((c) => findOnPath(c) === undefined);
  if (missing.length > 0) {
    throw new Error(
      `test:container needs ${missing.join(', ')} on PATH and does not skip without them:\n` +
        missing.map((c) => `  ${c}: ${hints[c]}`).join('\n'),
    );
  }
  if (process.getuid?.() !== 0) {
    throw new Error(
      'test:container must run as root: buildah (vfs, chroot isolation) and the docker shim ' +
        '(mount and network namespaces) need it.',
    );
  }
  if (!existsSync(join(repoRoot, 'node_modules', 'esbuild'))) {
    throw new Error('node_modules is missing: run npm ci (the image build mounts it, see above).');
  }
}

// ---------------------------------------------------------------------------------------------
// Local base images

/** Copies a host file to the same path under `root` (resolving symlinks), with its libraries. */
function copyWithLibraries(root: string, file: string, as = file): void {
  const dest = join(root, as);
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(realpathSync(file), dest, { dereference: true });
  const ldd = run('ldd', [file]);
  if (ldd.status !== 0) return; // static
  for (const lib of ldd.stdout.matchAll(/(?:^|\s)(\/\S+)/gm)) {
    const path = lib[1] as string;
    const libDest = join(root, path);
    if (existsSync(libDest)) continue;
    mkdirSync(dirname(libDest), { recursive: true });
    cpSync(realpathSync(path), libDest, { dereference: true });
  }
}

/**
 * Builds `tag` from scratch: this machine's node and its libraries, /etc/passwd and /etc/group
 * with root and nobody, /tmp; with `npm`, also npm, /bin/sh, /usr/bin/env (npm's shebang), chmod.
 */
function buildLocalBase(tag: string, withNpm: boolean): void {
  const ctx = join(work, `base-${withNpm ? 'build' : 'runtime'}`);
  const root = join(ctx, 'rootfs');
  mkdirSync(join(root, 'etc'), { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  copyWithLibraries(root, findOnPath('node') as string, '/usr/bin/node');
  writeFileSync(
    join(root, 'etc', 'passwd'),
    'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n',
  );
  writeFileSync(join(root, 'etc', 'group'), 'root:x:0:\nnogroup:x:65534:\n');
  if (withNpm) {
    mkdirSync(join(root, 'root'), { recursive: true });
    copyWithLibraries(root, '/bin/sh');
    copyWithLibraries(root, findOnPath('env') as string, '/usr/bin/env');
    copyWithLibraries(root, findOnPath('chmod') as string, '/bin/chmod');
    // npm's bin is a symlink into its package: <prefix>/lib/node_modules/npm/bin/npm-cli.js.
    const npmPackage = dirname(dirname(realpathSync(findOnPath('npm') as string)));
    cpSync(npmPackage, join(root, 'usr', 'lib', 'node_modules', 'npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr', 'bin', 'npm'));
  }
  writeFileSync(
    join(ctx, 'Containerfile'),
    'FROM scratch\nCOPY rootfs/ /\nENV PATH=/usr/local/bin:/usr/bin:/bin\n',
  );
  ok('buildah', ['bud', '--isolation', 'chroot', '--quiet', '-t', tag, ctx]);
}

// ---------------------------------------------------------------------------------------------
// The docker shim's record of each call

interface Probe {
  uid: number;
  gid: number;
  groups: number[];
  capEff: string;
  noNewPrivs: string;
  interfaces: string[];
  writeRoot: string;
  writeTmp: string;
  argv: string[];
}

interface ShimRecord {
  argv: string[];
  exitCode: number;
  image?: string;
  probe?: Probe;
  error?: string;
}

function takeShimRecords(): ShimRecord[] {
  if (!existsSync(shimLog)) return [];
  const records = readFileSync(shimLog, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ShimRecord);
  rmSync(shimLog);
  return records;
}

/**
 * Every `docker run` ran our image's entrypoint as nobody, without capabilities, network or a
 * writable root; with no_new_privs when the caller asked for it (kpt and kustomize do).
 */
function expectConfinedRuns(records: ShimRecord[], count: number, noNewPrivs = true): void {
  const runs = records.filter((r) => r.argv[0] === 'run');
  expect(runs, JSON.stringify(records, null, 2)).toHaveLength(count);
  for (const r of runs) {
    expect(r.image).toBe(IMAGE);
    expect(r.error).toBeUndefined();
    expect(r.probe, 'the function process did not report (did the entrypoint run?)').toBeDefined();
    const p = r.probe as Probe;
    expect(p.argv[1]).toBe(ENTRYPOINT[1]);
    expect({ uid: p.uid, gid: p.gid, groups: p.groups }).toEqual({
      uid: 65534,
      gid: 65534,
      groups: [65534],
    });
    expect(p.capEff).toBe('0000000000000000');
    expect(p.noNewPrivs).toBe(noNewPrivs ? '1' : '0');
    expect(p.interfaces.filter((i) => i !== 'lo')).toEqual([]);
    expect({ writeRoot: p.writeRoot, writeTmp: p.writeTmp }).toEqual({
      writeRoot: 'EROFS',
      writeTmp: 'EROFS',
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing output with input

/** Lines removed from `before` and added in `after` (longest common subsequence). */
function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i] as number[];
    const next = lcs[i + 1] as number[];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] =
        a[i] === b[j]
          ? (next[j + 1] as number) + 1
          : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) {
      removed.push(a[i++] as string);
    } else {
      added.push(b[j++] as string);
    }
  }
  removed.push(...(a.slice(i) as string[]));
  added.push(...(b.slice(j) as string[]));
  return { removed, added };
}

/** `after` is `before` plus annotation lines, nothing removed or changed; returns the added lines. */
function expectOnlyAnnotationsAdded(before: string, after: string, what: string): string[] {
  const { removed, added } = lineDiff(before, after);
  expect(removed, `${what}: lines removed or changed`).toEqual([]);
  expect(
    added.filter((l) => !ADDED_LINE.test(l)),
    `${what}: lines added that are not the function's annotations`,
  ).toEqual([]);
  return added;
}

type Doc = {
  kind?: string;
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: { template?: { metadata?: { annotations?: Record<string, string> } } };
};

function docs(text: string): Doc[] {
  return parseAllDocuments(text).map((d) => d.toJS() as Doc);
}

function byKindName(all: Doc[], kind: string, name: string): Doc {
  const found = all.find((d) => d.kind === kind && d.metadata?.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name} in the output`);
  return found;
}

function readPackage(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    if (statSync(join(dir, name)).isFile()) files.set(name, readFileSync(join(dir, name), 'utf8'));
  }
  return files;
}

function copyToWork(example: string, name: string): string {
  const dest = join(work, name);
  cpSync(join(examples, example), dest, { recursive: true });
  return dest;
}

// ---------------------------------------------------------------------------------------------

describe('container image', () => {
  beforeAll(() => {
    requirePrerequisites();
    work = mkdtempSync(join(tmpdir(), 'secret-rollout-container-'));
    const store = join(work, 'store');
    writeFileSync(
      join(work, 'storage.conf'),
      `[storage]\ndriver = "vfs"\nrunroot = "${store}/run"\ngraphroot = "${store}/graph"\n`,
    );
    shimLog = join(work, 'docker-shim.log');
    env = {
      ...process.env,
      PATH: `${shimBin}${delimiter}${process.env.PATH ?? ''}`,
      CONTAINERS_STORAGE_CONF: join(work, 'storage.conf'),
      BUILDAH_ISOLATION: 'chroot',
      DOCKER_SHIM_LOG: shimLog,
      DOCKER_SHIM_PROBE: '1',
      DOCKER_SHIM_READ_ONLY: '1',
      LC_ALL: 'C',
    };
    timed('local base images', () => {
      buildLocalBase(RUNTIME_BASE, false);
      buildLocalBase(BUILD_BASE, true);
    });
    const version = (
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    timed('buildah bud Dockerfile', () =>
      ok('buildah', [
        'bud',
        '--isolation',
        'chroot',
        '--pull=never',
        '--build-arg',
        `BUILD_IMAGE=${BUILD_BASE}`,
        '--build-arg',
        `RUNTIME_IMAGE=${RUNTIME_BASE}`,
        '--build-arg',
        'NPM_CI=false',
        '--build-arg',
        `VERSION=${version}`,
        '--volume',
        `${join(repoRoot, 'node_modules')}:/src/node_modules:ro`,
        '-f',
        join(repoRoot, 'Dockerfile'),
        '-t',
        IMAGE,
        repoRoot,
      ]),
    );
  });

  afterAll(() => {
    if (timings.length > 0) console.log(`test:container timings\n  ${timings.join('\n  ')}`);
    if (work === '') return;
    if (keepStore) console.log(`buildah store kept: CONTAINERS_STORAGE_CONF=${work}/storage.conf`);
    else rmSync(work, { recursive: true, force: true });
  });

  it('holds the base image plus one world-readable file, runs it as nobody, and is labelled', () => {
    const inspect = JSON.parse(ok('buildah', ['inspect', '--type', 'image', IMAGE])) as {
      OCIv1: {
        config: {
          Entrypoint?: string[];
          Cmd?: string[];
          User?: string;
          Labels?: Record<string, string>;
        };
      };
    };
    const config = inspect.OCIv1.config;
    expect(config.Entrypoint).toEqual(ENTRYPOINT);
    expect(config.Cmd ?? []).toEqual([]);
    expect(config.User).toBe('65534:65534');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.title': 'secret-rollout',
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.licenses': 'Apache-2.0',
    });
    expect(config.Labels?.['org.opencontainers.image.source']).toMatch(/^https:\/\//);
    expect(config.Labels?.['org.opencontainers.image.description']).toMatch(/ExternalSecret/);

    // Compare the final image's file tree with the runtime base's.
    const tree = (image: string): Map<string, { mode: number; uid: number; size: number }> => {
      const name = ok('buildah', ['from', '--pull=never', '--quiet', image]).trim();
      try {
        const root = ok('buildah', ['mount', name]).trim();
        const files = new Map<string, { mode: number; uid: number; size: number }>();
        const walk = (dir: string): void => {
          for (const e of readdirSync(dir, { withFileTypes: true })) {
            const path = join(dir, e.name);
            const s = statSync(path, { throwIfNoEntry: false });
            files.set(`/${relative(root, path)}`, {
              mode: (s?.mode ?? 0) & 0o7777,
              uid: s?.uid ?? -1,
              size: s?.size ?? 0,
            });
            if (e.isDirectory() && !e.isSymbolicLink()) walk(path);
          }
        };
        walk(root);
        return files;
      } finally {
        ok('buildah', ['rm', name]);
      }
    };
    const base = tree(RUNTIME_BASE);
    const image = tree(IMAGE);
    const extra = [...image.keys()].filter((p) => !base.has(p)).sort();
    const shipped = [
      '/app/secret-rollout-bundle.cjs',
      '/app/secret-rollout-bundle.v8cache',
      '/app/secret-rollout-ignore.cjs',
      '/app/secret-rollout-re2js.cjs',
      '/app/secret-rollout-rules.cjs',
      '/app/secret-rollout-rules.v8cache',
      '/app/secret-rollout-yaml.cjs',
      '/app/secret-rollout.cjs',
    ];
    expect(extra).toEqual(['/app', ...shipped]);
    expect([...base.keys()].filter((p) => !image.has(p))).toEqual([]);
    for (const file of shipped) {
      expect(image.get(file)?.uid, file).toBe(0);
      expect(image.get(file)?.mode, file).toBe(0o644);
    }
    const bundle = image.get('/app/secret-rollout-bundle.cjs');
    expect((image.get('/app')?.mode ?? 0) & 0o005).toBe(0o005);

    const sizes = ok('buildah', ['images', '--format', '{{.Name}}:{{.Tag}} {{.Size}}']);
    console.log(`image sizes (buildah images):\n${sizes}bundle: ${bundle?.size} bytes`);
  });

  it('kpt fn render runs the Kptfile `image:` function (examples/kpt-render)', () => {
    const pkg = copyToWork('kpt-render', 'kpt-render');
    const before = readPackage(pkg);
    takeShimRecords();
    const r = timed('kpt fn render', () => run('kpt', ['fn', 'render', pkg], { cwd: work }));
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expectConfinedRuns(takeShimRecords(), 1);

    const after = readPackage(pkg);
    expect([...after.keys()]).toEqual([...before.keys()]);
    const added: string[] = [];
    for (const [name, text] of before) {
      added.push(...expectOnlyAnnotationsAdded(text, after.get(name) as string, name));
    }
    expect(added.length).toBeGreaterThan(0);
    const yamlFiles = [...after].filter(([name]) => name.endsWith('.yaml'));
    const out = docs(yamlFiles.map(([, text]) => text).join('\n---\n'));
    expect(byKindName(out, 'SecretStore', 'vault').metadata?.annotations?.[WAVE]).toBe('-3');
    expect(byKindName(out, 'ExternalSecret', 'db').metadata?.annotations?.[WAVE]).toBe('-1');
    expect(
      byKindName(out, 'Deployment', 'api').spec?.template?.metadata?.annotations?.[CHECKSUM],
    ).toMatch(/^[0-9a-f]{64}$/);
    expect(byKindName(out, 'Service', 'api').metadata?.annotations).toBeUndefined();

    // A second render changes nothing.
    const r2 = run('kpt', ['fn', 'render', pkg], { cwd: work });
    expect(r2.status, `${r2.stdout}\n${r2.stderr}`).toBe(0);
    expectConfinedRuns(takeShimRecords(), 1);
    expect(readPackage(pkg)).toEqual(after);
  });

  it('kpt fn eval --image gives the same package as the render, and fails on bad config', () => {
    const rendered = copyToWork('kpt-render', 'kpt-render-reference');
    ok('kpt', ['fn', 'render', rendered], { cwd: work });
    takeShimRecords();

    const pkg = copyToWork('kpt-render', 'kpt-eval');
    const before = readPackage(pkg);
    const r = timed('kpt fn eval', () =>
      run('kpt', ['fn', 'eval', pkg, '--image', IMAGE, '--', 'storeWave=-3'], { cwd: work }),
    );
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expectConfinedRuns(takeShimRecords(), 1);
    expect(readPackage(pkg)).toEqual(readPackage(rendered));

    const bad = copyToWork('kpt-render', 'kpt-eval-bad');
    const r2 = run('kpt', ['fn', 'eval', bad, '--image', IMAGE, '--', 'storeWave=soon'], {
      cwd: work,
    });
    expect(r2.status).not.toBe(0);
    expect(`${r2.stdout}${r2.stderr}`).toMatch(/storeWave/);
    expectConfinedRuns(takeShimRecords(), 1);
    expect(readPackage(bad)).toEqual(before);
  });

  it('kubectl kustomize runs the `container:` transformer (examples/kustomize-container)', () => {
    const dir = copyToWork('kustomize-container', 'kustomize-container');
    takeShimRecords();
    const out = timed('kubectl kustomize (container)', () =>
      ok('kubectl', ['kustomize', '--enable-alpha-plugins', dir]),
    );
    expectConfinedRuns(takeShimRecords(), 1);

    // The same kustomization without the transformer: what kustomize itself prints.
    const kustomization = join(dir, 'kustomization.yaml');
    const k = parse(readFileSync(kustomization, 'utf8')) as Record<string, unknown>;
    expect(k.transformers).toBeDefined();
    delete k.transformers;
    writeFileSync(kustomization, JSON.stringify(k));
    const baseline = ok('kubectl', ['kustomize', dir]);

    const added = expectOnlyAnnotationsAdded(baseline, out, 'kubectl kustomize output');
    expect(added.length).toBeGreaterThan(0);
    const all = docs(out);
    expect(all.map((d) => d.kind).sort()).toEqual(
      docs(baseline)
        .map((d) => d.kind)
        .sort(),
    );
    expect(byKindName(all, 'ClusterSecretStore', 'vault').metadata?.annotations?.[WAVE]).toBe('-5');
    expect(byKindName(all, 'ExternalSecret', 'db').metadata?.annotations?.[WAVE]).toBe('-1');
    for (const kind of ['Deployment', 'CronJob']) {
      const workload = all.find((d) => d.kind === kind);
      const tpl =
        kind === 'CronJob'
          ? (workload as { spec?: { jobTemplate?: { spec?: Doc['spec'] } } }).spec?.jobTemplate
              ?.spec?.template
          : workload?.spec?.template;
      expect(tpl?.metadata?.annotations?.[CHECKSUM], kind).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('kubectl kustomize silently skips the `exec:` transformer (examples/kustomize-exec)', () => {
    takeShimRecords();
    const out = ok('kubectl', [
      'kustomize',
      '--enable-alpha-plugins',
      join(examples, 'kustomize-exec'),
    ]);
    expect(out).toMatch(/kind: ExternalSecret/);
    expect(out).not.toMatch(new RegExp(`${CHECKSUM}|${WAVE}`));
    expect(takeShimRecords()).toEqual([]);
  });

  it('reads a stream on stdin and exits 1 with nothing on stdout on error (CI, Argo CD plugin)', () => {
    takeShimRecords();
    const input = readFileSync(join(examples, 'ci', 'manifests.yaml'), 'utf8');
    const docker = ['run', '--rm', '-i', '--network', 'none', IMAGE];
    const good = run('docker', docker, { input });
    expect(good.status, good.stderr).toBe(0);
    expectOnlyAnnotationsAdded(input, good.stdout, 'stream');
    expect(good.stdout).toMatch(new RegExp(`${CHECKSUM}: "[0-9a-f]{64}"`));

    const bad = run('docker', [...docker, 'storeWave=soon'], { input });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/storeWave/);
    expectConfinedRuns(takeShimRecords(), 2, false);
  });

  it("runs the README's container quick start as written: kpt fn eval --image, kpt fn doc", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const block = /^```sh\n(docker build -t [^\n]*\n[\s\S]*?)^```$/m.exec(readme)?.[1];
    expect(block, 'the README has no container quick start block').toBeDefined();
    const [build, ...rest] = (block as string).trimEnd().split('\n');
    // The build is beforeAll's, with the local bases this machine can build (see the top).
    expect(build).toBe(`docker build -t ${IMAGE} .`);
    const [evalLine, docLine] = rest as [string, string];
    expect(evalLine).toMatch(new RegExp(`^kpt fn eval examples/\\S+ --image ${IMAGE} -o unwrap `));
    expect(docLine).toMatch(new RegExp(`^kpt fn doc --image ${IMAGE}\\b`));
    // From a copy of examples/, as the README's other snippets run.
    cpSync(examples, join(work, 'readme', 'examples'), { recursive: true });
    const bash = (line: string) =>
      run('bash', ['-euo', 'pipefail', '-c', line], { cwd: join(work, 'readme') });
    takeShimRecords();

    const rendered = bash(evalLine);
    expect(rendered.status, rendered.stderr).toBe(0);
    expect(rendered.stdout).toMatch(new RegExp(`${CHECKSUM}: "[0-9a-f]{64}"`));
    expect(rendered.stdout).toContain(`${WAVE}: "-3"`);
    expectConfinedRuns(takeShimRecords(), 1);

    // kpt fn doc runs `docker run --rm IMAGE --help` (kpt 1.0.0-beta.56, seen through the shim's
    // log) and prints what the image prints: the usage the image's own --help gives.
    const doc = bash(docLine);
    expect(doc.status, doc.stderr).toBe(0);
    const runs = takeShimRecords().filter((r) => r.argv[0] === 'run');
    expect(runs.map((r) => [r.image, r.argv.at(-1), r.error])).toEqual([
      [IMAGE, '--help', undefined],
    ]);
    const help = ok('docker', ['run', '--rm', IMAGE, '--help']);
    expect(help).toMatch(/secret-rollout/);
    // kpt prints it with a line break of its own after it.
    expect(doc.stdout).toBe(`${help}\n`);
    takeShimRecords();
  });

  it('the Argo CD plugin patch applies to a repo-server Deployment (examples/argocd-cmp)', () => {
    // Argo CD's install.yaml cannot be fetched here: a stand-in repo-server with the volumes the
    // real one has (var-files, plugins), patched by the example's own kustomization.
    const dir = copyToWork('argocd-cmp', 'argocd-cmp');
    writeFileSync(
      join(dir, 'repo-server.yaml'),
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: argocd-repo-server}',
        'spec:',
        '  template:',
        '    spec:',
        '      containers:',
        '      - {name: argocd-repo-server, image: quay.io/argoproj/argocd:v3.1.0}',
        '      volumes:',
        '      - {name: var-files, emptyDir: {}}',
        '      - {name: plugins, emptyDir: {}}',
        '',
      ].join('\n'),
    );
    const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    k.resources = ['repo-server.yaml'];
    writeFileSync(join(dir, 'kustomization.yaml'), JSON.stringify(k));
    type Container = { name: string; volumeMounts?: { name: string }[] };
    type Rendered = {
      kind: string;
      metadata: { name: string; namespace?: string };
      data?: Record<string, string>;
      spec?: {
        template: {
          spec: {
            initContainers?: Container[];
            containers: Container[];
            volumes: { name: string }[];
          };
        };
      };
    };
    const out = parseAllDocuments(ok('kubectl', ['kustomize', dir])).map(
      (d) => d.toJS() as Rendered,
    );
    const cm = out.find((d) => d.kind === 'ConfigMap');
    expect(cm?.metadata).toEqual({ name: 'secret-rollout-cmp', namespace: 'argocd' });
    const plugin = cm?.data?.['plugin.yaml'] ?? '';
    expect(plugin).toBe(readFileSync(join(examples, 'argocd-cmp', 'plugin.yaml'), 'utf8'));
    expect(parse(plugin)).toMatchObject({
      kind: 'ConfigManagementPlugin',
      spec: { generate: { command: ['sh', '-c'] } },
    });
    expect(plugin).toContain(ENTRYPOINT.join(' '));

    const pod = out.find((d) => d.kind === 'Deployment')?.spec?.template.spec;
    expect(pod?.containers.map((c) => c.name).sort()).toEqual([
      'argocd-repo-server',
      'secret-rollout',
    ]);
    const volumes = new Set(pod?.volumes.map((v) => v.name));
    for (const c of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) {
      for (const m of c.volumeMounts ?? [])
        expect(volumes, `${c.name} mounts ${m.name}`).toContain(m.name);
    }
  });

  it('the GitHub Actions render step passes, and fails the job on an error result', () => {
    takeShimRecords();
    const workflow = parse(readFileSync(join(examples, 'ci', 'github-actions.yaml'), 'utf8')) as {
      env?: Record<string, string>;
      jobs: Record<string, { steps: { id?: string; run?: string; shell?: string }[] }>;
    };
    const step = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((s) => s.id === 'render');
    expect(step?.run, 'a step with id: render').toBeDefined();
    expect(step?.shell).toBe('bash');

    // A repository with the overlay the workflow renders, once fine and once with a wave conflict.
    const repo = join(work, 'gha');
    const overlay = join(repo, workflow.env?.OVERLAY ?? 'missing OVERLAY');
    cpSync(join(examples, 'kustomize-container'), overlay, { recursive: true });
    const k = parse(readFileSync(join(overlay, 'kustomization.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    delete k.transformers;
    writeFileSync(join(overlay, 'kustomization.yaml'), JSON.stringify(k));
    const ghaEnv = { ...workflow.env, SECRET_ROLLOUT_IMAGE: IMAGE };
    // GitHub runs `shell: bash` steps as `bash --noprofile --norc -eo pipefail {0}`.
    const script = join(work, 'render-step.sh');
    writeFileSync(script, step?.run ?? '');
    const bash = ['--noprofile', '--norc', '-eo', 'pipefail', script];

    const good = run('bash', bash, { cwd: repo, extraEnv: ghaEnv });
    expect(good.status, `${good.stdout}\n${good.stderr}`).toBe(0);
    const rendered = readFileSync(join(repo, workflow.env?.RENDERED ?? 'missing RENDERED'), 'utf8');
    expect(rendered).toMatch(new RegExp(`${CHECKSUM}: "?[0-9a-f]{64}`));

    const es = join(overlay, 'external-secret.yaml');
    writeFileSync(
      es,
      readFileSync(es, 'utf8').replace(
        /^ {2}name: db$/m,
        `  name: db\n  annotations:\n    ${WAVE}: "5"`,
      ),
    );
    const bad = run('bash', bash, { cwd: repo, extraEnv: ghaEnv });
    expect(bad.status, `${bad.stdout}\n${bad.stderr}`).not.toBe(0);
    expect(bad.stderr).toMatch(/sync-wave/);
    expectConfinedRuns(takeShimRecords(), 2, false);
  });
});
