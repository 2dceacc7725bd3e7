// A `kind: List` input (what `kubectl get -o json` prints for more than one object, and what
// kustomize's resource factory expands: docs/format.md) is read: its items get their edits in
// place inside the List, in YAML and JSON, alone or as a document of a stream; the rest stays
// byte for byte. A List whose items cannot be read so says so (list-not-read), and one whose
// items are no list of mappings is an error. On main each was copied through in silence.
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { check, run } from '../src/run.js';
import {
  checksumKey,
  deployment,
  envFrom,
  externalSecret,
  insertedLines,
  resourceList,
  runOk,
  templateAnnotation,
  wave,
  waveKey,
} from './helpers.js';

type Obj = Record<string, unknown>;

const es = externalSecret('db', { namespace: 'app', target: 'db-creds' });
const workload = deployment('api', envFrom('db-creds'), { namespace: 'app' });
const values = [load(es), load(workload)] as Obj[];

/** The same items as documents of a stream: what their edits must be. */
const expected = (() => {
  const out = runOk(`${es}---\n${workload}`).stdout;
  const [source, consumer] = out.split(/^---\n/m).map((d) => load(d) as Obj) as [Obj, Obj];
  return { checksum: templateAnnotation(consumer), wave: wave(source) };
})();

/** A List's items as YAML, `- ` entries at column 0 (kubectl's `-o yaml` layout). */
const yamlList = (kind = 'List', items = [es, workload]) =>
  `apiVersion: v1\nkind: ${kind}\nmetadata:\n  resourceVersion: ""\nitems:\n${items
    .map((item) => `- ${item.trimEnd().replaceAll('\n', '\n  ')}\n`)
    .join('')}`;

/** kubectl's `-o json` layout: 4 spaces. */
const jsonList = (items: unknown = values) =>
  `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4)}\n`;

/** The output's List items, found by kind. */
function listItems(output: string): { source: Obj; consumer: Obj } {
  const docs = output.split(/^---\r?\n/m).map((d) => load(d) as Obj);
  const items = docs.flatMap((d) => (String(d.kind).endsWith('List') ? (d.items as Obj[]) : [d]));
  const byKind = (kind: string) => items.find((i) => i.kind === kind) as Obj;
  return { source: byKind('ExternalSecret'), consumer: byKind('Deployment') };
}

/** The edits of the stream twin, in place, nothing else changed, and a second run a no-op. */
function expectRead(input: string): string {
  const out = runOk(input).stdout;
  const { source, consumer } = listItems(out);
  expect(templateAnnotation(consumer)).toBe(expected.checksum);
  expect(wave(source)).toBe(expected.wave);
  expect(run(out).stdout).toBe(out);
  expect(check(out).exitCode).toBe(0);
  expect(check(input).exitCode).toBe(1);
  return out;
}

