// `impact` on directories reads each file as it is: a kustomization whose render changes what it
// lists (an overlay's patch, a namespace) is not applied, and impact says so on stderr, naming
// the kustomization by path, once per side. The report and the exit code stay what the files
// read as they are give (docs/commands.md).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { impactCli } from '../src/impact-cli.js';

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'impact-kustomize-'));
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

const externalSecret = (version: string, namespace = '') => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  data:
    - secretKey: password
      remoteRef: {key: shop/db, version: "${version}"}
`;
const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  template:
    spec:
      containers: [{name: app, image: app, envFrom: [{secretRef: {name: db}}]}]
`;

/** A side: a directory of the tree with these files (path → text). */
function side(name: string, files: Record<string, string>): string {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, name, file)), { recursive: true });
    writeFileSync(path.join(tree, name, file), text);
  }
  return name;
}

/** The /tmp/newuser/ov tree: a base, and an overlay whose patch bumps the version. */
const overlay = (version: string, kustomization = 'kustomization.yaml') => ({
  'base/kustomization.yaml': 'resources: [es.yaml, deploy.yaml]\n',
  'base/es.yaml': externalSecret('1'),
  'base/deploy.yaml': deployment,
  [`prod/${kustomization}`]: 'namespace: prod\nresources: [../base]\npatches:\n  - path: es.yaml\n',
  'prod/es.yaml': externalSecret(version),
});

const warning = (label: string, file: string) =>
  `warning: impact: ${label} ${file}: a kustomization that changes what it lists when rendered (patches, an overlay of another directory, prefixes, labels, generators): impact reads the files as they are, unrendered, so the report misses what the render changes; render each side first (kubectl kustomize DIR > FILE) and compare the two files`;

describe('impact on directories with kustomizations', () => {
  it('names each kustomization it reads unrendered, per side, and keeps the exit code', () => {
    const base = side('ov-base', overlay('5'));
    const head = side('ov-head', overlay('6'));
    const out = impactCli([base, head], '9.9.9', tree);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('Nothing rolls');
    expect(out.stderr.trimEnd().split('\n')).toEqual([
      warning('BASE', 'ov-base/prod/kustomization.yaml'),
      warning('HEAD', 'ov-head/prod/kustomization.yaml'),
    ]);
    // The same in every format: the line is about the input, not the report.
    const json = impactCli([base, head, '--format', 'json'], '9.9.9', tree);
    expect(json.stderr).toBe(out.stderr);
  });

  it("finds kustomize's other names, kustomization.yml and Kustomization", () => {
    for (const name of ['kustomization.yml', 'Kustomization']) {
      const head = side(`named-${name}`, overlay('6', name));
      const out = impactCli(['ov-base', head], '9.9.9', tree);
      expect(out.exitCode).toBe(0);
      expect(out.stderr).toContain(warning('HEAD', `${head}/prod/${name}`));
    }
  });

  it('says nothing of one that only lists YAML files below it (a namespace besides), or is empty', () => {
    const files = {
      'app/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: {name: app}\nnamespace: shop\nresources:\n  - es.yaml\n  - sub/deploy.yml\n',
      'app/es.yaml': externalSecret('1', 'shop'),
      'app/sub/deploy.yml': deployment.replace('{name: api}', '{name: api, namespace: shop}'),
      'other/kustomization.yaml': '',
      'other/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n',
    };
    const base = side('plain-base', files);
    const head = side('plain-head', { ...files, 'app/es.yaml': externalSecret('2', 'shop') });
    const out = impactCli([base, head], '9.9.9', tree);
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('**1 workload will restart**');
  });

  it('counts every field but the listing ones, and every resource that is no YAML file below it', () => {
    const renders = [
      'namePrefix: prod-\nresources: [a.yaml]\n',
      'resources: [a.yaml]\ncommonAnnotations: {team: a}\n',
      'resources: [a.yaml, sub]\n',
      'resources: [../a.yaml]\n',
      'resources: [/abs/a.yaml]\n',
      'resources: [https://example.com/a.yaml]\n',
      'resources: a.yaml\n',
      '[a.yaml]\n',
      'resources: [a.yaml\n',
    ];
    renders.forEach((kustomization, i) => {
      const head = side(`renders-${i}`, {
        'kustomization.yaml': kustomization,
        'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
      });
      const out = impactCli([head, head], '9.9.9', tree);
      expect(out.stderr, kustomization).toContain(warning('BASE', `${head}/kustomization.yaml`));
      expect(out.exitCode, kustomization).toBe(0);
    });
  });

  it('names, without reading or refusing it, one whose link leads out of the side or nowhere', () => {
    writeFileSync(path.join(tree, 'outside-kustomization.yaml'), 'resources: [a.yaml]\n');
    const head = side('linked', {
      'a/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
    });
    symlinkSync('../../outside-kustomization.yaml', path.join(tree, head, 'a/kustomization.yaml'));
    mkdirSync(path.join(tree, head, 'b'));
    symlinkSync('missing.yaml', path.join(tree, head, 'b/Kustomization'));
    const out = impactCli([head, head], '9.9.9', tree);
    expect(out.exitCode).toBe(0);
    expect(out.stderr.trimEnd().split('\n')).toEqual([
      warning('BASE', `${head}/a/kustomization.yaml`),
      warning('BASE', `${head}/b/Kustomization`),
      warning('HEAD', `${head}/a/kustomization.yaml`),
      warning('HEAD', `${head}/b/Kustomization`),
    ]);
  });

  it('quotes nothing of a kustomization, and warns of one it cannot read rather than refusing the side', () => {
    // The yaml library's parse() handed an unresolved tag's warning, with its line, to
    // process.emitWarning; a file not UTF-8 refused the whole side (s16-review).
    const head = side('unread', {
      'a/kustomization.yaml': 'resources: [a.yaml]\nnamespace: !custom secretword\n',
      'a/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
      'b/kustomization.yaml': '',
      'b/b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n',
    });
    writeFileSync(
      path.join(tree, head, 'b/kustomization.yaml'),
      Buffer.from('# caf\xe9\n', 'latin1'),
    );
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    let out: ReturnType<typeof impactCli>;
    try {
      out = impactCli([head, head], '9.9.9', tree);
      expect(emitted).not.toHaveBeenCalled();
    } finally {
      emitted.mockRestore();
    }
    expect(out.exitCode).toBe(0);
    expect(out.stderr).not.toContain('secretword');
    expect(out.stderr.trimEnd().split('\n')).toEqual([
      warning('BASE', `${head}/b/kustomization.yaml`),
      warning('HEAD', `${head}/b/kustomization.yaml`),
    ]);
  });

  it('reads no kustomization that --exclude leaves out, and none of a file given', () => {
    const head = side('excluded', overlay('6'));
    const out = impactCli(['ov-base', head, '--exclude', 'kustomization.yaml'], '9.9.9', tree);
    // --exclude applies to both sides.
    expect(out.stderr).toBe('');
    const file = side('rendered', { 'all.yaml': externalSecret('1', 'prod') });
    expect(impactCli([`${file}/all.yaml`, `${file}/all.yaml`], '9.9.9', tree).stderr).toBe('');
  });
});
