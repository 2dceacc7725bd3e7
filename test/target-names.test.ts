// targetNames: hashed (docs/target-names.md): an ExternalSecret's Secret named after its content,
// every reference to it rewritten and nothing else, a second run byte-identical, the suffix moved
// by a content change, and the cases where a hashed name would break things refused. On main the
// option is unknown: every test here fails there with invalid-config.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { each, parsePath } from '../src/model/path.js';
import { hashSuffix } from '../src/rules/target-names.js';
import { secretReferences, secretUses } from '../src/rules/workloads/references.js';
import { run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  find,
  itemsOf,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
  secretKeyRef,
} from './helpers.js';
import { getAt, readBack, renderStream } from './property/documents.js';
import { scenarioArb, settingsOf, templatePathOf } from './property/gen.js';

type Obj = Record<string, unknown>;
const hashed = { targetNames: 'hashed' };
const base = 'secret-rollout/target-base-name';

const es = externalSecret('db', { namespace: 'shop' });
const targetOf = (items: Obj[], name = 'db') =>
  ((find(items, 'ExternalSecret', name).spec as Obj).target as Obj | undefined)?.name;
const annotationsOf = (item: Obj) => (item.metadata as Obj).annotations as Obj | undefined;

/** A PodSpec holding one reference of a table row, naming `name`, built from the row's path. */
function podSpecFor(row: (typeof secretReferences)[number], name: string): Obj {
  const ref: Obj = { ...row.when };
  const nameKeys = row.nameField.split('.');
  let holder = ref;
  for (const key of nameKeys.slice(0, -1)) {
    holder[key] ??= {};
    holder = holder[key] as Obj;
  }
  holder[nameKeys.at(-1) as string] = name;
  if (typeof row.keys === 'object' && 'field' in row.keys) ref[row.keys.field] = 'password';
  const steps = parsePath(row.path);
  const build = (at: number): unknown => {
    if (at === steps.length) return ref;
    const step = steps[at];
    if (step === each) return [build(at + 1)];
    const inner = build(at + 1);
    // A list entry of containers or volumes needs its own name (and a container its image).
    if (step === 'containers' || step === 'initContainers' || step === 'ephemeralContainers') {
      return { [step]: [{ name: 'c', image: 'app:1', ...((inner as unknown[])[0] as Obj) }] };
    }
    if (step === 'volumes')
      return { volumes: [{ name: 'v', ...((inner as unknown[])[0] as Obj) }] };
    return { [step as string]: inner };
  };
  const spec = build(0) as Obj;
  spec.containers ??= [{ name: 'app', image: 'app:1' }];
  return spec;
}

function workload(name: string, podSpec: Obj): string {
  return dump({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'shop' },
    spec: { template: { metadata: { labels: { app: name } }, spec: podSpec } },
  });
}

