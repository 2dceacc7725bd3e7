// Where a chart's values name a Secret or ConfigMap its pods read, as data beside the PodSpec's
// table (references.ts): charts pass such values into their pod templates, mostly through `tpl`
// (bjw-s app-template), so the last keys of a value's path say what it names. A value matches
// only if it is a plain name once the Helm built-ins known from the HelmRelease are substituted
// (docs/helm-release.md has the table and its limits).
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { each, type Path, parsePath, type Trail } from '../../model/path.js';
import type { KeySet, ProducedKind } from './references.js';

export interface ValueReference {
  kind: Extract<ProducedKind, 'Secret' | 'ConfigMap'>;
  /** The last keys of the value's path (`[]`: any list position). */
  tail: string;
  /** Only where the mapping holding the value has these fields (app-template persistence). */
  when?: Readonly<Record<string, string>>;
  /** The field beside the name that names the one key read; else the whole Secret. */
  keyField?: string;
}

export const valueReferences: readonly ValueReference[] = [
  // A container's env and envFrom, written as the PodSpec writes them (app-template, most charts).
  { kind: 'Secret', tail: 'secretKeyRef.name', keyField: 'key' },
  { kind: 'Secret', tail: 'secretRef.name' },
  { kind: 'ConfigMap', tail: 'configMapKeyRef.name', keyField: 'key' },
  { kind: 'ConfigMap', tail: 'configMapRef.name' },
  // app-template's shorthand, `envFrom: [{secret: name}]` (common library, _envFrom.tpl).
  { kind: 'Secret', tail: 'envFrom[].secret' },
  { kind: 'ConfigMap', tail: 'envFrom[].configMap' },
  // A volume's Secret, as the PodSpec writes it.
  { kind: 'Secret', tail: 'secretName' },
  // app-template's persistence entries: `{type: secret, name: …}`.
  { kind: 'Secret', tail: 'name', when: { type: 'secret' } },
  { kind: 'ConfigMap', tail: 'name', when: { type: 'configMap' } },
  // The convention of Bitnami and many other charts: a Secret the user made, by name.
  { kind: 'Secret', tail: 'existingSecret' },
  { kind: 'Secret', tail: 'existingSecretName' },
  { kind: 'ConfigMap', tail: 'existingConfigMap' },
  // Charts' own keys, mounted as a volume: democratic-csi's driver config, 1Password Connect's
  // credentials file (docs/helm-release.md has the chart files read).
  { kind: 'Secret', tail: 'existingConfigSecret' },
  { kind: 'Secret', tail: 'connect.credentialsName', keyField: 'credentialsKey' },
];

const tails: readonly Path[] = valueReferences.map((r) => parsePath(r.tail));

/** A value that names a Secret or ConfigMap, before the built-ins are substituted. */
export interface ValueRead {
  row: ValueReference;
  /** The value as written. */
  text: string;
  /** Where it is, from the values' root. */
  trail: Trail;
  keys: KeySet;
}

/** Whether `trail` ends with the table's `tail` (an `each` step matches any list position). */
function endsWith(trail: Trail, tail: Path): boolean {
  if (tail.length > trail.length) return false;
  const start = trail.length - tail.length;
  return tail.every((step, i) =>
    step === each ? typeof trail[start + i] === 'number' : trail[start + i] === step,
  );
}

/** Every string of `values` at a path the table names, in document order. */
export function valueReads(values: Json | undefined): ValueRead[] {
  const reads: ValueRead[] = [];
  const trail: (string | number)[] = [];
  const visit = (node: Json, parent: JsonObject | undefined) => {
    if (typeof node === 'string') {
      if (parent) matchAt(node, parent);
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        trail.push(i);
        visit(child, undefined);
        trail.pop();
      });
      return;
    }
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      trail.push(key);
      visit(child, node);
      trail.pop();
    }
  };
  const matchAt = (text: string, parent: JsonObject) => {
    const row = valueReferences.findIndex(
      (ref, i) =>
        endsWith(trail, tails[i] as Path) &&
        Object.entries(ref.when ?? {}).every(([k, v]) => parent[k] === v),
    );
    const ref = valueReferences[row];
    if (!ref) return;
    const key = ref.keyField === undefined ? undefined : parent[ref.keyField];
    const keys: KeySet = typeof key === 'string' ? new Set([key]) : 'all';
    reads.push({ row: ref, text, trail: [...trail], keys });
  };
  visit(values ?? null, undefined);
  return reads;
}

/** The built-ins a value may use, by their expression: `.Release.Name` → the release's name. */
export type BuiltIns = ReadonlyMap<string, string>;

/** `{{ .Release.Name }}`, `{{- $.Release.Name -}}`, with the whitespace its dashes trim. */
const action = /(\s*)\{\{(-\s)?\s*\$?(\.[A-Za-z.]*?)\s*(\s-)?\}\}(\s*)/g;

/**
 * The value with the built-ins substituted, and those used; undefined when it holds any other
 * template text (a pipeline, a variable, a value we cannot know), which never matches.
 */
export function substitute(
  text: string,
  builtIns: BuiltIns,
): { name: string; used: string[] } | undefined {
  if (!text.includes('{{')) return { name: text, used: [] };
  const used: string[] = [];
  let unknown = false;
  const name = text.replace(action, (_all, before, trimLeft, expression, trimRight, after) => {
    const value = builtIns.get(expression);
    if (value === undefined) unknown = true;
    else if (!used.includes(expression)) used.push(expression);
    return `${trimLeft ? '' : before}${value ?? ''}${trimRight ? '' : after}`;
  });
  return unknown || name.includes('{{') || name.includes('}}') ? undefined : { name, used };
}
