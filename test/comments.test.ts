// Comments stay with their keys (issue #12): an inserted line never lands between a comment and
// the key below it. New entries go above the comments that head a mapping's first key; lines after
// a `key:` with no value go right under it, so the comments after it keep their key too.
import { describe, expect, it } from 'vitest';
import { locateByCst } from '../src/krm/yaml/locate-cst.js';
import { locateByLines } from '../src/krm/yaml/locate-lines.js';
import { healthKey, healthScript, openLibsKey } from '../src/rules/argocd-health.js';
import { run } from '../src/run.js';
import { checksumKey, waveKey } from './helpers.js';

const es = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
  annotations:
    ${waveKey}: "-1"
spec:
  secretStoreRef: {name: vault}
  data:
  - secretKey: pw
    remoteRef: {key: db, version: "1"}
`;

/** A Deployment whose pod template metadata is `templateMeta` (lines at 4 spaces, or none). */
const deploy = (templateMeta: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
${templateMeta}    spec:
      containers:
      - name: web
        envFrom:
        - secretRef: {name: db}
`;

/** The stream's output with checksums written as `<sha>`. */
function stream(...docs: string[]): string {
  const text = docs.map((d) => `---\n${d}`).join('');
  const out = run(text);
  expect(out.exitCode, out.stderr).toBe(0);
  return out.stdout.replace(/"[0-9a-f]{64}"/g, '"<sha>"');
}

/** Only the Deployment of the output stream (its second document). */
const deployOut = (templateMeta: string) =>
  stream(es, deploy(templateMeta)).slice(`---\n${es}`.length);

const sha = `${checksumKey}: "<sha>"`;

describe('comments stay with their keys', () => {
  it('a head comment before the first annotation (the reported case)', () => {
    const meta = `    metadata:
      annotations:
        # owner of this service
        team: payments
`;
    expect(deployOut(meta)).toBe(
      `---\n${deploy(`    metadata:
      annotations:
        ${sha}
        # owner of this service
        team: payments
`)}`,
    );
  });

  it('a comment block with blank lines: above the whole block, blank lines before it kept', () => {
    const meta = `    metadata:
      annotations:

        # owner of this service

        # (see the runbook)
        team: payments
`;
    expect(deployOut(meta)).toBe(
      `---\n${deploy(`    metadata:
      annotations:

        ${sha}
        # owner of this service

        # (see the runbook)
        team: payments
`)}`,
    );
  });

  it('a comment above the key where a new annotations: parent goes', () => {
    const meta = `    metadata:
      # pod labels
      labels:
        app: web
`;
    expect(deployOut(meta)).toBe(
      `---\n${deploy(`    metadata:
      annotations:
        ${sha}
      # pod labels
      labels:
        app: web
`)}`,
    );
  });

  it('a comment above the key where a new metadata: parent goes', () => {
    const out = stream(es, deploy('    # the pod\n'));
    expect(out.slice(`---\n${es}`.length)).toBe(
      `---\n${deploy(`    metadata:
      annotations:
        ${sha}
    # the pod
`)}`,
    );
  });

  it('a trailing comment on the last entry, and comments after it (entry level, dedented)', () => {
    const meta = `    metadata:
      annotations:
        team: payments # owner
        # entry level: after the last annotation
      # dedented: heads labels
      labels:
        app: web
`;
    expect(deployOut(meta)).toBe(
      `---\n${deploy(`    metadata:
      annotations:
        ${sha}
        team: payments # owner
        # entry level: after the last annotation
      # dedented: heads labels
      labels:
        app: web
`)}`,
    );
  });

  it('an empty annotations: key followed by comments: the new line goes right under it', () => {
    const meta = `    metadata:
      annotations: # none yet
        # entry level
      # dedented: heads labels
      labels:
        app: web
`;
    expect(deployOut(meta)).toBe(
      `---\n${deploy(`    metadata:
      annotations: # none yet
        ${sha}
        # entry level
      # dedented: heads labels
      labels:
        app: web
`)}`,
    );
  });

  it('keeps CRLF line breaks', () => {
    const meta = '    metadata:\n      annotations:\n        # owner\n        team: payments\n';
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const text = `---\r\n${crlf(es)}---\r\n${crlf(deploy(meta))}`;
    const out = run(text);
    expect(out.exitCode, out.stderr).toBe(0);
    const want = deploy(
      `    metadata:\n      annotations:\n        ${sha}\n        # owner\n        team: payments\n`,
    );
    expect(out.stdout.replace(/"[0-9a-f]{64}"/g, '"<sha>"')).toBe(
      `---\r\n${crlf(es)}---\r\n${crlf(want)}`,
    );
  });

  it('in a ResourceList item (a `- ` entry) as in a stream', () => {
    const indent = (doc: string) =>
      doc
        .trimEnd()
        .split('\n')
        .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
        .join('\n');
    const meta = '    metadata:\n      # pod labels\n      labels:\n        app: web\n';
    const list = (d: string) =>
      `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${indent(es)}\n${indent(d)}\n`;
    const out = run(list(deploy(meta)));
    expect(out.exitCode, out.stderr).toBe(0);
    const items = out.stdout.slice(0, out.stdout.indexOf('results:'));
    expect(items.replace(/"[0-9a-f]{64}"/g, '"<sha>"')).toBe(
      list(
        deploy(
          `    metadata:\n      annotations:\n        ${sha}\n      # pod labels\n      labels:\n        app: web\n`,
        ),
      ),
    );
  });

  it('sync waves: above the comments heading name, or the first annotation', () => {
    const bare = es.replace(`  annotations:\n    ${waveKey}: "-1"\n`, '');
    const deployment = deploy('');
    const commented = bare.replace('  name: db\n', "  # the Secret's name too\n  name: db\n");
    expect(stream(commented, deployment)).toBe(
      `---\n${bare.replace(
        '  name: db\n',
        `  annotations:\n    ${waveKey}: "-1"\n  # the Secret's name too\n  name: db\n`,
      )}---\n${deployment.replace('    spec:\n', `    metadata:\n      annotations:\n        ${sha}\n    spec:\n`)}`,
    );
    const owned = bare.replace(
      '  name: db\n',
      '  name: db\n  annotations:\n    # who\n    owner: a\n',
    );
    expect(stream(owned, deployment).slice(0, owned.length + 50)).toContain(
      `  annotations:\n    ${waveKey}: "-1"\n    # who\n    owner: a\n`,
    );
  });

  it('argocd-cm: the health check goes above the comment heading the first data key', () => {
    const cm = (data: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cm\n  namespace: argocd\n${data}`;
    const script = healthScript
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => (l === '' ? '' : `    ${l}`))
      .join('\n');
    const installed = `  ${healthKey}: |\n${script}\n  ${openLibsKey}: "true"\n`;
    const input = cm('data:\n  # keep me\n\n  # and me\n  url: https://argo.example.com\n');
    const out = run(input);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      cm(`data:\n${installed}  # keep me\n\n  # and me\n  url: https://argo.example.com\n`),
    );
    // No data: the new `data:` goes in above the comment heading the document's first key.
    const bare = `---\n# Source: argo-cd/templates/argocd-cm.yaml\n${cm('')}`;
    const fresh = run(bare);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(fresh.stdout).toBe(
      `---\ndata:\n${installed}# Source: argo-cd/templates/argocd-cm.yaml\n${cm('')}`,
    );
  });
});

