// examples/ci/impact.sh end to end: a real git repository with commits of a small kustomize app
// whose manifests are committed rendered (secret-rollout's output), then a remoteRef.version bump of
// one ExternalSecret, rendered and committed, and the same bump committed without re-rendering. The
// script renders each commit with the real `kubectl kustomize` from `git archive`, writes the
// impact report and gates on `secret-rollout check`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { run } from '../src/run.js';
import { findOnPath, repoRoot } from './helpers.js';

const script = path.join(repoRoot, 'examples/ci/impact.sh');

const files = (version: string): Record<string, string> => ({
  'base/kustomization.yaml': 'resources:\n  - secrets.yaml\n  - apps.yaml\n',
  'base/secrets.yaml': `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault
  data:
    - secretKey: password
      remoteRef:
        key: shop/db
        version: "${version}"
---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: payments
spec:
  secretStoreRef:
    name: vault
  data:
    - secretKey: token
      remoteRef:
        key: shop/payments
        version: "4"
`,
  'base/apps.yaml': ['api', 'worker', 'billing']
    .map(
      (name) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  template:
    spec:
      containers:
        - name: app
          image: ${name}:1
          envFrom:
            - secretRef:
                name: ${name === 'billing' ? 'payments' : 'db'}
`,
    )
    .join('---\n'),
  'overlays/prod/kustomization.yaml': 'namespace: shop\nresources:\n  - ../../base\n',
  // YAML in the repository that is no manifest (an app's own config, a Helm chart's): kustomize
  // never reads it, impact on the directory skips it.
  'base/proxy_server_config.yaml': 'model_list:\n  - model_name: gpt\n',
  'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
});

let repo: string;
let env: NodeJS.ProcessEnv;

function git(...args: string[]): string {
  const out = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`git ${args.join(' ')}: ${out.stderr}`);
  return out.stdout;
}

/** Commits the app at `version` as secret-rollout renders it. */
function commit(version: string, message: string): void {
  const app = files(version);
  // secrets.yaml and apps.yaml through the function as one stream, split back into the files.
  const secrets = app['base/secrets.yaml'] as string;
  const out = run(`${secrets}---\n${app['base/apps.yaml']}`);
  expect(out.exitCode).toBe(0);
  const docs = out.stdout.split('---\n');
  const count = secrets.split('---\n').length;
  app['base/secrets.yaml'] = docs.slice(0, count).join('---\n');
  app['base/apps.yaml'] = docs.slice(count).join('---\n');
  for (const [file, text] of Object.entries(app)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', message);
}

beforeAll(() => {
  if (!findOnPath('kubectl')) throw new Error('kubectl is not on PATH: this test needs it');
  repo = mkdtempSync(path.join(tmpdir(), 'impact-ci-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
  commit('1', 'app');
  commit('2', 'bump db to version 2');
  git('tag', 'rendered');
  // Someone bumps the version in the rendered file by hand and commits without re-rendering.
  const secrets = path.join(repo, 'base/secrets.yaml');
  writeFileSync(secrets, readFileSync(secrets, 'utf8').replace('version: "2"', 'version: "3"'));
  git('commit', '-q', '-am', 'bump db to version 3, not rendered');
  // The built command on PATH as `secret-rollout`, as an installed package puts it.
  const bin = path.join(repo, '.bin');
  mkdirSync(bin);
  symlinkSync(path.join(repoRoot, 'dist/secret-rollout.cjs'), path.join(bin, 'secret-rollout'));
  env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const runScript = (extra: NodeJS.ProcessEnv, base = 'rendered~1', head = 'rendered') =>
  spawnSync('bash', [script, base, head, 'overlays/prod'], {
    cwd: repo,
    env: { ...env, ...extra },
    encoding: 'utf8',
  });

describe('examples/ci/impact.sh', () => {
  it('renders both commits and reports exactly the consumers of the bumped ExternalSecret', () => {
    const out = runScript({});
    // The gate passed: the rendered head needs no edit, and a passing check says nothing.
    expect(out.stderr).not.toMatch(/^(error|warning|info):|check: a render would change/m);
    expect(out.stdout).toBe('impact: impact-out/impact.md\n');
    expect(out.status).toBe(0);

    const rendered = readFileSync(path.join(repo, 'impact-out/head.yaml'), 'utf8');
    expect(rendered).toContain('  namespace: shop\n');
    expect(rendered).toContain('version: "2"');

    const report = JSON.parse(readFileSync(path.join(repo, 'impact-out/impact.json'), 'utf8'));
    const db = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      namespace: 'shop',
      name: 'db',
    };
    const reasons = [{ source: db, detail: 'data[password].remoteRef.version: "1" → "2"' }];
    const deployment = (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'shop',
      name,
    });
    expect(report).toEqual({
      rollouts: [
        { resource: deployment('api'), reasons },
        { resource: deployment('worker'), reasons },
      ],
      silentRotations: [],
      unchangedSilentRotations: 0,
      waves: [],
      order: [],
      added: [],
      removed: [],
    });

    const markdown = readFileSync(path.join(repo, 'impact-out/impact.md'), 'utf8');
    expect(markdown).toContain('**2 workloads will restart** because 1 secret source changed.');
    expect(markdown).toContain(
      '| `Deployment shop/api` | `ExternalSecret shop/db`: data\\[password\\].remoteRef.version: "1" → "2" |',
    );
    expect(markdown).not.toContain('billing');
    // The full report beside the comment (the same text: it is under the comment's cap).
    expect(readFileSync(path.join(repo, 'impact-out/impact-full.md'), 'utf8')).toBe(markdown);
  });

  it('writes SARIF for a directory of the repository, with paths relative to it', () => {
    const out = runScript({ SARIF_DIR: 'base' });
    expect(out.status).toBe(0);
    expect(out.stderr).toContain(
      'info: impact: HEAD base/proxy_server_config.yaml skipped: no Kubernetes manifest in it',
    );
    const log = JSON.parse(readFileSync(path.join(repo, 'impact-out/impact.sarif'), 'utf8'));
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results).toEqual([]);
  });

  it('fails the gate on a bump committed without re-rendering, naming each stale checksum, and still writes the report', () => {
    const out = runScript({}, 'rendered', 'HEAD');
    expect(out.status).toBe(1);
    const errors = out.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors.map((l) => /^error: Deployment (shop\/\w+): /.exec(l)?.[1])).toEqual([
      'shop/api',
      'shop/worker',
    ]);
    expect(errors[0]).toMatch(
      /checksum\/external-secrets is "[0-9a-f]{64}", not the checksum of ExternalSecret shop\/db/,
    );
    expect(out.stderr).toMatch(
      /check: a render would change overlays\/prod at HEAD: render and commit\n$/,
    );
    const report = JSON.parse(readFileSync(path.join(repo, 'impact-out/impact.json'), 'utf8'));
    expect(report.rollouts.map((r: { resource: { name: string } }) => r.resource.name)).toEqual([
      'api',
      'worker',
    ]);
  });

  it('refuses an unknown renderer', () => {
    const out = runScript({ RENDER: 'helm' });
    expect(out.stderr).toBe('RENDER must be kustomize or kpt, got helm\n');
    expect(out.status).toBe(2);
  });

  it('the GitHub Actions workflow and the GitLab job both run the script and post its markdown', () => {
    const read = (file: string) =>
      parse(readFileSync(path.join(repoRoot, 'examples/ci', file), 'utf8'));
    const github = read('impact-github-actions.yml');
    const steps = github.jobs.impact.steps as { run?: string; with?: Record<string, unknown> }[];
    const githubScript = steps.map((s) => s.run ?? '').join('\n');
    const gitlabScript = (
      read('impact-gitlab-ci.yml')['secret-rollout-impact'].script as string[]
    ).join('\n');
    for (const script of [githubScript, gitlabScript]) {
      expect(script).toMatch(/ci\/impact\.sh "\$[^"]+" "\$[^"]+" "\$OVERLAY" \|\| status=\$\?/);
      expect(script).toContain('impact-out/impact.md');
      const syntax = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
      expect(syntax.stderr).toBe('');
    }
    expect(github.on).toEqual({ pull_request: null });
    expect(steps.find((s) => s.with?.sarif_file)?.with?.sarif_file).toBe('impact-out/impact.sarif');
  });
});