describe('targetNames: hashed', () => {
  const rows = secretReferences.filter((row) => row.kind === 'Secret');
  const workloads = rows.map((row, i) => workload(`w${i}`, podSpecFor(row, 'db')));
  // Beside them: a ConfigMap of the same name and another Secret, which stay as they are.
  const bystander = deployment('other', `${secretKeyRef('elsewhere', 'k')}\n${envFrom('db-x')}`, {
    namespace: 'shop',
  }).replace('secretKeyRef:', 'configMapKeyRef:');
  const input = resourceList([es, ...workloads, bystander]);

  it('rewrites every reference-table field naming the Secret, and nothing else', () => {
    expect(rows.length).toBeGreaterThanOrEqual(9);
    const before = itemsOf(input);
    const out = runOk(input, hashed).stdout;
    const after = itemsOf(out);
    const name = targetOf(after) as string;
    expect(name).toMatch(/^db-[2-9b-df-z]{10}$/);
    expect(annotationsOf(find(after, 'ExternalSecret', 'db'))?.[base]).toBe('db');
    // Each workload: the input with the one name replaced; the checksum annotation aside.
    const renamed = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value).replaceAll('"db"', JSON.stringify(name)));
    for (const [i, row] of rows.entries()) {
      const got = structuredClone(find(after, 'Deployment', `w${i}`));
      delete (((got.spec as Obj).template as Obj).metadata as Obj).annotations;
      expect(got, row.path).toEqual(renamed(find(before, 'Deployment', `w${i}`)));
    }
    expect(find(after, 'Deployment', 'other')).toEqual(find(before, 'Deployment', 'other'));
    const info = resultsOf(out).find((r) => (r.tags as Obj).rule === 'target-renamed');
    expect(info?.message).toContain(`${rows.length} references in the input name it`);
  });

  it('a second run changes no byte; the option off changes no name', () => {
    const once = runOk(input, hashed).stdout;
    const twice = runOk(once, hashed).stdout;
    expect(twice).toBe(once);
    expect(targetOf(itemsOf(runOk(input).stdout))).toBeUndefined();
  });

  it('a changed content moves the suffix, and the references from the old name to the new', () => {
    const once = runOk(
      resourceList([es, deployment('api', envFrom('db'), { namespace: 'shop' })]),
      hashed,
    );
    const first = targetOf(itemsOf(once.stdout)) as string;
    const edited = once.stdout.replace('version: "1"', 'version: "2"');
    const again = itemsOf(runOk(edited, hashed).stdout);
    const second = targetOf(again) as string;
    expect(second).toMatch(/^db-[2-9b-df-z]{10}$/);
    expect(second).not.toBe(first);
    const api = find(again, 'Deployment', 'api') as Obj;
    expect(JSON.stringify(api)).toContain(`"name":"${second}"`);
    expect(JSON.stringify(api)).not.toContain(first);
  });

  it('recognises its own suffix by the recorded base name, and a name set by hand as the new base', () => {
    const once = runOk(resourceList([es]), hashed).stdout;
    const suffixed = targetOf(itemsOf(once)) as string;
    const byHand = once.replace(`name: "${suffixed}"`, 'name: "db-v2"');
    const items = itemsOf(runOk(byHand, hashed).stdout);
    expect(targetOf(items)).toMatch(/^db-v2-[2-9b-df-z]{10}$/);
    expect(annotationsOf(find(items, 'ExternalSecret', 'db'))?.[base]).toBe('db-v2');
  });

  it('warns, on each run, of an annotation that names the Secret as text', () => {
    const reloaded = deployment('api', envFrom('db'), { namespace: 'shop' }).replace(
      'metadata:\n  name: api',
      'metadata:\n  annotations:\n    secret.reloader.stakater.com/reload: "other, db"\n  name: api',
    );
    const once = runOk(resourceList([es, reloaded]), hashed).stdout;
    const warned = (out: string) =>
      resultsOf(out).filter((r) => (r.tags as Obj).rule === 'target-name-as-text');
    expect(warned(once)).toHaveLength(1);
    expect(warned(once)[0]?.severity).toBe('warning');
    expect(once).toContain('secret.reloader.stakater.com/reload: "other, db"');
    expect(warned(runOk(once, hashed).stdout)).toEqual(warned(once));
  });

  it.each([
    ['Merge', 'target-name-unsafe'],
    ['CreateOrMerge', 'target-name-unsafe'],
    ['None', 'target-name-unsafe'],
  ])('creationPolicy %s: the name is kept, with a warning', (policy, rule) => {
    const merge = externalSecret('db', {
      namespace: 'shop',
      target: `db\n    creationPolicy: ${policy}`,
    });
    const list = resourceList([merge, deployment('api', envFrom('db'), { namespace: 'shop' })]);
    const out = runOk(list, hashed).stdout;
    expect(targetOf(itemsOf(out))).toBe('db');
    expect(out).not.toContain(base);
    const result = resultsOf(out).find((r) => (r.tags as Obj).rule === rule);
    expect(result?.severity).toBe('warning');
  });

  it('creationPolicy Orphan: renamed, with a warning that ESO keeps the previous Secret', () => {
    const orphan = externalSecret('db', {
      namespace: 'shop',
      target: 'db\n    creationPolicy: Orphan',
    });
    const out = runOk(resourceList([orphan]), hashed).stdout;
    expect(targetOf(itemsOf(out))).toMatch(/^db-/);
    expect(resultsOf(out).map((r) => (r.tags as Obj).rule)).toContain('target-name-orphans');
  });

  it('a ClusterExternalSecret keeps its names, with an info saying why', () => {
    const ces = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: db
spec:
  namespaceSelectors:
  - matchLabels: {team: shop}
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    data:
    - secretKey: password
      remoteRef: {key: db, version: "1"}
`;
    const namespaces = ['shop', 'shop-b'].map(
      (name) =>
        `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels: {team: shop}\n`,
    );
    const list = resourceList([
      ...namespaces,
      ces,
      deployment('api', envFrom('db'), { namespace: 'shop' }),
    ]);
    const out = runOk(list, hashed).stdout;
    expect(out).not.toContain(base);
    const rules = resultsOf(out).map((r) => (r.tags as Obj).rule);
    expect(rules.filter((rule) => rule === 'target-name-kept')).toHaveLength(1);
  });

  it("rewrites another ExternalSecret's templateFrom read, whose name follows the Secret it reads", () => {
    const reader = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: dsn
  namespace: shop
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target:
    template:
      templateFrom:
      - secret:
          name: db
          items: [{key: password}]
  data:
  - secretKey: host
    remoteRef: {key: db/host, version: "1"}
`;
    const list = resourceList([
      es,
      reader,
      deployment('api', envFrom('dsn'), { namespace: 'shop' }),
    ]);
    const once = runOk(list, hashed).stdout;
    const items = itemsOf(once);
    const template = ((find(items, 'ExternalSecret', 'dsn').spec as Obj).target as Obj)
      .template as Obj;
    const read = (template.templateFrom as Obj[])[0]?.secret as Obj;
    expect(read.name).toBe(targetOf(items));
    expect(runOk(once, hashed).stdout).toBe(once);
    // The Secret it renders from has a new content: both names move, a pod never starts on the
    // DSN rendered from the old password.
    const moved = itemsOf(runOk(once.replace('version: "1"', 'version: "2"'), hashed).stdout);
    expect(targetOf(moved)).not.toBe(targetOf(items));
    expect(targetOf(moved, 'dsn')).not.toBe(targetOf(items, 'dsn'));
  });

  it('check mode reports each rename a render would make', () => {
    const out = run(input, { settings: { ...hashed, mode: 'check' } });
    expect(out.exitCode).toBe(1);
    const fields = resultsOf(out.stdout).map((r) => (r.field as Obj | undefined)?.path);
    expect(fields).toContain('spec.target[name]');
    expect(fields).toContain('spec.template.spec.imagePullSecrets[0][name]');
  });
});