describe('both locators put new entries above head comments', () => {
  // Each text is one document; `path`'s mapping lacks `key`. `at` marks where lines go.
  const cases: [string, string, string[]][] = [
    ['first key', 'm:\n  annotations:\n@    # c\n    a: b\n', ['m', 'annotations']],
    ['block', 'm:\n  annotations:\n\n@    # c\n\n    # d\n    a: b\n', ['m', 'annotations']],
    ['dedented', 'm:\n  annotations:\n@# c\n    a: b\n', ['m', 'annotations']],
    ['new parent', 'm:\n@  # c\n  labels: {}\n', ['m', 'annotations']],
    ['document root', '---\n@# c\nkind: X\n', ['data']],
    ['no comment', 'm:\n  annotations:\n\n@    a: b # c\n    # d\n', ['m', 'annotations']],
    ['CRLF', 'm:\r\n  annotations:\r\n@    # c\r\n    a: b\r\n', ['m', 'annotations']],
  ];
  for (const [name, marked, path] of cases) {
    it(name, () => {
      const text = marked.replace('@', '');
      const at = marked.indexOf('@');
      expect(locateByLines(text, false, path, 'k')).toMatchObject({ kind: 'lines', at });
      expect(locateByCst(text, false, path, 'k')).toMatchObject({ kind: 'lines', at });
    });
  }

  it('the yaml-CST locator where the line locator gives up (tags, escaped keys)', () => {
    const tagged = 'm: !!map\n@  # c\n  labels: {}\n';
    const escaped = 'm:\n  "\\u0061nnotations":\n@    # c\n    a: b\n';
    for (const [marked, path] of [
      [tagged, ['m', 'annotations']],
      [escaped, ['m', 'annotations']],
    ] as const) {
      const text = marked.replace('@', '');
      expect(locateByLines(text, false, path, 'k')).toBeUndefined();
      expect(locateByCst(text, false, path, 'k')).toMatchObject({
        kind: 'lines',
        at: marked.indexOf('@'),
      });
    }
  });

  it('end to end through the CST fallback (a tagged template metadata)', () => {
    const meta = '    metadata: !!map\n      # pod labels\n      labels:\n        app: web\n';
    expect(deployOut(meta)).toBe(
      `---\n${deploy(`    metadata: !!map\n      annotations:\n        ${sha}\n      # pod labels\n      labels:\n        app: web\n`)}`,
    );
    const escaped =
      '    metadata:\n      "\\u0061nnotations":\n        # owner\n        team: payments\n';
    expect(deployOut(escaped)).toBe(
      `---\n${deploy(`    metadata:\n      "\\u0061nnotations":\n        ${sha}\n        # owner\n        team: payments\n`)}`,
    );
  });

  it('never climbs over a comment line a lone CR continues (it may hide a `---`)', () => {
    // YAML reads `\r` as a line break, so `# rendered\r---` is a comment and a document start.
    const text = '# rendered\r---\napiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\n';
    const out = run(text);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      `# rendered\r---\nmetadata:\n  annotations:\n    ${waveKey}: "-2"\n${text.slice(15)}`,
    );
    expect(run(out.stdout).stdout).toBe(out.stdout);
    expect(locateByLines('# c\r---\nkind: X\n', false, ['metadata'], 'k')).toMatchObject({
      at: '# c\r---\n'.length,
    });
    expect(locateByLines('# c\nkind: X\n', false, ['metadata'], 'k')).toMatchObject({ at: 0 });
  });
});
