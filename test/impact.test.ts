// `secret-rollout impact BASE HEAD`: what a change restarts, from files or directories, as JSON
// (checked against schema/impact.schema.json), markdown and SARIF 2.1.0; and what the report
// copies from manifests a pull request wrote: names as text, never a template's literals.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type * as Sarif from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impactCli } from '../src/impact-cli.js';
import { impact as impactOf } from '../src/impact-run.js';
import { diff } from '../src/report/impact.js';
import { impactMarkdown } from '../src/report/impact-markdown.js';
import { externalSecret, repoRoot } from './helpers.js';

const externalSecrets = (version: string, refresh = '1h') => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
  namespace: shop
spec:
  refreshInterval: ${refresh}
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
  name: api-token
  namespace: shop
spec:
  secretStoreRef:
    name: vault
  data:
    - secretKey: token
      remoteRef:
        key: shop/api
        version: "7"
`;

const deployment = (name: string, secret: string, kind = 'Deployment') => `apiVersion: apps/v1
kind: ${kind}
metadata:
  name: ${name}
  namespace: shop
spec:
  template:
    spec:
      containers:
        - name: app
          image: app:1
          envFrom:
            - secretRef:
                name: ${secret}
`;

const workloads = [
  deployment('api', 'db'),
  deployment('worker', 'db', 'StatefulSet'),
  deployment('web', 'api-token'),
].join('---\n');

/** What a pull request can put in names: each form markdown must not render, and a line break. */
const hostile =
  '<img src=x onerror=alert(1)> @octocat #123 [x](https://evil.example) `tick` a|b **bold** $x$ &lt;\nline2';
const canary = 'CANARY-template-9e2f';

/**
 * The two ExternalSecrets and a Deployment reading both, with hostile names; HEAD bumps db's
 * version, changes its template's literals (the canary) and wave, and unpins the other.
 */
function hostileSide(name: string, head: boolean) {
  const quoted = JSON.stringify(hostile);
  const unpinned = JSON.stringify(`${hostile}-unpinned`);
  const literal = `${canary}-${head ? 'new' : 'old'}`;
  const secrets = externalSecrets(head ? '2' : '1')
    .replace(
      '  name: db\n',
      `  name: ${quoted}\n  annotations:\n    argocd.argoproj.io/sync-wave: "${head ? -7 : -4}"\n`,
    )
    .replace(
      '    name: vault\n  data:\n    - secretKey: password\n',
      `    name: vault\n  target:\n    name: db\n    template:\n      data:\n        config.yaml: "password: ${literal}"\n        ${quoted}: "${literal} again"\n  data:\n    - secretKey: ${quoted}\n`,
    )
    .replace('  name: api-token\n', `  name: ${unpinned}\n`)
    .replace('        version: "7"\n', head ? '' : '        version: "7"\n');
  const reader = deployment(quoted, 'db').replace(
    '                name: db\n',
    `                name: db\n            - secretRef:\n                name: ${unpinned}\n`,
  );
  return side(name, { 'all.yaml': `${secrets}---\n${reader}` });
}

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'impact-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes files under scratch/name (a directory of files, or one file when given a string). */
function side(name: string, files: Record<string, string> | string): string {
  const at = path.join(scratch, name);
  if (typeof files === 'string') {
    writeFileSync(at, files);
    return name;
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(at, file)), { recursive: true });
    writeFileSync(path.join(at, file), text);
  }
  return name;
}

function impact(base: string, head: string, ...args: string[]) {
  return impactCli([base, head, ...args], '9.9.9', scratch);
}

function json(base: string, head: string, ...args: string[]) {
  const out = impact(base, head, '--format', 'json', ...args);
  expect(out.stderr).toBe('');
  expect(out.exitCode).toBe(0);
  return JSON.parse(out.stdout);
}

const ref = (kind: string, name: string, apiVersion = 'apps/v1') => ({
  apiVersion,
  kind,
  namespace: 'shop',
  name,
});
const db = ref('ExternalSecret', 'db', 'external-secrets.io/v1');
/** A directory's files directly in it are its application `.`: each entry of the JSON names it. */
const root = { application: '.' };

describe('impact', () => {
  it('a version bump of one ExternalSecret rolls exactly its consumers, with it as the reason', () => {
    const base = side('bump-base', { 'es.yaml': externalSecrets('1'), 'apps.yaml': workloads });
    const head = side('bump-head', { 'es.yaml': externalSecrets('2'), 'apps.yaml': workloads });
    const reason = { source: db, detail: 'data[password].remoteRef.version: "1" → "2"' };
    expect(json(base, head)).toEqual({
      rollouts: [
        { ...root, resource: ref('Deployment', 'api'), reasons: [reason] },
        { ...root, resource: ref('StatefulSet', 'worker'), reasons: [reason] },
      ],
      silentRotations: [],
      unchangedSilentRotations: 0,
      waves: [],
      order: [],
      added: [],
      removed: [],
    });
  });

  it('names only the source that changed when a workload reads several', () => {
    const both = deployment('both', 'db').replace(
      '                name: db\n',
      '                name: db\n            - secretRef:\n                name: api-token\n',
    );
    const out = json(
      side('two-base.yaml', `${externalSecrets('1')}---\n${both}`),
      side('two-head.yaml', `${externalSecrets('1').replace('"7"', '"8"')}---\n${both}`),
      '--fn-config',
      side(
        'two-config.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  syncWaves: "false"\n',
      ),
    );
    expect(out.rollouts).toEqual([
      {
        resource: ref('Deployment', 'both'),
        reasons: [
          {
            source: ref('ExternalSecret', 'api-token', 'external-secrets.io/v1'),
            detail: 'data[token].remoteRef.version: "7" → "8"',
          },
        ],
      },
    ]);
  });

  it('a refreshInterval-only change rolls nothing', () => {
    const base = side('refresh-base', { 'es.yaml': externalSecrets('1'), 'apps.yaml': workloads });
    const head = side('refresh-head', {
      'es.yaml': externalSecrets('1', '5m'),
      'apps.yaml': workloads,
    });
    expect(json(base, head).rollouts).toEqual([]);
    expect(impact(base, head).stdout).toBe(
      "### secret-rollout impact\n\nNothing rolls: no workload's secret checksum changes.\n",
    );
  });

  it('a new workload is added, not a rollout; a deleted one removed', () => {
    const base = side('added-base', {
      'es.yaml': externalSecrets('1'),
      'apps.yaml': [workloads, deployment('old', 'db')].join('---\n'),
    });
    const head = side('added-head', {
      'es.yaml': externalSecrets('1'),
      'apps.yaml': [workloads, deployment('new', 'db')].join('---\n'),
    });
    const out = json(base, head);
    expect(out.rollouts).toEqual([]);
    expect(out.added).toEqual([{ ...ref('Deployment', 'new'), ...root }]);
    expect(out.removed).toEqual([{ ...ref('Deployment', 'old'), ...root }]);
    // The summary says what was added and removed: workloads (it read `1 added, 1 removed`).
    expect(impact(base, head).stdout).toMatch(
      /^### secret-rollout impact\n\nNothing rolls: no workload's secret checksum changes; 1 workload added, 1 workload removed\.\n/,
    );
  });

  it('files and directories give the same JSON, but for the applications a directory names', () => {
    const baseText = `${externalSecrets('1')}---\n${workloads}`;
    const headText = `${workloads}---\n${externalSecrets('3')}`;
    const fromFiles = json(side('same-base.yaml', baseText), side('same-head.yaml', headText));
    const fromDirs = json(
      side('same-base', {
        'a/es.yml': externalSecrets('1'),
        'b.yaml': workloads,
        'kustomization.yaml': 'resources: [a/es.yml, b.yaml]\n',
      }),
      side('same-head', {
        'apps.yaml': workloads,
        'z/es.yaml': externalSecrets('3'),
        '.hidden/broken.yaml': 'x: [',
        'notes.txt': 'x: [',
      }),
    );
    expect(fromDirs).toEqual({
      ...fromFiles,
      rollouts: fromFiles.rollouts.map((r: object) => ({ ...root, ...r })),
    });
    expect(fromFiles.rollouts.map((r: { resource: { name: string } }) => r.resource.name)).toEqual([
      'api',
      'worker',
    ]);
  });

  it('a ResourceList file reads as its items', () => {
    const list = (text: string) =>
      `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${text
        .split(/^---\n/m)
        .map((doc) => `- ${doc.trimEnd().replaceAll('\n', '\n  ')}\n`)
        .join('')}`;
    const out = json(
      side('list-base.yaml', list(`${externalSecrets('1')}---\n${workloads}`)),
      side('list-head.yaml', list(`${externalSecrets('2')}---\n${workloads}`)),
    );
    expect(out.rollouts.map((r: { resource: { name: string } }) => r.resource.name)).toEqual([
      'api',
      'worker',
    ]);
  });

  it('the JSON validates against schema/impact.schema.json, which rejects a rollout without a reason', () => {
    const schema = JSON.parse(
      readFileSync(path.join(repoRoot, 'schema/impact.schema.json'), 'utf8'),
    );
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    const base = side('schema-base', { 'es.yaml': externalSecrets('1'), 'apps.yaml': workloads });
    const head = side('schema-head', {
      'es.yaml': externalSecrets('2').replace('version: "7"', 'version: latest'),
      'apps.yaml': [workloads, deployment('new', 'db')].join('---\n'),
    });
    const out = json(base, head);
    expect(out.silentRotations).toEqual([
      {
        ...root,
        source: ref('ExternalSecret', 'api-token', 'external-secrets.io/v1'),
        why: ['data[0].remoteRef has no fixed version'],
        consumers: [ref('Deployment', 'web')],
      },
    ]);
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    // A file has no application: its entries name none.
    const fromFiles = json(
      side('schema-base.yaml', `${externalSecrets('1')}---\n${workloads}`),
      side('schema-head.yaml', `${externalSecrets('2')}---\n${workloads}`),
    );
    expect(fromFiles.rollouts[0]).not.toHaveProperty('application');
    expect(validate(fromFiles), JSON.stringify(validate.errors)).toBe(true);
    const bad = { ...out, rollouts: [{ resource: ref('Deployment', 'api'), reasons: [] }] };
    expect(validate(bad)).toBe(false);
  });

  it('reports a wave that changes between the sides', () => {
    const waved = (wave: string) =>
      externalSecrets('1').replace(
        '  name: db\n',
        `  name: db\n  annotations:\n    argocd.argoproj.io/sync-wave: "${wave}"\n`,
      );
    const out = json(
      side('wave-base', { 'es.yaml': waved('-4'), 'apps.yaml': workloads }),
      side('wave-head', { 'es.yaml': waved('-7'), 'apps.yaml': workloads }),
    );
    expect(out.rollouts).toEqual([]);
    expect(out.waves).toEqual([{ ...root, resource: db, old: '-4', new: '-7' }]);
  });

  it('the markdown names every rollout, the reason, and a Mermaid picture', () => {
    const base = side('md-base', { 'es.yaml': externalSecrets('1'), 'apps.yaml': workloads });
    const head = side('md-head', { 'es.yaml': externalSecrets('2'), 'apps.yaml': workloads });
    const out = impact(base, head);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(
      [
        '### secret-rollout impact',
        '',
        '**2 workloads will restart** because 1 secret source changed.',
        '',
        '| Workload | Because |',
        '| --- | --- |',
        '| `Deployment shop/api` | `ExternalSecret shop/db`: data\\[password\\].remoteRef.version: "1" → "2" |',
        '| `StatefulSet shop/worker` | `ExternalSecret shop/db`: data\\[password\\].remoteRef.version: "1" → "2" |',
        '',
        '```mermaid',
        'flowchart LR',
        '  n0["ExternalSecret shop/db"]',
        '  n1["Deployment shop/api"]',
        '  n2["StatefulSet shop/worker"]',
        '  n0 --> n1',
        '  n0 --> n2',
        '```',
        '',
      ].join('\n'),
    );
  });

  it("lists HEAD's new lints in the markdown, and as SARIF 2.1.0 at their file and line", () => {
    const base = side('lint-base', { 'es.yaml': externalSecrets('1'), 'apps.yaml': workloads });
    const unpinned = externalSecrets('1').replace('        version: "7"\n', '');
    const head = side('lint-head', { 'apps.yaml': workloads, 'es.yaml': unpinned });
    const md = impact(base, head).stdout;
    expect(md).toContain(
      '#### New lints\n\n- **warning**: the checksum of ExternalSecret shop/api-token',
    );
    expect(md).toContain(
      '- `ExternalSecret shop/api-token` (read by `Deployment shop/web`): data\\[0\\].remoteRef has no fixed version',
    );

    const out = impact(base, head, '--format=sarif');
    expect(out.exitCode).toBe(0);
    const log = JSON.parse(out.stdout) as Sarif.Log;
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    const run = log.runs[0] as Sarif.Run;
    expect(run.tool.driver.name).toBe('secret-rollout');
    expect(run.tool.driver.version).toBe('9.9.9');
    expect(run.tool.driver.rules?.map((r) => r.id)).toContain('unpinned-version');
    expect(run.results?.map((r) => [r.ruleId, r.level, r.locations])).toEqual([
      [
        'unpinned-version',
        'warning',
        [
          {
            physicalLocation: {
              // es.yaml sorts after apps.yaml; its second document starts at line 16.
              artifactLocation: { uri: 'lint-head/es.yaml' },
              region: { startLine: 16 },
            },
          },
        ],
      ],
    ]);
    expect(unpinned.split('\n')[15]).toBe('apiVersion: external-secrets.io/v1');
  });

  it('unreadable or invalid input: exit 1, one line naming the file', () => {
    const good = side('bad-base.yaml', externalSecrets('1'));
    const broken = side('bad-dir', { 'a.yaml': externalSecrets('1'), 'b.yaml': 'kind: [' });
    expect(impact(good, broken)).toEqual({
      stdout: '',
      stderr:
        'secret-rollout: impact: HEAD bad-dir/b.yaml: document 0: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1 (invalid-input)\n',
      exitCode: 1,
    });
    expect(impact('missing.yaml', good)).toEqual({
      stdout: '',
      stderr:
        'secret-rollout: impact: cannot read BASE missing.yaml: no such file or directory (BASE and HEAD are paths: for a git revision, check it out first with git worktree add or git archive)\n',
      exitCode: 1,
    });
    const nameless = side('bad-item.yaml', 'apiVersion: v1\nmetadata: {}\n');
    expect(impact(good, nameless).stderr).toBe(
      'secret-rollout: impact: HEAD bad-item.yaml: document 0: item has no kind string: give it apiVersion and kind, or leave it out of the input (invalid-input)\n',
    );
    expect(impactCli([good], '9.9.9', scratch).stderr).toBe(
      'secret-rollout: impact: needs BASE and HEAD (files or directories), got 1 path\n',
    );
    expect(impactCli([good, good, good], '9.9.9', scratch).stderr).toBe(
      'secret-rollout: impact: needs BASE and HEAD (files or directories), got 3 paths\n',
    );
    // A directory where a file is wanted, in words too (the code alone was all it said).
    expect(impactCli(['--fn-config', 'bad-dir', good, good], '9.9.9', scratch).stderr).toBe(
      'secret-rollout: impact: cannot read --fn-config bad-dir: is a directory\n',
    );
    expect(impact(good, good, '--format', 'html').stderr).toBe(
      'secret-rollout: impact: --format must be one of markdown, json, sarif\n',
    );
  });

  it('options apply to both sides (key=value)', () => {
    const base = side('opt-base', { 'es.yaml': externalSecrets('1'), 'apps.yaml': workloads });
    const head = side('opt-head', { 'es.yaml': externalSecrets('2'), 'apps.yaml': workloads });
    expect(json(base, head, 'syncWaves=false').rollouts).toHaveLength(2);
    expect(impact(base, head, 'nope=1').stderr).toMatch(
      /^secret-rollout: impact: BASE opt-base: key=value arguments: unknown option nope /,
    );
  });

  it("never prints a plain Secret's values or digests: only which key changed", () => {
    const secret = (value: string) =>
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\ndata:\n  password: ${value}\n---\n${deployment('api', 'db')}`;
    const out = json(
      side('secret-base.yaml', secret('c2VjcmV0MQ==')),
      side('secret-head.yaml', secret('c2VjcmV0Mg==')),
      'secretChecksumAnnotation=checksum/secrets',
      'secretChecksumKey=k3y-0f-at-least-32-random-bytes!',
    );
    expect(out.rollouts).toEqual([
      {
        resource: ref('Deployment', 'api'),
        reasons: [{ source: ref('Secret', 'db', 'v1'), detail: 'data[password] changed' }],
      },
    ]);
    expect(JSON.stringify(out)).not.toContain('k3y-0f');
  });

  it('caps the Mermaid picture at 30 arrows and says how many it left out', () => {
    const rollouts = Array.from({ length: 35 }, (_, i) => ({
      resource: ref('Deployment', `app-${String(i).padStart(2, '0')}`),
      reasons: [{ source: db, detail: 'data[password].remoteRef.version: "1" → "2"' }],
    }));
    const md = impactMarkdown({
      rollouts,
      silentRotations: [],
      unchangedSilentRotations: 0,
      waves: [],
      order: [],
      added: [],
      removed: [],
      newLints: [],
      lints: [],
    });
    expect(md.match(/ --> /g)).toHaveLength(30);
    expect(md).toContain('```\n\n(5 more edges not drawn)\n');
    expect(md.match(/^\| `Deployment shop\/app-\d\d` \|/gm)).toHaveLength(35);
  });

  it('the built command prints the report and exits 0', () => {
    const base = side('cli-base.yaml', `${externalSecrets('1')}---\n${workloads}`);
    const head = side('cli-head.yaml', `${externalSecrets('2')}---\n${workloads}`);
    const out = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'dist/secret-rollout.cjs'), 'impact', base, head, '--format', 'json'],
      { cwd: scratch, encoding: 'utf8' },
    );
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).rollouts).toHaveLength(2);
  });

  it('shows old → new only for fields that name or version something; elsewhere where it changed', () => {
    const es = (version: string, literal: string, from: string) => ({
      data: [{ secretKey: 'password', remoteRef: { key: 'shop/db', version, property: 'pw' } }],
      secretStoreRef: { name: 'vault', kind: 'SecretStore' },
      target: {
        template: {
          type: 'Opaque',
          data: { 'config.yaml': literal, 'x-token': `${literal}!` },
          metadata: { annotations: { note: literal } },
          templateFrom: [{ literal: from, target: 'Data' }],
        },
      },
    });
    expect(diff(es('1', 'old text', 'a'), es('2', 'new text', 'b'))).toEqual([
      'data[password].remoteRef.version: "1" → "2"',
      'target.template.data[config.yaml] changed',
      'target.template.data[x-token] changed',
      'target.template.metadata.annotations[note] changed',
      'target.template.templateFrom[0].literal changed',
    ]);
    // A plain ConfigMap's values, a SealedSecret's ciphertext, a Secret's digests: keys only.
    expect(diff({ data: { a: 'one' } }, { data: { a: 'two', b: 'three' } })).toEqual([
      'data[a] changed',
      'data[b] added',
    ]);
    expect(diff({ encryptedData: { p: 'AgBx' } }, { encryptedData: { p: 'AgBy' } })).toEqual([
      'encryptedData[p] changed',
    ]);
    // Names and kinds are shown; so is a key that is no field name, in brackets.
    expect(
      diff(
        { secretStoreRef: { name: 'vault', kind: 'SecretStore' }, 'odd-key': 'a' },
        { secretStoreRef: { name: 'vault2', kind: 'ClusterSecretStore' }, 'odd-key': 'b' },
      ),
    ).toEqual([
      '[odd-key] changed',
      'secretStoreRef.kind: "SecretStore" → "ClusterSecretStore"',
      'secretStoreRef.name: "vault" → "vault2"',
    ]);
  });
});