describe('a kind: List input', () => {
  it('YAML alone: the items edited in place, every other line as it was', () => {
    const input = yamlList();
    const out = expectRead(input);
    expect(insertedLines(input, out.replaceAll('\r\n', '\n'))).toEqual([
      '    annotations:',
      `      ${waveKey}: "-1"`,
      '        annotations:',
      expect.stringMatching(new RegExp(`^ {10}${checksumKey}: "[0-9a-f]{64}"$`)),
    ]);
  });

  it('YAML with CRLF line breaks, items indented under items:, a `*` and an `&` in values', () => {
    // Neither can start an anchor (a List with one is read whole: see below).
    const cron =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cron\ndata:\n  at: "*/5 * * * *"\n  url: https://x/?a=1&b=2\n  run: sh -c "a && b &>/dev/null"\n';
    const input = yamlList('List', [es, cron, workload])
      .replace(/^(?=[- ] )/gm, '  ')
      .replaceAll('\n', '\r\n');
    const out = expectRead(input);
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
  });

  it('JSON alone (kubectl -o json): edited in its value, JSON out in its layout', () => {
    const input = jsonList();
    const out = expectRead(input);
    const value = JSON.parse(out) as Obj;
    const { source, consumer } = listItems(out);
    // Nothing but the two annotations changed.
    const [es0, dep0] = structuredClone(values) as [Obj, Obj];
    (es0.metadata as Obj).annotations = { [waveKey]: expected.wave };
    ((dep0.spec as Obj).template as Obj).metadata = {
      ...(((dep0.spec as Obj).template as Obj).metadata as Obj),
      annotations: { [checksumKey]: expected.checksum },
    };
    expect([source, consumer]).toEqual([es0, dep0]);
    expect(value.metadata).toEqual({ resourceVersion: '' });
    expect(out).toMatch(/^ {4}"apiVersion": "v1",$/m);
  });

  it('as a document of a stream, beside other documents, in YAML and in JSON', () => {
    const yaml = `${es}---\n${yamlList('List', [workload])}`;
    expectRead(yaml);
    const json = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n${jsonList()}`;
    // A JSON document of a stream is YAML to the reader: its List is read whole, and says so.
    const out = run(json);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(json);
    expect(out.stderr).toContain(
      'warning: document 1 (List): its items are not read (2): give them as separate YAML documents (---), or as items of a ResourceList (list-not-read)',
    );
  });

  it('other *List kinds, as kustomize reads them', () => {
    expectRead(yamlList('ExternalSecretList', [es, workload]));
  });

  it('an empty List, or one without items, is no error', () => {
    for (const input of ['apiVersion: v1\nkind: List\nitems: []\n', jsonList([])]) {
      expect(runOk(input).stdout).toBe(input);
    }
    const plain = 'apiVersion: v1\nkind: List\nmetadata:\n  name: x\n';
    expect(runOk(plain).stdout).toBe(plain);
  });
});

/** A List file of a kpt package as `kpt fn source` passes it: one item, annotated by kpt. */
const kptList = (items = [es, workload]) =>
  yamlList('List', items).replace(
    'metadata:\n  resourceVersion: ""\n',
    "metadata:\n  annotations:\n    config.kubernetes.io/path: 'app/list.yaml'\n    config.kubernetes.io/index: '0'\n",
  );

describe('a List item of a ResourceList (a kpt package List file)', () => {
  it('is read as its entries: the stream twin edits in place, every other line as it was', () => {
    const other = deployment('other', '', { namespace: 'app' });
    const input = resourceList([kptList(), other]);
    const out = runOk(input).stdout;
    const items = (load(out) as Obj).items as Obj[];
    const [list] = items as [Obj];
    const [source, consumer] = list.items as [Obj, Obj];
    expect(templateAnnotation(consumer)).toBe(expected.checksum);
    expect(wave(source)).toBe(expected.wave);
    const [before] = out.split(/^results:$/m) as [string];
    expect(insertedLines(input, before)).toEqual([
      '      annotations:',
      `        ${waveKey}: "-1"`,
      '          annotations:',
      expect.stringMatching(new RegExp(`^ {12}${checksumKey}: "[0-9a-f]{64}"$`)),
    ]);
    // kpt writes the List back to its file from its own annotations, untouched.
    expect(list.metadata).toEqual((load(kptList()) as Obj).metadata);
    expect(run(out).stdout).toBe(out);
    expect(check(input).exitCode).toBe(1);
    expect(check(out).exitCode).toBe(0);
  });

  it('with its items indented, a key after them, CRLF line breaks', () => {
    const list = kptList();
    const [head, entries] = list.split('items:\n') as [string, string];
    const after = `${head}items:\n${entries.trimEnd().replace(/^/gm, '  ')}\nzz: x\n`;
    const input = resourceList([after]).replaceAll('\n', '\r\n');
    const out = runOk(input).stdout;
    const [list0] = (load(out) as Obj).items as [Obj];
    const [source, consumer] = list0.items as [Obj, Obj];
    expect(templateAnnotation(consumer)).toBe(expected.checksum);
    expect(wave(source)).toBe(expected.wave);
    expect(list0.zz).toBe('x');
    expect(run(out).stdout).toBe(out);
  });

  it("with the file's leading comment on the item's `- ` line, as kpt writes it", () => {
    // `- # …` then the List's keys: kpt puts a file's head comment there (examples/kpt-list).
    const commented = resourceList([`# exported by kubectl\n${kptList()}`]);
    expect(commented).toContain('- # exported by kubectl\n  apiVersion: v1\n');
    const out = runOk(commented).stdout;
    const [list] = (load(out) as Obj).items as [Obj];
    const [source, consumer] = list.items as [Obj, Obj];
    expect(templateAnnotation(consumer)).toBe(expected.checksum);
    expect(wave(source)).toBe(expected.wave);
    expect(out).not.toContain('list-not-read');
    expect(run(out).stdout).toBe(out);
  });

  it('names an entry by the List item and its place in it, and the items after by theirs', () => {
    const kindless = (item: string) => item.replace('kind: Deployment\n', '');
    const bad = deployment('bad', '', { namespace: 'app' });
    const out = run(resourceList([kptList([es, kindless(workload)]), kindless(bad)]));
    const messages = ((load(out.stdout) as Obj).results as Obj[]).map((r) => r.message);
    // The entry's error names the List's file too (kpt shows the message, not the file).
    expect(messages).toContainEqual(
      expect.stringMatching(/^item 0 item 1 in app\/list\.yaml: .*kind/),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^item 1: .*kind/));
  });

  it("names the List's file in an entry's results: kpt's annotations are on the List", () => {
    const listFile = { path: 'app/list.yaml' }; // index 0 is no index, as on any item
    const results = (items: string[]) =>
      ((load(run(resourceList([kptList(items)])).stdout) as Obj).results as Obj[]) ?? [];
    // A render's infos (the checksum, the wave) are about the entries.
    const rendered = results([es, workload]);
    expect(rendered.length).toBeGreaterThan(0);
    for (const result of rendered) expect(result.file).toEqual(listFile);
    // So is an entry's error.
    const [error] = results([es, workload.replace('kind: Deployment\n', '')]).filter(
      (r) => r.severity === 'error',
    ) as [Obj];
    expect(error.file).toEqual(listFile);
  });

  it('with an anchor in the ResourceList, is read whole and says so', () => {
    const anchored = kptList([es.replace('namespace: app', 'namespace: &ns app'), workload]);
    const input = resourceList([anchored, workload.replace('name: api', 'name: other')]);
    const out = runOk(input);
    const results = (load(out.stdout) as Obj).results as Obj[];
    expect(results).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        message:
          'item 0 (List): its items are not read (2): give them as separate YAML documents (---), or as items of a ResourceList',
        tags: { rule: 'list-not-read' },
      }),
    );
  });
});

