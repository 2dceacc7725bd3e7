// Issue #22: a JSON document in a YAML stream or a YAML ResourceList (kubectl's `-o json`
// objects, JSON is YAML) gets its edits in JSON, in its own layout, and stays JSON; a YAML
// document next to it keeps YAML edits. The oracle for the values: the same items written as
// YAML get the same edits (the value of each output document is that of its YAML twin's).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dump, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import {
  checksumKey,
  deployment,
  envFrom,
  externalSecret,
  repoRoot,
  resourceList,
  runOk,
  waveKey,
} from './helpers.js';

type Obj = Record<string, unknown>;

const store =
  'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault\nspec: {provider: {fake: {data: []}}}\n';
const es = load(externalSecret('db', { namespace: 'app', target: 'db-creds' })) as Obj;
const workload = (name: string, edit: (template: Obj, item: Obj) => void = () => {}): Obj => {
  const item = load(deployment(name, envFrom('db-creds'), { namespace: 'app' })) as Obj;
  edit((item.spec as Obj).template as Obj, item);
  return item;
};

/** kubectl's `-o json` layout: 4 spaces; Go escapes `<`, which must survive the edit. */
const kubectl = (value: Obj) => JSON.stringify(value, null, 4).replaceAll('<', '\\u003c');

/** Documents of a stream, split at its `---` lines (the inputs here have no other). */
const documents = (stream: string) =>
  stream
    .split(/^---\r?\n/m)
    .filter((d) => d.trim() !== '')
    .map((d) => d.trimEnd());

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * The stream as given, and the same values each written as YAML: every output document must be
 * JSON where its input was, and hold the value its YAML twin's output holds.
 */
