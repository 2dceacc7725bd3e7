// The built CLI's own flags (dist/secret-rollout.cjs; `npm test` builds it first): --version and
// --help, which must answer on stdout with exit 0 wherever they appear and never read stdin.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/secret-rollout.cjs');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
// Input that would produce output if it were read: help and version must ignore it.
const stream = readFileSync(path.join(root, 'examples/ci/manifests.yaml'), 'utf8');

function cliRun(args: string[]) {
  const out = spawnSync(process.execPath, [cli, ...args], { input: stream, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('CLI flags', () => {
  it('--version prints the package version', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [['--version'], ['plan', '--version']]) {
      expect(cliRun(args)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it.each([
    '--help',
    '-h',
    '--verbose --help',
    'storeWave=-3 -h',
    'plan --help',
    'plan --mermaid -h',
    'argocd-health --help',
  ])('%s prints the usage on stdout and exits 0', (line) => {
    const args = line.split(' ');
    const out = cliRun(args);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Usage: secret-rollout /);
    expect(out.stdout).toContain('secret-rollout plan [--format table|mermaid|json]');
    expect(out.stdout).toContain('secret-rollout --version');
  });

  it('an unknown flag is still an error with the usage on stderr', () => {
    const out = cliRun(['--versoin']);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^secret-rollout: unknown argument "--versoin"\nUsage:/);
  });
});

describe('code cache (src/launch.cjs, build.mjs)', () => {
  // V8 says whether it took the cache: a preload wraps vm.Script and prints cachedDataRejected
  // (undefined when no cache was given, true when V8 refused it) once the run is over.
  const probe = path.join(mkdtempSync(path.join(tmpdir(), 'code-cache-')), 'probe.cjs');
  writeFileSync(
    probe,
    `const vm = require('node:vm');
const { Script } = vm;
vm.Script = class extends Script {
  constructor(...args) {
    super(...args);
    process.on('exit', () => process.stderr.write('cachedDataRejected=' + this.cachedDataRejected + '\\n'));
  }
};
`,
  );
  const withProbe = (input: string) =>
    spawnSync(process.execPath, ['--require', probe, cli], { input, encoding: 'utf8' });

  it('the cache the build wrote is accepted by the Node.js that built it', () => {
    const out = withProbe(stream);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('cachedDataRejected=false\n');
  });

  it('with the cache, the output is the one of the bundle compiled from source', () => {
    const bundle = path.join(root, 'dist/secret-rollout-bundle.cjs');
    const plain = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(bundle)})`], {
      input: stream,
      encoding: 'utf8',
    });
    const cached = withProbe(stream);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('checksum/external-secrets:');
    expect(cached.stdout).toBe(plain.stdout);
  });
});
