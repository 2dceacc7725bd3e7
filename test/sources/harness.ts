// Shared steps of the per-source tests: render, read checksums and waves, check that nothing but
// our annotation lines changed, and check error results; and the tests every source kind has
// (sourceTests), so that a test file keeps only what is specific to its kind.
import { expect, it } from 'vitest';
import { run } from '../../src/run.js';
import {
  checksumKey,
  deployment,
  envFrom,
  find,
  insertedLines,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
  secretKeyRef,
  templateAnnotation,
  wave,
  waveKey,
} from '../helpers.js';

type Obj = Record<string, unknown>;
export type Options = Readonly<Record<string, string>>;

/** The function-input ConfigMap for `options` (none: no functionConfig). */
function functionConfig(options: Options): string | undefined {
  const entries = Object.entries(options);
  if (entries.length === 0) return undefined;
  const data = entries.map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`).join('');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\ndata:\n${data}`;
}

export interface Rendered {
  input: string;
  /** The output items, without the results. */
  output: string;
  items: Obj[];
  results: Obj[];
}

export function render(items: readonly string[], options: Options = {}): Rendered {
  const input = resourceList(items, functionConfig(options));
  const stdout = runOk(input).stdout;
  const end = stdout.search(/^results:/m);
  return {
    input,
    output: end < 0 ? stdout : stdout.slice(0, end),
    items: itemsOf(stdout),
    results: resultsOf(stdout),
  };
}

const hasTemplate = (item: Obj) =>
  (item.spec as Obj | undefined)?.template !== undefined ||
  (item.spec as Obj | undefined)?.jobTemplate !== undefined;

/** The checksum (annotation `key`) of every workload, by `namespace/name`. */
export function checksums(
  items: readonly string[],
  options: Options = {},
  key = checksumKey,
): Record<string, string | undefined> {
  return Object.fromEntries(
    render(items, options)
      .items.filter(hasTemplate)
      .map((item) => {
        const meta = item.metadata as { name: string; namespace?: string };
        return [`${meta.namespace ?? ''}/${meta.name}`, templateAnnotation(item, key)];
      }),
  );
}

/** The workloads (`namespace/name`) that carry a checksum under `key`. */
export function annotated(items: readonly string[], options: Options = {}, key = checksumKey) {
  const sums = checksums(items, options, key);
  return Object.keys(sums).filter((k) => sums[k] !== undefined);
}

/** The workloads whose checksum under `key` differs between two inputs. */
export function moved(
  before: readonly string[],
  after: readonly string[],
  options: Options = {},
  key = checksumKey,
): string[] {
  const a = checksums(before, options, key);
  const b = checksums(after, options, key);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
}

export function waveOf(rendered: Rendered, kind: string, name: string): string | undefined {
  return wave(find(rendered.items, kind, name));
}

/** The run only inserted annotation lines with these keys (and their `metadata:`/`annotations:`). */
export function expectOnlyAnnotationLines(
  rendered: Rendered,
  keys: readonly string[] = [checksumKey, waveKey],
): void {
  const inserted = insertedLines(rendered.input, rendered.output).filter((l) => l !== '');
  expect(inserted.length).toBeGreaterThan(0);
  for (const line of inserted) {
    const ours = keys.some((k) => line.trim().startsWith(`${k}: "`));
    // The mappings an edit creates on its way (a ClusterExternalSecret's externalSecretMetadata).
    const created = /^\s+(metadata|externalSecretMetadata|annotations):$/.test(line);
    expect(ours || created, line).toBe(true);
  }
}

/** The run fails with an error result naming `field`; items are left as they came in. */
export function expectError(
  items: readonly string[],
  field: string,
  message: string,
  options: Options = {},
): string {
  const input = resourceList(items, functionConfig(options));
  const out = run(input);
  expect(out.exitCode).toBe(1);
  expect(out.stdout.startsWith(input)).toBe(true);
  const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
  expect(errors).toContainEqual(
    expect.objectContaining({
      message: expect.stringContaining(message),
      field: { path: field },
    }),
  );
  return out.stdout.slice(input.length);
}

