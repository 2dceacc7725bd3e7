// The snippets of the user docs (README.md and docs/*.md) work exactly as written. Every fenced
// block of those pages is listed here: either run (shell blocks, from a scratch directory holding a
// copy of examples/, with the built command on PATH as `secret-rollout`, as an installed package
// puts it) and its output checked, or checked another way, or excused with the reason it cannot
// run here. A block that is not listed, or a listed block that is no longer in any page, fails the
// test, so the two cannot drift apart. Every relative link of those pages must resolve too.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: the benchmark's generator is plain JavaScript, without types.
import { writeMonorepo } from '../bench/monorepo.mjs';
import { impactCli } from '../src/impact-cli.js';
import { run } from '../src/run.js';
import { findOnPath, repoRoot } from './helpers.js';

interface Block {
  lang: string;
  text: string;
  /** The page it is in, relative to the repository root. */
  page: string;
  /** The block that follows it on its page (a sample output follows its command). */
  next?: Block;
}

/** The user docs: README.md and every page of docs/, relative to the repository root. */
const pages = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;

function docBlocks(): Block[] {
  const all: Block[] = [];
  for (const page of pages) {
    const text = readFileSync(path.join(repoRoot, page), 'utf8');
    const blocks: Block[] = [];
    for (const match of text.matchAll(fence)) {
      blocks.push({ lang: match[1] as string, text: match[2] as string, page });
    }
    blocks.forEach((block, i) => {
      block.next = blocks[i + 1];
    });
    all.push(...blocks);
  }
  return all;
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (outside fenced blocks). */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(fence, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => anchor(m[1] as string)));
}