function expectJsonKept(docs: readonly string[]): string {
  const input = `${docs.map((d) => `---\n${d}\n`).join('')}`;
  const out = runOk(input).stdout;
  const twin = docs.map((d) => `---\n${dump(load(d), { lineWidth: -1 })}`).join('');
  const outDocs = documents(out);
  const twinDocs = documents(runOk(twin).stdout);
  expect(outDocs).toHaveLength(docs.length);
  for (const [i, doc] of outDocs.entries()) {
    const value = load(doc);
    expect(value).toEqual(load(twinDocs[i] as string));
    if (isJson(docs[i] as string)) expect(JSON.parse(doc)).toEqual(value);
    else expect(doc).not.toMatch(/^\s*\{/);
  }
  // What is not edited keeps its bytes: Go's escapes, number spellings.
  for (const doc of docs.filter((d) => d.includes('\\u003c'))) {
    expect(out).toContain(doc.slice(doc.indexOf('\\u003c') - 20, doc.indexOf('\\u003c') + 20));
  }
  expect(run(out).stdout).toBe(out);
  return out;
}

describe('JSON documents in a YAML stream', () => {
  it('kubectl -o json layout: new lines at the keys’ indentation, nested mappings on lines', () => {
    const out = expectJsonKept([
      kubectl({ ...es, metadata: { ...(es.metadata as Obj), labels: { note: 'a<b' } } }),
      kubectl(workload('api')),
    ]);
    expect(out).toContain(
      `    "metadata": {\n        "annotations": {\n            "${waveKey}": "-1"\n        },\n        "name": "db",`,
    );
    expect(out).toMatch(
      new RegExp(
        ` {12}"metadata": \\{\n {16}"annotations": \\{\n {20}"${checksumKey}": "[0-9a-f]{64}"\n {16}\\},\n {16}"labels"`,
      ),
    );
  });

  it('one-line documents stay on one line, with or without spaces after colons and commas', () => {
    const out = expectJsonKept([
      JSON.stringify(es),
      JSON.stringify(workload('compact')),
      JSON.stringify(workload('spaced')).replaceAll('":', '": ').replaceAll(',"', ', "'),
    ]);
    const lines = documents(out).map((d) => d.split('\n'));
    for (const lines_ of lines) expect(lines_).toHaveLength(1);
    expect(out).toContain(`{"annotations":{"${waveKey}":"-1"},"name":"db"`);
    expect(out).toMatch(
      new RegExp(`"metadata": \\{"annotations": \\{"${checksumKey}": "[0-9a-f]{64}"\\}, "labels"`),
    );
  });

  it('an empty mapping, a null, an existing value (2-space JSON.stringify layout)', () => {
    const empty = workload('empty', (t, item) => {
      (item.metadata as Obj).annotations = {};
      (t.metadata as Obj).annotations = {};
    });
    const nulled = workload('nulled', (t) => {
      (t.metadata as Obj).annotations = null;
    });
    const stale = workload('stale', (t) => {
      (t.metadata as Obj).annotations = { [checksumKey]: 'stale', other: '1.50' };
    });
    const out = expectJsonKept([
      JSON.stringify(es, null, 2),
      ...[empty, nulled, stale].map((w) => JSON.stringify(w, null, 2)),
    ]);
    // The `{}` and the `null` of the pod templates, each now a mapping on lines of its own.
    const filled = `\n {8}"annotations": \\{\n {10}"${checksumKey}": "[0-9a-f]{64}"\n {8}\\}\n {6}\\},`;
    expect(out.match(new RegExp(filled, 'g'))).toHaveLength(2);
    expect(out).toContain(
      '  "metadata": {\n    "name": "empty",\n    "namespace": "app",\n    "annotations": {}\n  },',
    );
    expect(out).not.toContain(`"${checksumKey}": "stale"`);
    expect(out).toMatch(new RegExp(`"${checksumKey}": "[0-9a-f]{64}",\n {10}"other": "1.50"`));
  });

  it('a mixed stream: each document keeps its own style', () => {
    const yamlWorkload = deployment('yaml-api', envFrom('db-creds'), {
      namespace: 'app',
    }).trimEnd();
    const out = expectJsonKept([
      store.trimEnd(),
      kubectl(es),
      yamlWorkload,
      JSON.stringify(workload('json-api')),
    ]);
    const [, , yamlOut] = documents(out);
    expect(yamlOut).toMatch(
      /\n {4}metadata:\n {6}annotations:\n {8}checksum\/external-secrets: "[0-9a-f]{64}"\n/,
    );
  });

  it('CRLF documents get CRLF lines', () => {
    const out = runOk(`---\r\n${kubectl(es).replaceAll('\n', '\r\n')}\r\n`).stdout;
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
    expect(JSON.parse(out.slice(5))).toMatchObject({
      metadata: { annotations: { [waveKey]: '-1' } },
    });
  });

  it('a YAML flow mapping that is not JSON keeps YAML flow edits', () => {
    const flow = `{apiVersion: external-secrets.io/v1, kind: ExternalSecret, metadata: {name: db, namespace: app}, spec: {target: {name: db-creds}, data: [{secretKey: a, remoteRef: {key: k}}]}}`;
    const out = runOk(`---\n${flow}\n---\n${JSON.stringify(workload('api'))}\n`).stdout;
    expect(documents(out)[0]).toContain(`metadata: {annotations: {${waveKey}: "-1"}, name: db`);
  });
});

describe('JSON items in a YAML ResourceList', () => {
  it('one-line and multi-line entries stay JSON', () => {
    const input = resourceList([JSON.stringify(es), kubectl(workload('api'))]);
    const out = runOk(input).stdout;
    const items = (load(out) as { items: Obj[] }).items;
    const entries = out
      .slice(out.indexOf('items:\n') + 7, out.indexOf('results:'))
      .split(/^- /m)
      .filter((e) => e !== '');
    expect(entries).toHaveLength(2);
    for (const [i, entry] of entries.entries()) expect(JSON.parse(entry)).toEqual(items[i]);
    expect(((items[0] as Obj).metadata as Obj).annotations).toEqual({ [waveKey]: '-1' });
    // The entry's own step (4), counted from its `{`, not from the `- ` line.
    expect(out).toMatch(
      new RegExp(`\n {18}"annotations": \\{\n {22}"${checksumKey}": "[0-9a-f]{64}"\n {18}\\},\n`),
    );
    expect(run(out).stdout).toBe(out);
  });
});

describe('examples/json-stream', () => {
  const dir = path.join(repoRoot, 'examples/json-stream');
  it('renders to its golden (rendered.golden), JSON documents still JSON', () => {
    const out = runOk(readFileSync(path.join(dir, 'manifests.yaml'), 'utf8')).stdout;
    expect(out).toBe(readFileSync(path.join(dir, 'rendered.golden'), 'utf8'));
    for (const doc of documents(out)) if (doc.startsWith('{')) JSON.parse(doc);
    expect(run(out).stdout).toBe(out);
  });
});
