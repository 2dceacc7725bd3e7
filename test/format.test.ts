// Byte preservation: the only change to the text is the annotation lines the function inserts or
// updates; every other input line survives, in order.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import { checksumKey, insertedLines, repoRoot, runOk, waveKey } from './helpers.js';

// Comments, flow and block styles, quoted keys, kpt annotations, a block scalar whose content
// looks like a list entry, a null template metadata.
const list = readFileSync(path.join(repoRoot, 'testdata/commented-flow-list.yaml'), 'utf8');
describe('format preservation', () => {
  it('keeps every input line in order and inserts only annotation lines', () => {
    const { stdout } = runOk(list);
    const items = stdout.slice(0, stdout.indexOf('\nresults:') + 1);
    // The one exception: annotations of a flow-style mapping live on its line, which is updated
    // in place (there is no way to add an entry to `{…}` without touching it).
    const flow = '  metadata: {name: db, namespace: prod, annotations: {owner: "team-a"}}';
    const updated = `  metadata: {name: db, namespace: prod, annotations: {${waveKey}: "-1", owner: "team-a"}}`;
    expect(items).toContain(`\n${updated}\n`);
    const inserted = insertedLines(list.replace(flow, updated), items);
    expect(inserted).toEqual([
      expect.stringMatching(new RegExp(`^ {10}${checksumKey}: "[0-9a-f]{64}"$`)),
      '            annotations:',
      expect.stringMatching(new RegExp(`^ {14}${checksumKey}: "[0-9a-f]{64}"$`)),
    ]);
  });

  it('is idempotent byte for byte, results included', () => {
    const first = runOk(list).stdout;
    expect(runOk(first).stdout).toBe(first);
  });

  it('outputs the input values plus the annotations', () => {
    const out = load(runOk(list).stdout) as { items: Record<string, unknown>[] };
    const input = load(list) as { items: Record<string, unknown>[] };
    expect(out.items.length).toBe(input.items.length);
    const strip = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (k, v) => (k === checksumKey || k === waveKey ? undefined : v)),
      );
    const cleaned = strip(out.items) as Record<string, unknown>[];
    // the CronJob template metadata was null and is now {annotations: {}} once stripped
    const cron = cleaned[2] as {
      spec: { jobTemplate: { spec: { template: { metadata: unknown } } } };
    };
    expect(cron.spec.jobTemplate.spec.template.metadata).toEqual({ annotations: {} });
    cron.spec.jobTemplate.spec.template.metadata = null;
    const db = cleaned[0] as { metadata: { annotations: unknown } };
    expect(db.metadata.annotations).toEqual({ owner: 'team-a' });
    expect(cleaned).toEqual(strip(input.items));
  });

  it('keeps CRLF line breaks', () => {
    const crlf = list.replace(/\n/g, '\r\n');
    const { stdout } = runOk(crlf);
    expect(stdout.replace(/\r\n/g, '')).not.toContain('\n');
    expect(stdout.split('\r\n').length).toBeGreaterThan(crlf.split('\r\n').length);
  });

  it('updates an existing value in place, keeping its quoting style', () => {
    const stale = list.replace(
      '          "prometheus.io/scrape": \'true\'\n',
      `          "prometheus.io/scrape": 'true'\n          ${checksumKey}: 'stale' # ours\n`,
    );
    const { stdout } = runOk(stale);
    expect(stdout).toMatch(new RegExp(`\\n {10}${checksumKey}: '[0-9a-f]{64}' # ours\\n`));
    expect(stdout).not.toContain('stale');
  });

  it('keeps a plain YAML stream a stream, with results on stderr', () => {
    const stream = `---
# Source: chart/templates/es.yaml
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
spec:
  data:
  - secretKey: pw
    remoteRef: {key: db}
---
# Source: chart/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
      - name: app
        envFrom:
        - secretRef: {name: db}
`;
    const out = run(stream);
    expect(out.exitCode).toBe(0);
    expect(insertedLines(stream, out.stdout)).toEqual([
      '  annotations:',
      `    ${waveKey}: "-1"`,
      '    metadata:',
      '      annotations:',
      expect.stringMatching(new RegExp(`^ {8}${checksumKey}: "[0-9a-f]{64}"$`)),
    ]);
    expect(out.stderr).toMatch(/^info: checksum of ExternalSecret db \[Deployment app/m);
    expect(run(out.stdout).stdout).toBe(out.stdout);
  });

  it('takes JSON and gives JSON with key order kept', () => {
    const json = JSON.stringify(
      {
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: [
          {
            apiVersion: 'external-secrets.io/v1',
            kind: 'ExternalSecret',
            metadata: { name: 'db' },
            spec: { data: [{ secretKey: 'a', remoteRef: { key: 'k' } }] },
          },
          {
            kind: 'Deployment',
            apiVersion: 'apps/v1',
            metadata: { name: 'app' },
            spec: {
              template: {
                spec: { containers: [{ name: 'c', envFrom: [{ secretRef: { name: 'db' } }] }] },
              },
            },
          },
        ],
      },
      null,
      2,
    );
    const { stdout } = runOk(`${json}\n`);
    const out = JSON.parse(stdout);
    expect(Object.keys(out.items[1])).toEqual(['kind', 'apiVersion', 'metadata', 'spec']);
    expect(out.items[1].spec.template.metadata.annotations[checksumKey]).toMatch(/^[0-9a-f]{64}$/);
    expect(out.items[0].metadata.annotations[waveKey]).toBe('-1');
    expect(stdout).toMatch(/^{\n {2}"apiVersion"/);
    expect(out.results.length).toBeGreaterThan(0);
  });
});

describe('stderr for kustomize', () => {
  it('repeats errors and warnings of a ResourceList on stderr when asked (LOG_TO_STDERR)', () => {
    const input =
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: f}\n  data: {storeWave: x}\n';
    expect(run(input).stderr).toBe('');
    expect(run(input, { logToStderr: true }).stderr).toMatch(
      /^error: functionConfig: data\.storeWave/,
    );
  });
});

describe('results at scale', () => {
  it('keeps every error and warning but summarises info results past the cap', async () => {
    const { maxInfoResults } = await import('../src/run.js');
    const items = Array.from(
      { length: maxInfoResults + 50 },
      (_, i) =>
        `- apiVersion: external-secrets.io/v1\n  kind: ExternalSecret\n  metadata: {name: es-${i}}\n  spec:\n    data:\n    - {secretKey: a, remoteRef: {key: k}}\n`,
    );
    const input = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('')}`;
    const results = (
      load(run(input).stdout) as { results: { severity: string; message: string }[] }
    ).results;
    const infos = results.filter((r) => r.severity === 'info');
    expect(infos).toHaveLength(maxInfoResults + 1);
    // A wave each, and one unread-source info for their namespace (nothing reads them), which
    // is among the first 200: the 51 left out are waves.
    expect(infos.at(-1)?.message).toBe(
      '51 more info results like the ones above (sync-wave 51); `secret-rollout plan` lists every checksum and wave, and a lint set to warning reports each of its results',
    );
  });
});