describe('a List whose items are not read says so', () => {
  it('flow items, nested Lists and anchors across items: read whole, warned, check not silent', () => {
    const flow = `apiVersion: v1\nkind: List\nitems: [${JSON.stringify(values[0])}]\n`;
    const nested = yamlList('List', [yamlList('List', [es])]);
    // The Deployment's namespace an alias of the ExternalSecret's.
    const anchored = yamlList('List', [
      es.replace('namespace: app', 'namespace: &ns app'),
      workload.replace('namespace: app', 'namespace: *ns'),
    ]);
    expect(anchored).toContain('*ns');
    // An anchor right after a flow key's `:` (valid YAML; missed before).
    const afterColon = yamlList('List', [
      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name":&n cfg, "namespace": "app"}}\n`,
      workload.replace('name: api', 'name: *n'),
    ]);
    for (const [input, where] of [
      [flow, 'document 0 (List)'],
      [nested, 'document 0 item 0 (List)'],
      [anchored, 'document 0 (List)'],
      [afterColon, 'document 0 (List)'],
    ] as const) {
      const out = run(input);
      expect(out.exitCode).toBe(0);
      expect(out.stdout).toBe(input);
      expect(out.stderr).toMatch(
        new RegExp(`^warning: ${where.replace(/[()]/g, '\\$&')}: its items are not read`, 'm'),
      );
      const checked = check(input);
      expect(checked.stderr).toMatch(/^warning: .*\(list-not-read\)$/m);
    }
  });
});

describe('a List whose items are no list of mappings is an error', () => {
  it('but a custom kind named …List is an item like any other', () => {
    const allow =
      'apiVersion: example.com/v1\nkind: AllowList\nmetadata: {name: a, namespace: n}\nitems: ["10.0.0.0/8"]\n';
    const out = runOk(resourceList([allow, workload]));
    expect(((load(out.stdout) as Obj).results as Obj[] | undefined) ?? []).not.toContainEqual(
      expect.objectContaining({ severity: 'error' }),
    );
    expect(runOk(allow).stdout).toBe(allow);
  });

  it('YAML: a scalar, or an entry that is no mapping', () => {
    const scalar = run('apiVersion: v1\nkind: List\nitems: 3\n');
    expect(scalar.exitCode).toBe(1);
    expect(scalar.stderr).toBe(
      'error: document 0 (List), line 1: its items must be a list of mappings (invalid-input)\n',
    );
    const entry = run(`${yamlList()}- 3\n`);
    expect(entry.exitCode).toBe(1);
    expect(entry.stderr).toContain('error: document 0 item 2: item is a number, not a mapping');
  });

  it('JSON: items not a list, or an item that is no object', () => {
    const notList = run(jsonList(3));
    expect(notList).toMatchObject({ exitCode: 1, stdout: '' });
    expect(notList.stderr).toBe('secret-rollout: the items of a JSON List must be a list\n');
    const entry = run(jsonList([...values, 'x']));
    expect(entry.exitCode).toBe(1);
    expect(entry.stderr).toContain('error: item 2: item is a string, not a mapping');
  });

  it('a List document that is not valid YAML is reported as before, nothing written', () => {
    const input = yamlList().replace(
      'metadata:\n  resourceVersion',
      'metadata: [\n  resourceVersion',
    );
    const out = run(input);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(/^error: document 0: invalid YAML/);
  });
});