describe('impact on hostile manifests', () => {
  const report = (format: string) => {
    const out = impact(
      hostileSide('hostile-base', false),
      hostileSide('hostile-head', true),
      '--format',
      format,
    );
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    return out.stdout;
  };

  it('says that and where a template changed, never its text, in every format', () => {
    const json = JSON.parse(report('json'));
    expect(json.rollouts).toHaveLength(1);
    const [reason] = json.rollouts[0].reasons;
    expect(reason.detail).toContain('target.template.data[config.yaml] changed');
    expect(reason.detail).toContain(`data[${hostile}].remoteRef.version: "1" → "2"`);
    for (const format of ['json', 'markdown', 'sarif']) {
      expect(report(format), format).not.toContain(canary);
    }
  });

  it('renders names as text in the markdown', () => {
    const all = report('markdown');
    const start = all.indexOf('```mermaid');
    const end = all.indexOf('```\n', start + 3) + 4;
    const mermaid = all.slice(start, end);
    // The text around the picture (a code block, checked below).
    const md = all.slice(0, start) + all.slice(end);
    // A rollout, a silent rotation, a wave change and a new lint all name the hostile resources.
    expect(md).toContain('**1 workload will restart**');
    expect(md).toContain('#### Silent rotations');
    expect(md).toContain('#### Sync waves');
    expect(md).toContain('#### New lints');
    // No raw HTML, link, code span, emphasis or math from a name: each opener is escaped.
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md).not.toMatch(/(?<!\\)\[x/);
    expect(md).not.toMatch(/(?<!\\)\]\(/);
    expect(md).not.toMatch(/(?<!\\)`tick/);
    expect(md).not.toMatch(/(?<!\\)\*\*bold/);
    expect(md).not.toMatch(/(?<!\\)\$x/);
    expect(md).not.toMatch(/(?<!\\)&lt;/);
    // No @mention or #123 reference: a zero-width joiner follows @ and #.
    expect(md).not.toContain('@octocat');
    expect(md).not.toContain('#123');
    expect(md).toContain('@\u200docto');
    // The line break stays inside its line, shown as \n.
    expect(md).not.toMatch(/^line2/m);
    expect(md).toContain('\\\\nline2');
    // Every table row keeps its two cells: no unescaped | from a name.
    const rows = md.split('\n').filter((l) => l.startsWith('|'));
    expect(rows.length).toBeGreaterThanOrEqual(6);
    for (const row of rows) expect(row.match(/(?<!\\)\|/g), row).toHaveLength(3);
    // The Mermaid labels: quotes, HTML, backticks and # as entity codes; one line each.
    expect(mermaid).toContain('#60;img src=x onerror=alert(1)#62; @octocat #35;123');
    const labels = [...mermaid.matchAll(/^ {2}n\d+\["(.*)"\]$/gm)].map((m) => m[1]);
    expect(labels).toHaveLength(3);
    for (const label of labels) expect(label).not.toMatch(/[<>`"]/);
    expect(mermaid).not.toMatch(/^line2/m);
  });

  it('escapes brackets in SARIF messages (an embedded link there is [text](n))', () => {
    const sarif = JSON.parse(report('sarif'));
    const messages: string[] = sarif.runs[0].results.map(
      (r: { message: { text: string } }) => r.message.text,
    );
    expect(messages.length).toBeGreaterThan(0);
    for (const text of messages) expect(text).not.toMatch(/(?<!\\)\[x/);
  });
});

describe('grouped findings across the sides', () => {
  // unpinned-version names every unpinned ExternalSecret on one store in one warning, whose
  // message counts entries and names a first member: keyed by message, any change of the group
  // made an old warning read as new.
  const one = (name: string, extra = '') => [
    externalSecret(name, { namespace: 'shop', extra }),
    deployment(name, name),
  ];
  const newLints = (base: string[], head: string[]) => {
    const side = (label: string, docs: string[]) => ({
      label,
      text: docs.join('---\n'),
      origins: [],
    });
    const out = impactOf(side('BASE', base), side('HEAD', head), { format: 'markdown' });
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.split('\n');
    const at = lines.indexOf('#### New lints');
    return at < 0 ? [] : lines.slice(at + 2).filter((l) => l.startsWith('- **'));
  };
  const base = [...one('a'), ...one('b')];
  const unpinnedEntry = '  - secretKey: host\n    remoteRef: {key: db/a, property: host}\n';

  it('a group whose message changes but names no new ExternalSecret is not new', () => {
    // One more unpinned entry in a: "2 entries" becomes "3 entries".
    expect(newLints(base, [...one('a', unpinnedEntry), ...one('b')])).toEqual([]);
    // b gone: the plural message becomes the one-member form.
    expect(newLints(base, one('a'))).toEqual([]);
    // The same members in another order: another first member named.
    expect(newLints(base, [...one('b'), ...one('a')])).toEqual([]);
  });

  it('a group that names an ExternalSecret the base did not is new', () => {
    const found = newLints(base, [...base, ...one('c')]);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('3 ExternalSecrets');
  });

  // kind-near-miss folds the ExternalSecrets at one unserved version likewise.
  it('a folded kind-near-miss that loses a member is not new', () => {
    const old = (docs: string[]) =>
      docs.map((d) => d.replace('external-secrets.io/v1\n', 'external-secrets.io/v1beta1\n'));
    expect(newLints(old(base), old(one('a')))).toEqual([]);
    expect(newLints(old(base), old([...base, ...one('c')])).join('\n')).toContain(
      '3 ExternalSecrets (ExternalSecret shop/a, ExternalSecret shop/b and ExternalSecret shop/c) use',
    );
  });
});
