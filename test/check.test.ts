// Check mode (`secret-rollout check`, option `mode: check`): items never change; every edit a
// render would make is an error naming the resource, the field, the value and the fix.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, plan, run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
} from './helpers.js';
import { withoutResults } from './property/checks.js';

const store = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec: {}
`;
const items = (version = '1') => [
  deployment('app', envFrom('db'), { namespace: 'shop' }),
  externalSecret('db', { namespace: 'shop', version }),
  store,
];
const stream = (version = '1') => items(version).join('---\n');
/** The stream as a render leaves it. */
const rendered = runOk(stream()).stdout;
const checksumOf = (text: string) =>
  /checksum\/external-secrets: "([0-9a-f]{64})"/.exec(text)?.[1] as string;
const current = checksumOf(rendered);
/** Someone bumped the version after rendering. */
const stale = rendered.replace('version: "1"', 'version: "2"');
const fresh = checksumOf(runOk(stale).stdout);

const configMap = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: function-input\ndata:\n${data}`;

describe('check mode', () => {
  it('passes on what a render wrote: exit 0, nothing on stdout or stderr; the info of a render with --verbose', () => {
    const out = check(rendered);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe('');
    // As plan: the render's warnings, its info only when asked (main printed it on every check).
    const warnings = run(rendered)
      .stderr.split('\n')
      .filter((l) => l.startsWith('warning'));
    expect(run(rendered).stderr).toMatch(/^info: /m);
    expect(out.stderr).toBe(`${warnings.join('\n')}\n`);
    const verbose = check(rendered, { verbose: true }).stderr;
    for (const line of run(rendered).stderr.trimEnd().split('\n')) expect(verbose).toContain(line);
  });

  it('on stderr errors come first, then warnings, then info (with --verbose)', () => {
    // An unpinned ExternalSecret gives a warning; the stream's missing annotations, errors.
    const unpinned = stream().replace('      version: "1"\n', '');
    const lines = check(unpinned, { verbose: true }).stderr.trimEnd().split('\n');
    const severities = lines.map((l) => l.slice(0, l.indexOf(':')));
    expect(new Set(severities)).toEqual(
      new Set(['error', 'warning', 'info', 'secret-rollout check']),
    );
    const rank = ['error', 'warning', 'info', 'secret-rollout check'];
    const ranks = severities.map((s) => rank.indexOf(s));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // Without --verbose: the errors and the warning only.
    expect(
      check(unpinned)
        .stderr.trimEnd()
        .split('\n')
        .map((l) => l.slice(0, l.indexOf(':'))),
    ).toEqual(['error', 'error', 'error', 'warning']);
  });

  it('--verbose counts the changes a render would make', () => {
    const last = (text: string) =>
      check(text, { verbose: true }).stderr.trimEnd().split('\n').pop();
    expect(last(rendered)).toMatch(
      /^secret-rollout check: 3 items, 0 changes needed, 4 results in \d+ ms$/,
    );
    expect(last(stream())).toMatch(
      /^secret-rollout check: 3 items, 3 changes needed, 7 results in \d+ ms$/,
    );
  });

  it('mode=check verbose=true times the run with one clock: a duration of zero or more ms', () => {
    // The run's start was read from one clock and check mode's end from another: ms since 1970
    // subtracted from ms since the process started printed `in -1795641214714 ms`.
    for (const text of [rendered, stream()]) {
      const out = run(text, { settings: { mode: 'check', verbose: 'true' } });
      const ms = /^secret-rollout check: .* results in (-?\d+) ms$/m.exec(out.stderr)?.[1];
      expect(Number(ms)).toBeGreaterThanOrEqual(0);
    }
  });

  it('a stale checksum in a stream: exit 1, nothing on stdout, one line naming it', () => {
    expect(fresh).not.toBe(current);
    const out = check(stale);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    const errors = out.stderr.split('\n').filter((l) => l.startsWith('error'));
    expect(errors).toEqual([
      `error: Deployment shop/app: checksum/external-secrets is "${current}", not the checksum of ExternalSecret shop/db; render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml) to set checksum/external-secrets to "${fresh}" [Deployment shop/app spec.template.metadata.annotations[checksum/external-secrets]] (not-rendered)`,
    ]);
  });

  it('every missing annotation of an unrendered stream is an error', () => {
    const out = check(stream());
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr.split('\n').filter((l) => l.startsWith('error'))).toEqual([
      expect.stringMatching(
        /^error: Deployment shop\/app: checksum\/external-secrets is not set \(it covers ExternalSecret shop\/db\); render the manifests with secret-rollout \(secret-rollout < in\.yaml > out\.yaml\) to set checksum\/external-secrets to "[0-9a-f]{64}" \[Deployment shop\/app /,
      ),
      'error: ExternalSecret shop/db: argocd.argoproj.io/sync-wave is not set; render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml) to set argocd.argoproj.io/sync-wave to "-1" [ExternalSecret shop/db metadata.annotations[argocd.argoproj.io/sync-wave]] (not-rendered)',
      'error: ClusterSecretStore vault: argocd.argoproj.io/sync-wave is not set; render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml) to set argocd.argoproj.io/sync-wave to "-2" [ClusterSecretStore vault metadata.annotations[argocd.argoproj.io/sync-wave]] (not-rendered)',
    ]);
  });

  it('the fix fits who asked: kpt fn render for kpt, a transformer for kustomize, a pipe for a stream', () => {
    const list = resourceList(items());
    const fixes = (out: { stdout: string }) =>
      resultsOf(out.stdout)
        .filter((r) => r.severity === 'error')
        .map((r) => String(r.message).replace(/^.*; (.*) to set .*$/, '$1'));
    expect(new Set(fixes(check(list)))).toEqual(
      new Set([
        'render again with kpt (kpt fn render, or the kpt fn eval that runs secret-rollout)',
      ]),
    );
    // kustomize sets LOG_TO_STDERR and shows stderr: errors and warnings there, errors first.
    const kustomize = check(list, { logToStderr: true });
    expect(new Set(fixes(kustomize))).toEqual(
      new Set(['render with secret-rollout as a kustomize transformer']),
    );
    expect(kustomize.stderr.split('\n').map((l) => l.slice(0, l.indexOf(':')))).toEqual([
      'error',
      'error',
      'error',
      'warning',
      '',
    ]);
    expect(check(stream()).stderr).toContain(
      '; render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml) to set ',
    );
  });

  it('a ResourceList comes back byte-identical with the results, by every way to ask', () => {
    const list = resourceList(
      rendered
        .replace('version: "1"', 'version: "2"')
        .split('---\n')
        .filter((t) => t !== ''),
    );
    const ways = [
      () => check(list),
      () => run(list, { settings: { mode: 'check' } }),
      () => run(`${list}functionConfig:\n${configMap('  mode: check\n').replace(/^/gm, '  ')}`),
      () =>
        run(
          `${list}functionConfig:\n  apiVersion: fn.kpt.dev/v1alpha1\n  kind: SecretRollout\n  metadata: {name: x}\n  mode: check\n`,
        ),
    ];
    for (const way of ways) {
      const out = way();
      expect(out.exitCode).toBe(1);
      expect(out.stderr).toBe('');
      expect(out.stdout.startsWith(withoutResults(list, out.stdout))).toBe(true);
      expect(withoutResults(list, out.stdout).split('functionConfig:')[0]).toBe(list);
      const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
      expect(errors).toEqual([
        {
          message: `Deployment shop/app: checksum/external-secrets is "${current}", not the checksum of ExternalSecret shop/db; render again with kpt (kpt fn render, or the kpt fn eval that runs secret-rollout) to set checksum/external-secrets to "${fresh}"`,
          severity: 'error',
          resourceRef: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'app',
            namespace: 'shop',
          },
          field: {
            path: 'spec.template.metadata.annotations[checksum/external-secrets]',
            currentValue: current,
            proposedValue: fresh,
          },
          tags: { rule: 'not-rendered' },
        },
      ]);
      // The info results a render gives stay.
      expect(resultsOf(out.stdout).filter((r) => r.severity === 'info')).toHaveLength(3);
    }
  });

  it('mode: render (the default) and a bad mode', () => {
    expect(run(stale, { settings: { mode: 'render' } }).stdout).toContain(fresh);
    const bad = run(stale, { settings: { mode: 'dry-run' } });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe(
      'error: key=value arguments: mode must be render or check [mode] (invalid-config)\n',
    );
  });

  it('JSON: the items are not edited', () => {
    const json = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [
        {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ExternalSecret',
          metadata: { name: 'db' },
          spec: { secretStoreRef: { name: 'vault' } },
        },
      ],
    });
    const out = check(json);
    expect(out.exitCode).toBe(1);
    const back = JSON.parse(out.stdout);
    expect(back.items).toEqual(JSON.parse(json).items);
    // Errors come first (the next test): the check's one error, before the render's info.
    expect(back.results[0]).toMatchObject({
      severity: 'error',
      field: { path: 'metadata.annotations[argocd.argoproj.io/sync-wave]', proposedValue: '-1' },
    });
  });

  it('a ResourceList holds errors first, then warnings, then info: kpt shows only the first few', () => {
    // Four workloads of four ExternalSecrets, rendered, then every version bumped; one unpinned
    // ExternalSecret for a warning. Until errors came first, the render's four checksum infos stood
    // before the check's errors, and kpt printed "[FAIL]", four infos and "3 line(s) truncated".
    const apps = [0, 1, 2, 3].flatMap((i) => [
      deployment(`app${i}`, envFrom(`db${i}`), { namespace: 'shop' }),
      externalSecret(`db${i}`, { namespace: 'shop', version: '1' }),
    ]);
    const unpinned = externalSecret('loose', { namespace: 'shop' });
    const renderedApps = runOk([...apps, store].join('---\n')).stdout;
    const bumped = renderedApps.replaceAll('version: "1"', 'version: "2"').split(/^---\n/m);
    const out = check(resourceList([...bumped, unpinned]));
    expect(out.exitCode).toBe(1);
    const severities = resultsOf(out.stdout).map((r) => r.severity as string);
    // Four stale checksums and the unpinned one's missing wave.
    expect(severities.filter((s) => s === 'error')).toHaveLength(5);
    expect(severities).toContain('warning');
    expect(severities).toContain('info');
    const rank = (s: string) => ['error', 'warning', 'info'].indexOf(s);
    expect(severities.map(rank)).toEqual(severities.map(rank).sort());
  });

  it('render errors and warnings keep their severity; no change is proposed after an error', () => {
    // A wave written on the ExternalSecret above its consumer: the render's own error.
    const conflict = stream().replace(
      /^ {2}name: db\n/m,
      '  name: db\n  annotations:\n    argocd.argoproj.io/sync-wave: "5"\n',
    );
    const out = check(conflict);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(run(conflict).stderr);
    expect(out.stderr).not.toContain('run secret-rollout (kpt fn render)');
    // An unpinned remoteRef is a warning in render and in check.
    const unpinned = runOk(stream().replace(/\n +version: "1"/, '')).stdout;
    const warned = check(unpinned);
    expect(warned.exitCode).toBe(0);
    expect(warned.stderr).toContain(
      'warning: the checksum of ExternalSecret shop/db cannot follow a rotation',
    );
  });

  it('the argocd-cm health check and the Vault agent fix are proposed too', () => {
    const cm =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cm\n  namespace: argocd\ndata:\n  url: https://argo\n';
    const out = check(cm);
    expect(out.exitCode).toBe(1);
    expect(out.stderr.split('\n').filter((l) => l.startsWith('error'))).toEqual([
      'error: ConfigMap argocd/argocd-cm: resource.customizations.useOpenLibs.external-secrets.io_ExternalSecret is not set; render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml) to set resource.customizations.useOpenLibs.external-secrets.io_ExternalSecret to "true" [ConfigMap argocd/argocd-cm data[resource.customizations.useOpenLibs.external-secrets.io_ExternalSecret]] (not-rendered)',
      expect.stringMatching(
        /^error: ConfigMap argocd\/argocd-cm: resource\.customizations\.health\.external-secrets\.io_ExternalSecret is not set; render the manifests with secret-rollout \(secret-rollout < in\.yaml > out\.yaml\) to set resource\.customizations\.health\.external-secrets\.io_ExternalSecret to the value in field\.proposedValue \(\d+ lines\) \[/,
      ),
    ]);
    expect(check(runOk(cm).stdout).exitCode).toBe(0);

    const job = `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  template:
    metadata:
      annotations:
        vault.hashicorp.com/agent-inject: "true"
    spec:
      containers:
      - name: m
        image: m
`;
    expect(check(job).exitCode).toBe(0);
    const fix = check(job, { settings: { fixVaultAgentJobs: 'true' } });
    expect(fix.exitCode).toBe(1);
    expect(fix.stderr).toContain(
      'error: Job migrate: vault.hashicorp.com/agent-pre-populate-only is not set; render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml) to set vault.hashicorp.com/agent-pre-populate-only to "true" [Job migrate spec.template.metadata.annotations[vault.hashicorp.com/agent-pre-populate-only]]',
    );
  });

  it('reads a Kptfile with the mutator and its check validator as one configuration', () => {
    const kptfile = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
  annotations:
    config.kubernetes.io/local-config: "true"
    internal.config.kubernetes.io/path: 'Kptfile'
pipeline:
  mutators:
  - exec: secret-rollout
    configMap:
      storeWave: "-3"
  validators:
  - exec: secret-rollout
    configMap:
      storeWave: "-3"
      mode: check
`;
    const pkg = resourceList([kptfile, ...items()]);
    expect(plan(pkg).stdout.split('\n')[1]).toMatch(/^-3 +ClusterSecretStore +vault /);
    const out = check(pkg);
    expect(out.exitCode).toBe(1);
    expect(
      resultsOf(out.stdout).map((r) => (r.field as { proposedValue?: string })?.proposedValue),
    ).toContain('-3');
  });

  it('the CLI: `secret-rollout check` prints nothing on stdout and exits 1 on drift', () => {
    const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
    const spawn = (input: string) =>
      spawnSync(process.execPath, [cli, 'check'], { input, encoding: 'utf8' });
    const bad = spawn(stale);
    expect([bad.status, bad.stdout]).toEqual([1, '']);
    expect(bad.stderr).toContain(
      `error: Deployment shop/app: checksum/external-secrets is "${current}"`,
    );
    const good = spawn(rendered);
    expect([good.status, good.stdout]).toEqual([0, '']);
  });
});