describe('targetNames: hashed, in every layout', () => {
  // Flow lists, quoted names, an anchor with its alias, a JSON document in the stream.
  const text = readFileSync(path.join(repoRoot, 'testdata/target-names-layouts.yaml'), 'utf8');

  it('rewrites each name where it stands, keeping its quotes, and nothing else', () => {
    const out = run(text, { settings: hashed });
    expect(out.exitCode).toBe(0);
    const name = /name: "(db-[2-9b-df-z]{10})"/.exec(out.stdout)?.[1] as string;
    expect(name).toBeDefined();
    for (const line of [
      `      imagePullSecrets: [{name: "${name}"}, {name: other}]`,
      `      - {name: a, image: a, envFrom: [{secretRef: {name: '${name}'}}]}`,
      `              name: &n ${name}   # anchored`,
      // The alias is replaced by the value: the anchor it named now holds the new name too.
      `            secretKeyRef: {key: p, name: "${name}"}`,
      `   "envFrom": [{"secretRef": {"name": "${name}"}}]}]}}}}`,
    ]) {
      expect(out.stdout.split('\n')).toContain(line);
    }
    expect(out.stdout.match(/\bdb\b(?!-)/g)).toEqual(['db', 'db']); // the ExternalSecret's own
    expect(run(out.stdout, { settings: hashed }).stdout).toBe(out.stdout);
  });
});

