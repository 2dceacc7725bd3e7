// examples/argocd-cmp's plugin command line, run as the sidecar runs it: Argo CD hands the
// Application's plugin env over with an ARGOCD_ENV_ prefix, and KUSTOMIZE_BUILD_OPTIONS reaches
// `kustomize build` as words, never as shell code, and only the options the plugin allows; the
// destination namespace (ARGOCD_APP_NAMESPACE) reaches secret-rollout as one word.
// kustomize is a stand-in that records its arguments; the function is the built command (the
// image's /app/secret-rollout.cjs). bash runs the script: the image's sh (BusyBox ash) has
// pipefail, Debian's dash has not (--norc: bash reads ~/.bashrc when stdin is a socket).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './helpers.js';

const plugin = parse(
  readFileSync(path.join(repoRoot, 'examples/argocd-cmp/plugin.yaml'), 'utf8'),
) as {
  spec: { generate: { command: string[]; args: string[] } };
};
const manifests = readFileSync(path.join(repoRoot, 'examples/ci/manifests.yaml'), 'utf8');

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'argocd-cmp-'));
  const kustomize = path.join(work, 'kustomize');
  // Each argument on its own line, then the app's manifests, as `kustomize build` prints them.
  writeFileSync(
    kustomize,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${work}/args"\n[ -z "$KUSTOMIZE_FAILS" ] || exit 1\ncat "${work}/manifests.yaml"\n`,
  );
  chmodSync(kustomize, 0o755);
  writeFileSync(path.join(work, 'manifests.yaml'), manifests);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The generate command in the Application's source directory, with the plugin env given. */
function generate(options?: string, extra: NodeJS.ProcessEnv = {}) {
  const { command, args } = plugin.spec.generate;
  expect(command).toEqual(['sh', '-c']);
  const script = (args[0] as string).replace(
    'node /app/secret-rollout.cjs',
    `node ${path.join(repoRoot, 'dist/secret-rollout.cjs')}`,
  );
  rmSync(path.join(work, 'args'), { force: true });
  const out = spawnSync('bash', ['--norc', '-c', script], {
    cwd: work,
    encoding: 'utf8',
    env: {
      PATH: `${work}${path.delimiter}${process.env.PATH ?? ''}`,
      ...(options === undefined ? {} : { ARGOCD_ENV_KUSTOMIZE_BUILD_OPTIONS: options }),
      ...extra,
    },
  });
  const recorded = existsSync(path.join(work, 'args'))
    ? readFileSync(path.join(work, 'args'), 'utf8').split('\n').slice(0, -1)
    : undefined;
  return { status: out.status, stdout: out.stdout, stderr: out.stderr, kustomize: recorded };
}

describe('examples/argocd-cmp plugin.yaml', () => {
  it('without KUSTOMIZE_BUILD_OPTIONS runs kustomize build . into secret-rollout', () => {
    for (const options of [undefined, '', '   ']) {
      const out = generate(options);
      expect(out.status, out.stderr).toBe(0);
      expect(out.kustomize).toEqual(['build', '.']);
      expect(out.stdout).toContain('checksum/external-secrets:');
    }
  });

  it('passes the allowed options as words, split on blanks only', () => {
    const out = generate(
      '--enable-helm \t --helm-kube-version=1.30\n--helm-api-versions=a/v1,b/v2',
    );
    expect(out.status, out.stderr).toBe(0);
    expect(out.kustomize).toEqual([
      'build',
      '--enable-helm',
      '--helm-kube-version=1.30',
      '--helm-api-versions=a/v1,b/v2',
      '.',
    ]);
  });

  it('an allowed option whose value looks like shell code reaches kustomize as it is', () => {
    const out = generate('--helm-kube-version=$(touch$IFS""pwned)`touch$IFS""pwned`');
    expect(out.kustomize).toEqual([
      'build',
      '--helm-kube-version=$(touch$IFS""pwned)`touch$IFS""pwned`',
      '.',
    ]);
    expect(existsSync(path.join(work, 'pwned'))).toBe(false);
  });

  it.each([
    '$(touch pwned)',
    '--enable-helm;touch pwned',
    '--enable-helm `touch pwned`',
    '--helm-kube-version=$(touch pwned)',
    '*',
    '--helm-command=/bin/sh',
    '--enable-exec',
    '--enable-alpha-plugins',
    '--load-restrictor=LoadRestrictionsNone',
    '--output=/tmp/x',
    '--enable-helm --helm-kube-version 1.30',
  ])('refuses %s before kustomize runs: no shell code, no other option', (options) => {
    const out = generate(options);
    expect(out.status).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.kustomize).toBeUndefined();
    expect(out.stderr).toMatch(/^secret-rollout plugin: kustomize build option not allowed here: /);
    expect(existsSync(path.join(work, 'pwned'))).toBe(false);
  });

  describe('the destination namespace (ARGOCD_APP_NAMESPACE) is the defaultNamespace option', () => {
    // The app's manifests without their namespace, as Applications with destination.namespace have them.
    const unset = manifests.replace(/^ {2}namespace: shop\n/gm, '');
    beforeAll(() => writeFileSync(path.join(work, 'manifests.yaml'), unset));
    afterAll(() => writeFileSync(path.join(work, 'manifests.yaml'), manifests));

    it('matches namespace-less items in it, and writes no namespace', () => {
      expect(unset).not.toContain('namespace:');
      const out = generate(undefined, { ARGOCD_APP_NAMESPACE: 'shop' });
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toContain('checksum/external-secrets:');
      expect(out.stdout).not.toContain('namespace:');
      expect(out.stderr).toContain('Deployment shop/shop-api');
    });

    it('without one (or empty) the items stay namespace-less', () => {
      for (const extra of [{}, { ARGOCD_APP_NAMESPACE: '' }]) {
        const out = generate(undefined, extra);
        expect(out.status, out.stderr).toBe(0);
        expect(out.stderr).toContain('Deployment shop-api');
      }
    });

    it.each(['$(touch pwned)', 'shop;touch pwned', 'shop `touch pwned`', 'Shop', '*'])(
      'refuses %s as one word, as a namespace name the option does not take',
      (namespace) => {
        const out = generate(undefined, { ARGOCD_APP_NAMESPACE: namespace });
        expect(out.status).toBe(1);
        expect(out.stdout).toBe('');
        expect(out.stderr).toContain('defaultNamespace must be a namespace name');
        expect(out.stderr).not.toContain(namespace);
        expect(existsSync(path.join(work, 'pwned'))).toBe(false);
      },
    );
  });

  it('a failing kustomize fails the generate command (pipefail)', () => {
    const out = generate('--enable-helm', { KUSTOMIZE_FAILS: '1' });
    expect(out.status).not.toBe(0);
  });
});