/** Messages of the results about the resource `kind name`. */
export function messagesAbout(rendered: Rendered, kind: string, name: string): string[] {
  return rendered.results
    .filter((r) => {
      const ref = r.resourceRef as { kind: string; name: string } | undefined;
      return ref?.kind === kind && ref.name === name;
    })
    .map((r) => r.message as string);
}

/** ConfigMap references, like helpers' envFrom and secretKeyRef for Secrets. */
export const configMapEnv = (name: string) => `envFrom:\n- configMapRef: {name: ${name}}`;
export const configMapKeyEnv = (name: string, key: string) =>
  `env:\n- name: X\n  valueFrom:\n    configMapKeyRef: {name: ${name}, key: ${key}}`;

/** A Deployment `namespace/name` reading all of Secret `secret`, or only its `key`. */
export function reader(at: string, secret: string, key?: string, wave?: string): string {
  const [namespace, name = ''] = at.split('/');
  const ref = key === undefined ? envFrom(secret) : secretKeyRef(secret, key);
  return deployment(name, ref, wave === undefined ? { namespace } : { namespace, wave });
}

/** Readers of Secret `secret`: all of it and its `key` in shop, all of it in namespace other. */
export const secretReaders = (secret: string, key = 'password') => [
  reader('shop/all-keys', secret),
  reader('shop/one-key', secret, key),
  reader('other/elsewhere', secret),
];
/** The readers of `secretReaders` that a Secret in shop reaches. */
export const shopReaders = ['shop/all-keys', 'shop/one-key'];

/** The run on `items` warns with a message containing `fragment`. */
export function expectWarning(items: readonly string[], fragment: string): void {
  expect(render(items).results).toContainEqual(
    expect.objectContaining({ severity: 'warning', message: expect.stringContaining(fragment) }),
  );
}

/** A source object under test. */
export interface Subject {
  kind: string;
  name: string;
  /** Its manifest as the tests start from. */
  text: string;
  /** The input around a manifest of it (by default `text`). */
  world: (text?: string) => string[];
}

export interface Checksummed {
  /** The workloads that get a checksum, in input order. */
  consumers: readonly string[];
  /** The source's sync wave; -1 unless said. */
  wave?: string;
  /** Workloads that get one and the same checksum (the source's keys are not narrowed). */
  same?: readonly string[];
  /** Parts of messages about the source. */
  notes?: readonly string[];
  /** Further checks of the rendered input. */
  more?: (rendered: Rendered) => void;
}

/** [what changes, the source text replaced, its replacement] */
type Change = [string, string, string];
/** [a malformed source text, the field reported, a part of the message] */
type Malformed = [string, string, string];

/** The tests every source kind has, on `subject.world()`. */
export function sourceTests({ kind, name, text, world }: Subject) {
  return {
    /** The source checksums exactly `consumers`, gets its wave and inserts only annotation lines. */
    itChecksums(title: string, c: Checksummed): void {
      it(title, () => {
        const rendered = render(world());
        expect(annotated(world())).toEqual(c.consumers);
        if (c.same) {
          const sums = checksums(world());
          const [first = '', ...rest] = c.same;
          for (const other of rest) expect(sums[other]).toBe(sums[first]);
        }
        expect(waveOf(rendered, kind, name)).toBe(c.wave ?? '-1');
        expectOnlyAnnotationLines(rendered);
        for (const note of c.notes ?? []) {
          expect(messagesAbout(rendered, kind, name)).toContainEqual(expect.stringContaining(note));
        }
        c.more?.(rendered);
      });
    },
    /** One test a change of `text` (`%s` is what changes): it moves exactly `expected`. */
    itMovesOn(title: string, expected: readonly string[], changes: Change[]): void {
      it.each(changes)(title, (_, from, to) => {
        expect(moved(world(), world(text.replace(from, to)))).toEqual(expected);
      });
    },
    /** Each of the `changed` texts moves no checksum. */
    itMovesNone(title: string, ...changed: string[]): void {
      it(title, () => {
        for (const after of changed) expect(moved(world(), world(after))).toEqual([]);
      });
    },
    /** One test a malformed text: an error result naming the field; `more` checks the results. */
    itReportsMalformed(cases: Malformed[], more?: (results: string) => void): void {
      it.each(cases)('reports a malformed field: %#', (malformed, field, message) => {
        const results = expectError(world(malformed), field, message);
        more?.(results);
      });
    },
  };
}
