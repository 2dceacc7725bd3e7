// What `impact BASE HEAD` and `--fn-config FILE` read from the file system when the tree is a pull
// request's: links out of a directory (or out of the working directory) are refused, loops and
// dangling links are named, and no message shows a file's content or where a refused link points.
// Real temporary directories and real symbolic links; the file outside holds a canary.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impactCli } from '../src/impact-cli.js';
import { repoRoot } from './helpers.js';

const canary = 'CANARY-files-4b1d';
const manifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app
  namespace: shop
data:
  a: "1"
`;

let scratch: string;
/** The working directory of every run: the pull request's tree. */
let tree: string;
/** A file outside the tree: its first line is the canary (a file the tree must not read). */
let outside: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'impact-files-'));
  tree = path.join(scratch, 'tree');
  outside = path.join(scratch, 'private', 'token.yaml');
  mkdirSync(path.dirname(outside), { recursive: true });
  writeFileSync(outside, `${canary} secret first line\n`);
  mkdirSync(path.join(tree, 'ok'), { recursive: true });
  writeFileSync(path.join(tree, 'ok', 'app.yaml'), manifest);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A directory of the tree with the given files and links (name → target). */
function dir(name: string, links: Record<string, string>, files: Record<string, string> = {}) {
  const at = path.join(tree, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(path.join(at, 'app.yaml'), manifest);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(at, file)), { recursive: true });
    writeFileSync(path.join(at, file), text);
  }
  for (const [link, target] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(at, link)), { recursive: true });
    symlinkSync(target, path.join(at, link));
  }
  return name;
}

const impact = (...args: string[]) => impactCli(args, '9.9.9', tree);

/** One line on stderr, exit 1, and neither the canary nor the outside file's path in it. */
function refused(out: { stdout: string; stderr: string; exitCode: number }, line: string) {
  expect(out).toEqual({ stdout: '', stderr: `secret-rollout: impact: ${line}\n`, exitCode: 1 });
  expect(out.stderr).not.toContain(canary);
  expect(out.stderr).not.toContain('private');
}

describe('impact on a directory with symbolic links', () => {
  it('refuses a .yaml link that leads out of the directory, naming the link only', () => {
    const relative = dir('relative-out', { 'evil.yaml': '../../private/token.yaml' });
    refused(
      impact('ok', relative),
      'HEAD relative-out: evil.yaml is a symbolic link out of the directory (refused)',
    );
    const absolute = dir('absolute-out', { 'deep/er/evil.yml': outside });
    refused(
      impact(absolute, 'ok'),
      'BASE absolute-out: deep/er/evil.yml is a symbolic link out of the directory (refused)',
    );
  });

  it('names the file of a link loop, and a link to nothing', () => {
    refused(
      impact('ok', dir('loop', { 'a.yaml': 'b.yaml', 'b.yaml': 'a.yaml' })),
      'HEAD loop: a.yaml is a symbolic link loop',
    );
    refused(
      impact('ok', dir('dangling', { 'gone.yaml': 'nowhere.yaml' })),
      'HEAD dangling: gone.yaml is a symbolic link to nothing',
    );
  });

  it('follows a link to a file inside the directory, as if it were that file', () => {
    const shared = `${manifest.replace('name: app', 'name: shared')}`;
    const linked = dir(
      'linked',
      { 'b/shared.yaml': '../a/shared.yaml' },
      { 'a/shared.yaml': shared },
    );
    const copied = dir('copied', {}, { 'a/shared.yaml': shared, 'b/shared.yaml': shared });
    const out = impact(linked, copied, '--format', 'json');
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(impact(linked, 'ok', '--format', 'json').stdout).toBe(
      impact(copied, 'ok', '--format', 'json').stdout,
    );
  });

  it('refuses BASE or HEAD below the working directory that is a link out of it', () => {
    symlinkSync(path.dirname(outside), path.join(tree, 'head-link'));
    refused(
      impact('ok', 'head-link'),
      'HEAD head-link: a symbolic link out of the working directory (refused)',
    );
    refused(
      impact('ok', 'head-link/token.yaml'),
      'HEAD head-link/token.yaml: a symbolic link out of the working directory (refused)',
    );
  });

  it('never shows the first characters of a file it cannot read as manifests', () => {
    writeFileSync(path.join(tree, 'env.yaml'), `${canary}=hunter2\n`);
    const out = impact('ok', 'env.yaml');
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      'secret-rollout: impact: HEAD env.yaml: document 0: item is a string, not a mapping (invalid-input)\n',
    );
  });
});

describe('--fn-config FILE', () => {
  it('names the file, never its content', () => {
    writeFileSync(path.join(tree, 'config.yaml'), `${canary}: [\n`);
    writeFileSync(path.join(tree, 'scalar.yaml'), `${canary}\n`);
    writeFileSync(
      path.join(tree, 'value.yaml'),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  checksumAnnotation: "${canary} x"\n  externalSecretWave: "${canary}"\n`,
    );
    writeFileSync(path.join(tree, 'latin1.yaml'), Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a]));
    symlinkSync(outside, path.join(tree, 'link-config.yaml'));
    for (const file of [
      'config.yaml',
      'scalar.yaml',
      'value.yaml',
      'latin1.yaml',
      'link-config.yaml',
    ]) {
      const out = impact('ok', 'ok', '--fn-config', file);
      expect(out.exitCode, file).toBe(1);
      expect(out.stderr.split('\n'), file).toHaveLength(2);
      expect(out.stderr, file).toContain(file);
      expect(out.stderr, file).not.toContain(canary);
      expect(out.stderr, file).not.toContain('private');
    }
    expect(impact('ok', 'ok', '--fn-config', 'latin1.yaml').stderr).toBe(
      'secret-rollout: impact: cannot read --fn-config latin1.yaml: not valid UTF-8\n',
    );
  });

  it('the built command: the same for run, plan and check', () => {
    for (const command of [[], ['plan'], ['check']]) {
      for (const file of ['scalar.yaml', 'link-config.yaml', 'missing.yaml']) {
        const out = spawnSync(
          process.execPath,
          [path.join(repoRoot, 'dist/secret-rollout.cjs'), ...command, '--fn-config', file],
          { cwd: tree, input: manifest, encoding: 'utf8' },
        );
        expect(out.status, `${command} ${file}`).toBe(1);
        expect(out.stderr, `${command} ${file}`).toContain(file);
        expect(out.stderr, `${command} ${file}`).not.toContain(canary);
        expect(out.stderr, `${command} ${file}`).not.toContain('private');
      }
    }
  });
});