describe('the suffix', () => {
  it("is kustomize's: ten hex digits of the SHA-256, 0 1 3 a e written g h k m t", () => {
    // SHA-256 of the empty string starts e3b0c44298 (FIPS 180-2 test vector).
    expect(createHash('sha256').update('').digest('hex').slice(0, 10)).toBe('e3b0c44298');
    expect(hashSuffix('')).toBe('tkbgc44298');
  });
});

describe('targetNames: hashed, on random inputs', () => {
  // The property tests' generator (test/property/gen.ts): ExternalSecrets, stores and workloads of
  // every kind, written in varied styles, as a stream.
  const layout = { tape: [0], crlf: false, finalNewline: true };
  const sourceName = (item: Obj) =>
    // An empty target.name is unset, for ESO as here.
    (((item.spec as Obj | undefined)?.target as Obj | undefined)?.name as string | undefined) ||
    ((item.metadata as Obj).name as string);
  const namesOf = (item: Obj): (string | undefined)[] => {
    const at = templatePathOf(item.kind as string, item.apiVersion as string);
    const podSpec = at && getAt(item as never, [...at.slice(0, -1), 'spec']);
    // A PodSpec without containers is no pod template (shapes.ts), as for checksums.
    if (!podSpec || typeof podSpec !== 'object' || Array.isArray(podSpec)) return [];
    if (!('containers' in podSpec)) return [];
    return secretUses(podSpec as never, []).map((use) =>
      use.kind === 'Secret' ? use.secretName : undefined,
    );
  };

  it('every reference names the new name of what it named, nothing else moves, a second run changes nothing', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const text = renderStream(
          s.items.map((i) => i.value),
          layout,
        );
        const settings = { ...settingsOf(s), ...hashed };
        const out = run(text, { settings });
        const plain = run(text, settingsOf(s) ? { settings: settingsOf(s) } : {});
        expect(out.exitCode).toBe(plain.exitCode);
        if (out.exitCode !== 0) return;
        expect(run(out.stdout, { settings }).stdout).toBe(out.stdout);
        const before = readBack(text, 'stream').items;
        const after = readBack(out.stdout, 'stream').items;
        // Old name → new name, per namespace, of each ExternalSecret the run hashed.
        const renamed = new Map<string, string>();
        before.forEach((item, i) => {
          const now = after[i] as Obj;
          if (item.kind !== 'ExternalSecret' || !annotationsOf(now)?.[base]) return;
          const ns = (item.metadata as Obj).namespace ?? '';
          renamed.set(`${ns}/${sourceName(item)}`, sourceName(now));
        });
        before.forEach((item, i) => {
          const ns = (item.metadata as Obj | undefined)?.namespace ?? '';
          const want = namesOf(item).map((n) => (n && renamed.get(`${ns}/${n}`)) ?? n);
          expect(namesOf(after[i] as Obj)).toEqual(want);
        });
      }),
      { numRuns: 60, seed: 20261126 },
    );
  });
});

describe('targetNames: hashed, many references in one item', () => {
  // 80 KB, one Deployment of 1000 flow-style references, took 53 s: each reference's edit read
  // the whole item again with the yaml library (a quadratic cost). Counted, not timed.
  const { Composer } = createRequire(import.meta.url)('yaml') as {
    Composer: { prototype: { compose: () => unknown } };
  };
  const input = (n: number) => {
    const env = Array.from(
      { length: n },
      (_, i) => `- {name: E${i}, valueFrom: {secretKeyRef: {name: db, key: k}}}`,
    );
    return `${es}\n---\n${deployment('api', `env:\n${env.join('\n')}`, { namespace: 'shop' })}`;
  };
  const reads = (n: number) => {
    const compose = vi.spyOn(Composer.prototype, 'compose');
    const out = runOk(input(n), hashed).stdout;
    const count = compose.mock.calls.length;
    compose.mockRestore();
    return { out, count };
  };

  it('reads the item with the yaml library a number of times that does not grow with them', () => {
    const few = reads(20);
    const many = reads(200);
    expect(many.out.match(/name: db-[2-9b-df-z]{10}, key: k/g)).toHaveLength(200);
    expect(many.count).toBe(few.count);
  });
});