let scratch: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'readme-'));
  cpSync(path.join(repoRoot, 'examples'), path.join(scratch, 'examples'), { recursive: true });
  // The examples' Kptfiles name ../../dist/secret-rollout.cjs, as in a checkout.
  symlinkSync(path.join(repoRoot, 'dist'), path.join(scratch, 'dist'));
  const bin = path.join(scratch, '.bin');
  mkdirSync(bin);
  symlinkSync(path.join(repoRoot, 'dist/secret-rollout.cjs'), path.join(bin, 'secret-rollout'));
  env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * bash with `args` in `cwd`. Its stdin is /dev/null, not the socket Node gives a child by default:
 * bash takes a socket on stdin for a remote shell and reads the machine's bashrc then, which may
 * not survive `-u` (as /etc/bash.bashrc's `$PS1` does not, depending on SHLVL).
 */
function bash(args: string[], cwd = scratch, vars: NodeJS.ProcessEnv = {}) {
  return spawnSync('bash', args, {
    cwd,
    env: { ...env, ...vars },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A git repository at `dir` in the scratch directory: examples/ci/impact's base, then head, as app/. */
function twoCommitRepo(dir: string): string {
  const repo = path.join(scratch, dir);
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => {
    const out = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
  for (const side of ['base', 'head']) {
    rmSync(path.join(repo, 'app'), { recursive: true, force: true });
    cpSync(path.join(scratch, 'examples/ci/impact', side), path.join(repo, 'app'), {
      recursive: true,
    });
    git('add', '-A');
    git('commit', '-q', '-m', side);
  }
  return repo;
}

/** Runs a shell block as a user would paste it (bash, stop at the first failing command). */
function sh(script: string): { stdout: string; stderr: string } {
  const out = bash(['-euo', 'pipefail', '-c', script]);
  expect(out.stderr.split('\n').filter((l) => /error|not found|No such/i.test(l))).toEqual([]);
  expect(out.status).toBe(0);
  return { stdout: out.stdout, stderr: out.stderr };
}

/** kpt and kubectl come with the machine image; without them these checks fail, never skip. */
function requireTool(tool: string): void {
  if (!findOnPath(tool)) throw new Error(`${tool} is not on PATH: the docs' snippets need it`);
}

/** What each block is and how it is checked, by its first line. */
const checks: Record<string, (block: Block) => void> = {
  // Install: the tarball, git and npm link routes need a fresh clone and the registry;
  // `npm run test:install` (.ci/run) runs each from a clone of HEAD.
  "# 1. A tarball: a release's, or one packed from a clone (npm ci && npm pack)": () => {},

  // The README's two commands, which .ci/run runs in a fresh clone (`npm ci`, then `npm test` at
  // full depth): here, that each names the package script it says, and that the example's script
  // runs the built function on a bundled stream and succeeds.
  'npm ci && npm run example   # build, run on a bundled example stream: output on stdout, results on stderr':
    (block) => {
      const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
      expect(block.text).toContain('.ci/tools && npm ci && npm test ');
      expect(scripts.test).toMatch(/vitest run$/);
      expect(scripts.example).toMatch(
        /^npm run build --silent && node dist\/secret-rollout\.cjs < examples\//,
      );
      const { stdout } = sh(scripts.example.replace(/^npm run build --silent && /, ''));
      expect(stdout).toContain('checksum/external-secrets');
    },

  // Usage: every command it names is one the CLI takes (its --help exits 0 and reads no stdin).
  'secret-rollout [key=value ... | --fn-config FILE] [--verbose] < input.yaml': (block) => {
    const second = block.text.split('\n')[1] as string;
    const commands = second
      .replace(/^secret-rollout /, '')
      .split(' | ')
      .map((part) => part.split(' ')[0] as string);
    expect(commands).toEqual(['check', 'plan', 'impact', 'health']);
    for (const command of commands) sh(`secret-rollout ${command} --help`);
  },

  // Examples (also `--help`'s): as a whole, in a copy of examples/ of its own, since the kpt
  // package it renders is rendered in place.
  '# Write checksums and waves into a kpt package in place, with the command on PATH': (block) => {
    const dir = path.join(scratch, 'examples-block');
    cpSync(path.join(scratch, 'examples'), path.join(dir, 'examples'), { recursive: true });
    const out = bash(['-euo', 'pipefail', '-c', block.text], dir);
    expect(out.status, out.stderr).toBe(0);
    const daemonset = readFileSync(path.join(dir, 'examples/kpt-eval/daemonset.yaml'), 'utf8');
    expect(daemonset).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"/);
    expect(readFileSync(path.join(dir, 'rendered.yaml'), 'utf8')).toContain(
      'argocd.argoproj.io/sync-wave: "-1"',
    );
    expect(out.stdout).toMatch(/^WAVE +KIND +NAME +DETAIL$/m);
    expect(out.stdout).toContain('### secret-rollout impact');
  },

  // Container image: no Docker engine here; `npm run test:container` builds the Dockerfile with
  // buildah and runs this block's kpt commands against the image, as written.
  'docker build -t localhost/secret-rollout:dev .': () => {},

  // kpt (declarative): the Kptfile fragment, put into examples/basic, renders with the command
  // from PATH and the configMap option applied.
  '# Kptfile': (block) => {
    requireTool('kpt');
    const pkg = path.join(scratch, 'kptfile-snippet');
    cpSync(path.join(scratch, 'examples/basic'), pkg, { recursive: true });
    const kptfile = parse(readFileSync(path.join(pkg, 'Kptfile'), 'utf8'));
    kptfile.pipeline = parse(block.text).pipeline;
    writeFileSync(path.join(pkg, 'Kptfile'), JSON.stringify(kptfile));
    const { stdout } = sh(`kpt fn render --allow-exec ${pkg} -o unwrap`);
    expect(stdout).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"/);
    expect(stdout).toContain('argocd.argoproj.io/sync-wave: "-3"');
  },
  'cd examples/basic && kpt fn render --allow-exec . -o unwrap   # print the result; without -o, rewrite the files':
    (block) => {
      requireTool('kpt');
      const { stdout } = sh(block.text);
      expect(stdout).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"/);
      expect(stdout).toContain('argocd.argoproj.io/sync-wave: "-2"');
    },
  'kpt fn eval examples/kpt-eval --exec secret-rollout -o unwrap -- checksumAnnotation=example.com/secret-checksum':
    (block) => {
      requireTool('kpt');
      const { stdout } = sh(block.text);
      expect(stdout).toMatch(/example\.com\/secret-checksum: "[0-9a-f]{64}"/);
      expect(stdout).not.toContain('checksum/external-secrets');
    },

  // kustomize: no standalone kustomize can be installed here (not in Debian; its npm package
  // downloads a binary). The kustomization fragment must parse; the transformer config must be a
  // functionConfig the function accepts.
  '# kustomization.yaml': (block) => {
    expect(parse(block.text).transformers).toEqual(['secret-rollout.yaml']);
  },
  '# secret-rollout.yaml': (block) => {
    const config = parse(block.text);
    expect(config.metadata.annotations['config.kubernetes.io/function']).toMatch(
      /path: secret-rollout/,
    );
    const list = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [],
      functionConfig: config,
    });
    expect(run(list).exitCode).toBe(0);
  },
  'kustomize build --enable-alpha-plugins --enable-exec .': () => {},
  'kubectl kustomize --enable-alpha-plugins examples/kustomize-exec | secret-rollout storeWave=-3':
    (block) => {
      requireTool('kubectl');
      const { stdout } = sh(block.text);
      expect(stdout).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"/);
      expect(stdout).toContain('argocd.argoproj.io/sync-wave: "-3"');
    },

  // CI pipe: writes rendered.yaml in the current directory.
  'secret-rollout < examples/ci/manifests.yaml > rendered.yaml': (block) => {
    const { stdout } = sh(block.text);
    expect(stdout).toBe('');
    const rendered = readFileSync(path.join(scratch, 'rendered.yaml'), 'utf8');
    expect(rendered).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"/);
  },

  // Check mode as a kpt validator: in a copy of examples/basic the mutator renders and the check
  // passes; the validator alone fails the render, naming what is left to do, and writes nothing.
  '# Kptfile: render, then check that nothing is left to do': (block) => {
    requireTool('kpt');
    const pkg = path.join(scratch, 'check-validator-snippet');
    cpSync(path.join(scratch, 'examples/basic'), pkg, { recursive: true });
    const kptfile = parse(readFileSync(path.join(pkg, 'Kptfile'), 'utf8'));
    const { pipeline } = parse(block.text);
    writeFileSync(path.join(pkg, 'Kptfile'), JSON.stringify({ ...kptfile, pipeline }));
    const { stdout } = sh(`kpt fn render --allow-exec ${pkg} -o unwrap`);
    expect(stdout).toContain('argocd.argoproj.io/sync-wave: "-3"');
    const validatorOnly = { ...kptfile, pipeline: { validators: pipeline.validators } };
    writeFileSync(path.join(pkg, 'Kptfile'), JSON.stringify(validatorOnly));
    const deployment = readFileSync(path.join(pkg, 'deployment.yaml'), 'utf8');
    const out = spawnSync('kpt', ['fn', 'render', '--allow-exec', '--truncate-output=false', pkg], {
      cwd: scratch,
      env,
      encoding: 'utf8',
    });
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(
      /\[error\] apps\/v1\/Deployment\/shop\/api spec\.template\.metadata\.annotations\[checksum\/external-secrets\]: Deployment shop\/api: checksum\/external-secrets is not set \(it covers ExternalSecret shop\/db\); render again with kpt \(kpt fn render, or the kpt fn eval that runs secret-rollout\) to set checksum\/external-secrets to "[0-9a-f]{64}"/,
    );
    expect(readFileSync(path.join(pkg, 'deployment.yaml'), 'utf8')).toBe(deployment);
  },
  // Check mode in CI: on a render's output it passes silently; on examples/check-stale it fails
  // with the stale checksum and changes no file.
  'secret-rollout check < rendered.yaml     # exit 0: rendering it again would change nothing': (
    block,
  ) => {
    const [rendered, stale] = block.text.trim().split('\n') as [string, string];
    sh('secret-rollout < examples/ci/manifests.yaml > rendered.yaml');
    // A passing gate is quiet: info only with --verbose, as plan.
    expect(sh(rendered)).toEqual({ stdout: '', stderr: '' });
    expect(sh('secret-rollout check --verbose < rendered.yaml').stderr).toMatch(/^info: /);
    requireTool('kpt');
    const before = readFileSync(path.join(scratch, 'examples/check-stale/deployment.yaml'), 'utf8');
    const out = bash(['-c', stale]);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain(
      '[error] apps/v1/Deployment/billing/billing-worker spec.template.metadata.annotations[checksum/external-secrets]: Deployment billing/billing-worker: checksum/external-secrets is "bf46deef1028457c32f558fc5c2b3741c295a8401f6286dfc0fe9c6479a29f9b", not the checksum of ExternalSecret billing/stripe; render again with kpt (kpt fn render, or the kpt fn eval that runs secret-rollout) to set checksum/external-secrets to "541c14649befc783ee4d8c3800fab1d68961fcc87e35d7100e60db426bfc0f5a"',
    );
    const after = readFileSync(path.join(scratch, 'examples/check-stale/deployment.yaml'), 'utf8');
    expect(after).toBe(before);
  },
  // kustomize validators: no standalone kustomize here (see above), and kubectl kustomize skips
  // exec functions. The fragment must parse; the validator's config, as kustomize passes it, must
  // fail a stale ResourceList and pass a rendered one, leaving the items as they were.
  '# kustomization.yaml, checking committed manifests': (block) => {
    expect(parse(block.text).validators).toEqual(['secret-rollout-check.yaml']);
  },
  '# secret-rollout-check.yaml': (block) => {
    const functionConfig = parse(block.text);
    const stream = readFileSync(path.join(scratch, 'examples/ci/manifests.yaml'), 'utf8');
    const items = (text: string) =>
      text
        .split(/^---\n/m)
        .filter((d) => /^kind:/m.test(d))
        .map((d) => parse(d));
    const list = (text: string) =>
      JSON.stringify({
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: items(text),
        functionConfig,
      });
    const stale = run(list(stream), { logToStderr: true });
    expect(stale.exitCode).toBe(1);
    expect(JSON.parse(stale.stdout).items).toEqual(items(stream));
    expect(stale.stderr).toMatch(
      /^error: Deployment shop\/shop-api: checksum\/external-secrets is not set/m,
    );
    const rendered = run(stream).stdout;
    expect(run(list(rendered)).exitCode).toBe(0);
  },

  // plan: the sample table after the commands is what the first one prints; the other formats
  // and the kpt package work.
  'secret-rollout plan < examples/ci/manifests.yaml                  # a table, by wave': (
    block,
  ) => {
    const [table, mermaid, json, kpt] = block.text.trim().split('\n') as string[];
    expect(sh(table as string).stdout).toBe(block.next?.text);
    expect(sh(mermaid as string).stdout).toMatch(/^flowchart/);
    expect(Object.keys(JSON.parse(sh(json as string).stdout))).toEqual([
      'ordering',
      'nodes',
      'checksums',
      'results',
    ]);
    requireTool('kpt');
    expect(sh(kpt as string).stdout).toMatch(/^WAVE +KIND +NAME +DETAIL\n-2 +ClusterSecretStore/);
  },
  'WAVE  KIND                NAME                 DETAIL': () => {},

  // Use in CI: each impact command as written; the markdown sample is how the report starts.
  'secret-rollout impact examples/ci/impact/base examples/ci/impact/head                 # markdown: a pull-request comment':
    (block) => {
      const [markdown, json, sarif] = block.text.trim().split('\n') as string[];
      const report = sh(markdown as string).stdout;
      expect(block.next?.text.startsWith('### secret-rollout impact\n')).toBe(true);
      expect(report.startsWith(block.next?.text as string)).toBe(true);
      expect(report).toContain('- added: `Deployment shop/shop-worker`');
      const parsed = JSON.parse(sh(json as string).stdout);
      expect(parsed.rollouts.map((r: { resource: { name: string } }) => r.resource.name)).toEqual([
        'shop-api',
        'shop-db-backup',
      ]);
      sh(sarif as string);
      const log = JSON.parse(readFileSync(path.join(scratch, 'impact.sarif'), 'utf8'));
      expect(log.version).toBe('2.1.0');
    },
  '### secret-rollout impact': () => {},
  // The line impact writes for an overlay it reads unrendered: examples/ci/impact's head as a base,
  // and an overlay of it at shop/overlays/prod with a patch.
  'warning: impact: HEAD shop/overlays/prod/kustomization.yaml: a kustomization that changes what it lists when rendered (patches, an overlay of another directory, prefixes, labels, generators): impact reads the files as they are, unrendered, so the report misses what the render changes; render each side first (kubectl kustomize DIR > FILE) and compare the two files':
    (block) => {
      const tree = path.join(scratch, 'overlay-tree');
      cpSync(path.join(scratch, 'examples/ci/impact/head'), path.join(tree, 'shop/base'), {
        recursive: true,
      });
      mkdirSync(path.join(tree, 'shop/overlays/prod'), { recursive: true });
      writeFileSync(
        path.join(tree, 'shop/overlays/prod/kustomization.yaml'),
        'resources: [../../base]\npatches:\n  - path: patch.yaml\n',
      );
      const out = impactCli(['shop', 'shop'], '0.0.0', tree);
      expect(out.exitCode).toBe(0);
      expect(out.stderr.split('\n')).toContain(block.text.trim());
    },
  // The monorepo sample: bench/monorepo.mjs's 500 applications, its report as the page shows it
  // (the `...` line stands for the rest), then cut as the next sample says.
  '**234 workloads will restart** in 100 applications because 100 secret sources changed.': (
    block,
  ) => {
    const tree = path.join(scratch, 'monorepo');
    writeMonorepo(tree, 500);
    const report = impactCli(['base', 'head'], '0.0.0', tree).stdout;
    const shown = block.text.replace(/\.\.\.\n$/, '');
    expect(report).toContain(`### secret-rollout impact\n\n${shown}`);
    mkdirSync(path.join(tree, 'impact-out'));
    const args = ['--max-chars', '20000', '--output-full', 'impact-out/impact-full.md'];
    const cut = impactCli(['base', 'head', ...args], '0.0.0', tree).stdout;
    expect(cut.endsWith(`\n\n${block.next?.text}`)).toBe(true);
    expect(readFileSync(path.join(tree, 'impact-out/impact-full.md'), 'utf8')).toBe(report);
  },
  "**Cut** at 20000 characters, a comment's cap: 50 of 100 applications shown, the rest left out; the full report is in `impact-out/impact-full.md`.":
    () => {},
  // The CI script on a real git repository: two commits of examples/ci/impact as app/, rendered
  // with kubectl kustomize; its report is the one the directories give.
  '# In a clone holding the manifests (here two commits of examples/ci/impact as app/):': (
    block,
  ) => {
    requireTool('kubectl');
    const repo = twoCommitRepo('ci-clone');
    mkdirSync(path.join(repo, 'ci'));
    cpSync(path.join(scratch, 'examples/ci/impact.sh'), path.join(repo, 'ci/impact.sh'));
    const out = bash(['-euo', 'pipefail', '-c', block.text], repo);
    // The gate ran on the rendered head and found nothing to change: quiet (info only with
    // --verbose), and no `check: a render would change` from the script.
    expect(out.stderr).not.toMatch(/^(error|warning|info):|check: a render would change/m);
    expect(out.status).toBe(0);
    const direct = sh('secret-rollout impact examples/ci/impact/base examples/ci/impact/head');
    expect(out.stdout).toBe(`impact: impact-out/impact.md\n${direct.stdout}`);
  },
  // Argo CD plugin's CI: in a repository of two commits of examples/ci/impact as app/, the
  // render passes and the report says what the second commit restarts.
  "# CI with the plugin: app/ is the Application's path, BASE the pull request's base commit": (
    block,
  ) => {
    requireTool('kubectl');
    const repo = twoCommitRepo(path.join('cmp-ci', 'repo'));
    const out = bash(['-euo', 'pipefail', '-c', block.text], repo, { BASE: 'HEAD~1' });
    expect(out.status, out.stderr).toBe(0);
    expect(readFileSync(path.join(repo, 'impact.md'), 'utf8')).toContain(
      '**2 workloads will restart** because 1 secret source changed',
    );
  },
  // The wave-conflict sample is what plan prints for examples/wave-conflict (the error abridged).
  'WAVE  KIND            NAME                           DETAIL': (block) => {
    requireTool('kpt');
    const out = bash(['-c', 'kpt fn source examples/wave-conflict | secret-rollout plan']);
    expect(out.status).toBe(1);
    const lines = block.text.trimEnd().split('\n');
    const error = lines.pop() as string;
    expect(out.stdout).toBe(`${lines.join('\n')}\n`);
    expect(out.stderr.startsWith(error.replace(/…$/, ''))).toBe(true);
  },
  // The JSON shape: every key the sample shows is in the real output, and the other way round.
  '{': (block) => {
    const real = JSON.parse(
      sh('secret-rollout plan --format json < examples/ci/manifests.yaml').stdout,
    );
    const shown = new Set([...block.text.matchAll(/"(\w+)":/g)].map((m) => m[1]));
    const keys = new Set<string>(['ordering', 'nodes', 'checksums', 'results']);
    for (const list of ['nodes', 'checksums']) {
      for (const entry of real[list]) for (const key of Object.keys(entry)) keys.add(key);
    }
    for (const key of ['apiVersion', 'kind', 'namespace', 'name']) keys.add(key);
    // Results also carry `file` when the input came from files through kpt.
    for (const key of [...Object.keys(real.results[0]), 'file']) keys.add(key);
    expect([...shown].sort()).toEqual([...keys].sort());
  },

  // Options: the typed config example is accepted and takes effect.
  'apiVersion: fn.kpt.dev/v1alpha1': (block) => {
    const list = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [],
      functionConfig: parse(block.text),
    });
    expect(run(list).exitCode).toBe(0);
    const wrong = JSON.stringify({
      ...JSON.parse(list),
      functionConfig: { ...parse(block.text), storeWave: 'soon' },
    });
    expect(run(wrong).exitCode).toBe(1);
  },

  // The checksum recipe: test/checksum-jq.test.ts runs docs/checksum.jq against the function on
  // every ESO example (yq, which only turns YAML into JSON here, is not installed).
  'yq -s . external-secret.yaml | jq -rj -f docs/checksum.jq | sha256sum': () => {},

  // Sample output of the ExternalSecret checksum example: test/checksum.test.ts pins its hash.
  '[{"content":{"data":[{"remoteRef":{"key":"db/prod","property":"password","version":"3"},"secretKey":"password"}],"secretStoreRef":{"name":"vault"}},"secret":"db"}]':
    () => {},
};

describe('doc snippets', () => {
  const blocks = docBlocks();
  const firstLine = (block: Block) => block.text.split('\n')[0] as string;

  it('are all listed here, and all listed ones are in the docs', () => {
    const inDocs = blocks.filter((b) => b.lang !== 'mermaid').map(firstLine);
    expect([...inDocs].sort()).toEqual(Object.keys(checks).sort());
  });

  for (const block of blocks) {
    const check = checks[firstLine(block)];
    if (!check) continue;
    it(`works as written (${block.page}): ${firstLine(block).slice(0, 60)}`, () => check(block));
  }
});

/** Every markdown page a reader follows links from: the user docs, the repository's root pages,
 * argocd/ and the examples' READMEs. */
const linkPages = [
  ...pages,
  ...readdirSync(repoRoot)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .sort(),
  'argocd/README.md',
  'helm/README.md',
  ...readdirSync(path.join(repoRoot, 'examples'))
    .sort()
    .map((name) => `examples/${name}/README.md`)
    .filter((page) => existsSync(path.join(repoRoot, page))),
];

describe('doc links', () => {
  it.each(linkPages)('%s: every relative link resolves, anchors included', (page) => {
    const text = readFileSync(path.join(repoRoot, page), 'utf8').replace(fence, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target as string)) continue;
      const [file, hash] = (target as string).split('#') as [string, string | undefined];
      const resolved =
        file === '' ? path.join(repoRoot, page) : path.resolve(repoRoot, path.dirname(page), file);
      if (!existsSync(resolved)) broken.push(target as string);
      else if (hash !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(hash)) {
        broken.push(target as string);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** The README's `<!--mdtogo:NAME-->…<!--mdtogo-->` blocks (kpt's format), by name, in order. */
function mdtogoBlocks(readme: string): [string, string][] {
  return [...readme.matchAll(/^<!--mdtogo:(\w+)-->\n([\s\S]*?)^<!--mdtogo-->$/gm)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]);
}

describe('README as the help text (kpt functions catalog format)', () => {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

  it('has exactly a one-line Short, a Long and an Examples block, outside fenced blocks', () => {
    const blocks = mdtogoBlocks(readme);
    expect(blocks.map(([name]) => name)).toEqual(['Short', 'Long', 'Examples']);
    for (const marker of readme.matchAll(/^<!--mdtogo/gm)) {
      const fencesBefore = readme.slice(0, marker.index).match(/^```/gm)?.length ?? 0;
      expect(fencesBefore % 2, 'an mdtogo marker inside a fenced block').toBe(0);
    }
    expect((readme.match(/<!--mdtogo/g) ?? []).length).toBe(6);
    const short = (blocks[0] as [string, string])[1];
    expect(short.trimEnd().split('\n')).toHaveLength(1);
    expect((blocks[1] as [string, string])[1]).toContain('| option | default | meaning |');
    expect((blocks[2] as [string, string])[1]).toMatch(/^```sh\n/);
  });

  it('stays short: at most 250 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  // docs/operators.md is research notes (upstream facts with their sources), not a user page.
  it('has no table row over 250 characters, docs/ pages included', () => {
    for (const page of pages.filter((p) => p !== 'docs/operators.md')) {
      const rows = readFileSync(path.join(repoRoot, page), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('|') && line.length > 250);
      expect(rows.map((row) => `${page}: ${row.slice(0, 60)}…`)).toEqual([]);
    }
  });
});

describe('metadata.yaml (kpt functions catalog format)', () => {
  const metadata = parse(readFileSync(path.join(repoRoot, 'metadata.yaml'), 'utf8')) as {
    image: string;
    description: string;
    tags: string[];
    sourceURL: string;
    examplePackageURLs: string[];
    license: string;
  };
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    license: string;
  };

  it('has the catalog keys', () => {
    expect(Object.keys(metadata).sort()).toEqual(
      ['description', 'examplePackageURLs', 'image', 'license', 'sourceURL', 'tags'].sort(),
    );
    expect(metadata.tags).toContain('mutator');
    expect(metadata.license).toBe(pkg.license);
  });

  it('names the image the README tags and the source the Dockerfile labels', () => {
    expect(readme).toContain(`image: ${metadata.image}:v`);
    expect(dockerfile).toContain(`ARG SOURCE=${metadata.sourceURL}\n`);
  });

  it('describes the function with the README Short text', () => {
    const short = (mdtogoBlocks(readme)[0] as [string, string])[1].trim();
    expect(metadata.description).toBe(short);
  });

  it('links example packages that exist (kpt packages, with a Kptfile)', () => {
    expect(metadata.examplePackageURLs.length).toBeGreaterThan(0);
    for (const url of metadata.examplePackageURLs) {
      const prefix = `${metadata.sourceURL}/tree/main/`;
      expect(url.startsWith(prefix), url).toBe(true);
      expect(existsSync(path.join(repoRoot, url.slice(prefix.length), 'Kptfile')), url).toBe(true);
    }
  });
});