describe('a repository folder: files that are no manifests, .krmignore, --exclude', () => {
  const deployment = (name: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: app, image: app, envFrom: [{secretRef: {name: db}}]}]\n`;
  /** A directory of the tree with these files (path → text). */
  function repo(name: string, files: Record<string, string>) {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tree, name, file)), { recursive: true });
      writeFileSync(path.join(tree, name, file), text);
    }
    return name;
  }
  /** The workloads HEAD adds (`ok` has none): the ones read. */
  const rollouts = (out: { stdout: string }) =>
    (
      JSON.parse(out.stdout) as { added: { kind: string; namespace: string; name: string }[] }
    ).added.map((a) => `${a.kind} ${a.namespace}/${a.name}`);
  const info = (side: string, file: string) =>
    `info: impact: ${side} ${file} skipped: no Kubernetes manifest in it (no document has apiVersion and kind)`;

  it('skips files none of whose documents has apiVersion and kind, one info line each', () => {
    const base = repo('repo-base', { 'apps/a.yaml': deployment('a') });
    const head = repo('repo-head', {
      'apps/a.yaml': deployment('a'),
      // A JSON manifest has its keys quoted: still a manifest.
      'apps/b.yaml': `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "b", "namespace": "shop"}, "spec": {"template": {"spec": {"containers": []}}}}\n`,
      'chart/Chart.yaml': `apiVersion: v2\nname: ${canary}\nversion: 0.1.0\n`,
      'chart/values.yaml': `replicas: 3\nimage: {tag: "${canary}"}\n`,
      // Home Assistant's tags, and a second document: nothing to read in either.
      'home/configuration.yaml': `homeassistant: !include ${canary}.yaml\n---\nkind: [${canary}]\n`,
      'empty.yaml': '# nothing yet\n',
    });
    const out = impact(base, head, '--format', 'json');
    expect(out.exitCode).toBe(0);
    expect(rollouts(out)).toEqual(['Deployment shop/b']);
    expect(out.stderr.trimEnd().split('\n')).toEqual([
      info('HEAD', 'repo-head/chart/Chart.yaml'),
      info('HEAD', 'repo-head/chart/values.yaml'),
      info('HEAD', 'repo-head/home/configuration.yaml'),
    ]);
    expect(out.stderr).not.toContain(canary);
  });

  it('reads a file with some manifests whole: a document without apiVersion or kind is an error', () => {
    const head = repo('mixed-head', {
      'a.yaml': `${deployment('a')}---\nreplicas: 3\n`,
      'b.yaml': deployment('b'),
    });
    expect(impact('ok', head)).toMatchObject({
      exitCode: 1,
      stderr:
        'secret-rollout: impact: HEAD mixed-head/a.yaml: document 1: item has no apiVersion string: give it apiVersion and kind, or leave it out of the input (invalid-input)\n',
    });
  });

  it('refuses a directory with no manifest at all, as one with no YAML file', () => {
    const head = repo('no-manifest', { 'Chart.yaml': 'apiVersion: v2\nname: c\n' });
    expect(impact('ok', head)).toMatchObject({
      exitCode: 1,
      stderr:
        'secret-rollout: impact: HEAD no-manifest: no Kubernetes manifest in the directory (1 YAML files without apiVersion and kind)\n',
    });
  });

  it('a file given by name is read as it is', () => {
    repo('given', { 'values.yaml': 'replicas: 3\n' });
    expect(impact('ok', 'given/values.yaml')).toMatchObject({
      exitCode: 1,
      stderr:
        'secret-rollout: impact: HEAD given/values.yaml: document 0: item has no apiVersion string: give it apiVersion and kind, or leave it out of the input (invalid-input)\n',
    });
  });

  it('honours .krmignore as kpt does: the directory given, and each Kptfile directory its own', () => {
    const head = repo('krmignore', {
      // Not valid YAML (a Helm template): read, it would stop the report.
      '.krmignore': `# templates\ncharts/*/templates/\n/top-only.yaml\nsub/skipped.yaml\n`,
      'charts/shop/templates/deployment.yaml': `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: {{ .Release.Name }}}\n`,
      'top-only.yaml': deployment('top-only'),
      'nested/top-only.yaml': deployment('nested-top-only'),
      'sub/skipped.yaml': deployment('sub-skipped'),
      // A subpackage: the parent's patterns stop at it, its own .krmignore applies below it.
      'pkg/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: pkg}\n',
      'pkg/.krmignore': 'local.yaml\n',
      'pkg/local.yaml': deployment('pkg-local'),
      'pkg/charts/shop/templates/kept.yaml': deployment('pkg-kept'),
      'pkg/sub/skipped.yaml': deployment('pkg-sub'),
      // A subpackage without a .krmignore: nothing is ignored below it.
      'pkg2/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: pkg2}\n',
      'pkg2/sub/skipped.yaml': deployment('pkg2-sub'),
    });
    const out = impact('ok', head, '--format', 'json');
    expect(out.stderr).toBe('');
    expect(rollouts(out).sort()).toEqual([
      'Deployment shop/nested-top-only',
      'Deployment shop/pkg-kept',
      'Deployment shop/pkg-sub',
      'Deployment shop/pkg2-sub',
    ]);
  });

  it('--exclude takes .gitignore patterns relative to BASE and HEAD, repeatable', () => {
    const head = repo('exclude', {
      'a.yaml': deployment('a'),
      'b.tmpl.yaml': 'not: [valid',
      'charts/x/templates/c.yaml': 'metadata: {name: {{ x }}}\n',
      'keep/d.yaml': deployment('d'),
    });
    expect(impact('ok', head).exitCode).toBe(1);
    const out = impact(
      'ok',
      head,
      '--exclude',
      '*.tmpl.yaml',
      '--exclude=templates/',
      '--format',
      'json',
    );
    expect(out.stderr).toBe('');
    expect(rollouts(out).sort()).toEqual(['Deployment shop/a', 'Deployment shop/d']);
    // A negation re-includes, as in .gitignore; the patterns apply to BASE (ok/app.yaml) too.
    const only = impact(
      'ok',
      head,
      '--exclude',
      '*.yaml',
      '--exclude',
      '!a.yaml',
      '--exclude',
      '!app.yaml',
      '--exclude',
      'charts/',
      '--format',
      'json',
    );
    expect(rollouts(only)).toEqual(['Deployment shop/a']);
  });

  it('refuses a .krmignore that is a link out of the directory, naming it only', () => {
    const head = dir('krmignore-link', { '.krmignore': outside });
    refused(
      impact('ok', head),
      'HEAD krmignore-link: .krmignore is a symbolic link out of the directory (refused)',
    );
  });

  it('refuses a .krmignore that is not a file, rather than reading the tree without it', () => {
    const head = repo('krmignore-dir', { 'app.yaml': deployment('a'), '.krmignore/x': '' });
    refused(impact('ok', head), 'HEAD krmignore-dir: cannot read .krmignore: not a regular file');
  });
});
