// Shared steps of the per-source tests: render, read checksums and waves, check that nothing but
// our annotation lines changed, and check error results.
import { expect } from 'vitest';
import { run } from '../../src/run.js';
import {
  checksumKey,
  find,
  insertedLines,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
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
    expect(ours || /^\s+(metadata|annotations):$/.test(line), line).toBe(true);
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
