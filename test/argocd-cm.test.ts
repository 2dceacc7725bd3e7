// Delivering the health check into argocd-cm: byte-preserving, idempotent, never overwriting a
// different script; and the `argocd-health` patch.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { healthCheckPatch } from '../src/rules/argocd-health.js';
import { run } from '../src/run.js';
import { findOnPath, insertedLines, repoRoot, runOk } from './helpers.js';

const script = readFileSync(
  path.join(
    repoRoot,
    'argocd/resource_customizations/external-secrets.io/ExternalSecret/health.lua',
  ),
  'utf8',
);
const healthKey = 'resource.customizations.health.external-secrets.io_ExternalSecret';
const openLibsKey = 'resource.customizations.useOpenLibs.external-secrets.io_ExternalSecret';

const argocdCm = (data: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: argocd-cm
  namespace: argocd
data:
${data}`;

const dataOf = (out: string) => (load(out) as { data: Record<string, string> }).data;

describe('argocd-cm', () => {
  it('installs the script and the open-libs key as inserted lines only', () => {
    const input = argocdCm('  # keep me\n  url: https://argo.example.com\n');
    const { stdout } = runOk(input);
    expect(dataOf(stdout)[healthKey]).toBe(script);
    expect(dataOf(stdout)[openLibsKey]).toBe('true');
    expect(dataOf(stdout).url).toBe('https://argo.example.com');
    const inserted = insertedLines(input, stdout);
    expect(inserted[0]).toBe(`  ${healthKey}: |`);
    expect(inserted.at(-1)).toBe(`  ${openLibsKey}: "true"`);
    expect(runOk(stdout).stdout).toBe(stdout);
  });

  it('writes into a flow-style data mapping too', () => {
    const { stdout } = runOk(
      argocdCm('  {url: "https://argo"}\n').replace('data:\n  {', 'data: {'),
    );
    expect(dataOf(stdout)[healthKey]).toBe(script);
    expect(dataOf(stdout).url).toBe('https://argo');
  });

  it('never overwrites a different script: a warning says so', () => {
    const input = argocdCm(`  ${healthKey}: |\n    return {status = "Healthy"}\n`);
    const out = run(input);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(input);
    expect(out.stderr).toMatch(/^warning: ConfigMap argocd\/argocd-cm already has a different/m);
  });

  it('leaves the legacy resource.customizations form alone', () => {
    const input = argocdCm(
      '  resource.customizations: |\n    external-secrets.io/ExternalSecret:\n      health.lua: |\n        return {}\n',
    );
    const out = run(input);
    expect(out.stdout).toBe(input);
    expect(out.stderr).toMatch(/customizes ExternalSecret in resource\.customizations/);
  });

  it('turns on open libs when our script is there without them', () => {
    const installed = runOk(argocdCm('  url: x\n')).stdout;
    // The script's own comment mentions the key too: replace the data entry only.
    const off = installed.replace(`\n  ${openLibsKey}: "true"`, `\n  ${openLibsKey}: "false"`);
    expect(off).not.toBe(installed);
    expect(runOk(off).stdout).toBe(installed);
  });

  it('can be turned off', () => {
    const input = argocdCm('  url: x\n');
    expect(run(input, { settings: { argocdHealthCheck: 'false' } }).stdout).toBe(input);
  });

  it('prints a patch that carries the same script', () => {
    const patch = load(healthCheckPatch()) as {
      metadata: { name: string; namespace: string };
      data: Record<string, string>;
    };
    expect(patch.metadata).toEqual({ name: 'argocd-cm', namespace: 'argocd' });
    expect(patch.data[healthKey]).toBe(script);
    expect(patch.data[openLibsKey]).toBe('true');
    // An argocd-cm with the patch applied needs nothing more.
    const patched = argocdCm(healthCheckPatch().split('\ndata:\n')[1] as string);
    const applied = runOk(patched);
    expect(applied.stderr).toMatch(/health check is installed/);
    expect(applied.stdout).toBe(patched);
  });

  it('works as a kustomize patch on the argocd-cm of a standard install (real kubectl kustomize)', () => {
    expect(findOnPath('kubectl'), 'kubectl must be on PATH').toBeDefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'argocd-patch-'));
    try {
      // What Argo CD's install.yaml ships: argocd-cm in namespace argocd, no data.
      writeFileSync(
        path.join(dir, 'argocd-cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cm\n  namespace: argocd\n',
      );
      writeFileSync(path.join(dir, 'patch.yaml'), healthCheckPatch());
      writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        'resources:\n- argocd-cm.yaml\npatches:\n- path: patch.yaml\n',
      );
      const built = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
      expect(built.stderr).toBe('');
      const cm = load(built.stdout) as { metadata: object; data: Record<string, string> };
      expect(cm.metadata).toEqual({ name: 'argocd-cm', namespace: 'argocd' });
      expect(cm.data[healthKey]).toBe(script);
      expect(cm.data[openLibsKey]).toBe('true');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
