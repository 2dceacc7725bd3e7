// Where a chart's values name a Secret or ConfigMap its pods read, as data beside the PodSpec's
// table (references.ts): charts pass such values into their pod templates, mostly through `tpl`
// (bjw-s app-template), so the last keys of a value's path say what it names. A value matches
// only if it is a plain name once the Helm built-ins known from the HelmRelease are substituted
// (docs/helm-release.md has the table and its limits).
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { each, type Keys, type Path, parsePath, type Trail } from '../../model/path.js';
import { ItemError } from '../../model/resource.js';
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

/**
 * The longest path under spec.values a result names, in characters as printed (`a.b[0].c`). Keys
 * are free text, as long as the input makes them: each result naming a path of the input's size
 * would make the output quadratic in it (many reads or Reloader annotations under one long key).
 * Charts' paths are under a hundred characters.
 */
export const maxValuesPath = 4096;

/** A key whose mapping a chart writes as annotations: `annotations`, `podAnnotations`, …. */
export const isAnnotationsKey = (key: string) =>
  key === 'annotations' || key.endsWith('Annotations');

/** The error for a read or an annotations mapping at a longer path: it names no key. */
const valuesPathTooLong = () =>
  new ItemError(
    `spec.values names a Secret or holds annotations at a path longer than ${maxValuesPath} characters, which no result can name: shorten its keys`,
    'spec.values',
  );

/** An annotations mapping in spec.values, with its path (`spec.values.….podAnnotations`). */
export interface ValuesAnnotations {
  readonly at: Keys;
  readonly annotations: Record<string, Json>;
}

/** A key of a path, after the steps above it: the paths below share it. */
interface Step {
  readonly key: string;
  readonly up: Step | undefined;
}

/**
 * An annotations mapping found, its path written out only when asked (a result names it): a
 * copy of the path per mapping kept the square of the nesting in each item (bench/adversarial
 * values-annotations: 2 MB held 1 GiB).
 */
class FoundAnnotations implements ValuesAnnotations {
  constructor(
    private readonly step: Step,
    readonly annotations: Record<string, Json>,
  ) {}

  get at(): Keys {
    const keys: string[] = [];
    for (let s: Step | undefined = this.step; s; s = s.up) keys.push(s.key);
    return ['spec', 'values', ...keys.reverse()];
  }
}

/** What one walk of a HelmRelease's spec.values finds, for the consumers stage and the lints. */
export interface ValuesFound {
  /** Every string at a path the table names, in document order. */
  reads: readonly ValueRead[];
  /**
   * Every mapping under an `annotations` key, or a key ending in `Annotations`, on a path of
   * mappings only (charts take pod annotations from mappings of options, not from lists) and
   * within maxValuesPath, in document order.
   */
  annotations: readonly ValuesAnnotations[];
  /** A read or an annotations mapping at a path longer than maxValuesPath: an item error. */
  tooLong: boolean;
}

/** Each HelmRelease's values walked once, for the stage that reads them and the lint. */
const walked = new WeakMap<object, ValuesFound>();
const nothing: ValuesFound = { reads: [], annotations: [], tooLong: false };

/** What `values` (a HelmRelease's spec.values) holds: walked on the first call only. */
export function valuesFound(values: Json | undefined): ValuesFound {
  if (typeof values !== 'object' || values === null) return nothing;
  let found = walked.get(values);
  if (found === undefined) {
    found = walkValues(values);
    walked.set(values, found);
  }
  return found;
}

/** The reads valuesFound finds; an item error when one is past maxValuesPath. */
export function valueReads(values: Json | undefined): readonly ValueRead[] {
  const found = valuesFound(values);
  if (found.tooLong) throw valuesPathTooLong();
  return found.reads;
}

function walkValues(values: JsonObject | Json[]): ValuesFound {
  const reads: ValueRead[] = [];
  const annotations: ValuesAnnotations[] = [];
  let tooLong = false;
  const trail: (string | number)[] = [];
  // The trail's keys as shared steps, made only as far as a found mapping needs (`made` of them
  // are the trail's): no list is entered on a path annotations are kept for.
  const steps: Step[] = [];
  let made = 0;
  const stepsTo = (length: number): Step => {
    for (; made < length; made++) {
      steps[made] = { key: trail[made] as string, up: made === 0 ? undefined : steps[made - 1] };
    }
    return steps[length - 1] as Step;
  };
  let printed = 0; // the trail's length as fieldPath writes it
  let lists = 0; // the lists on the trail
  const visit = (node: Json, parent: JsonObject | undefined) => {
    if (typeof node === 'string') {
      if (parent) matchAt(node, parent);
      return;
    }
    if (Array.isArray(node)) {
      lists++;
      node.forEach((child, i) => {
        const step = String(i).length + 2;
        trail.push(i);
        printed += step;
        visit(child, undefined);
        printed -= step;
        trail.pop();
      });
      lists--;
      return;
    }
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      trail.push(key);
      printed += key.length + 1;
      // The double-restart lint names such a mapping, which no result can past the bound.
      if (isAnnotationsKey(key) && isObject(child)) {
        if (printed > maxValuesPath) tooLong = true;
        else if (lists === 0) annotations.push(new FoundAnnotations(stepsTo(trail.length), child));
      }
      visit(child, node);
      printed -= key.length + 1;
      trail.pop();
      if (made > trail.length) made = trail.length;
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
    if (printed > maxValuesPath) {
      tooLong = true;
      return;
    }
    const key = ref.keyField === undefined ? undefined : parent[ref.keyField];
    const keys: KeySet = typeof key === 'string' ? new Set([key]) : 'all';
    reads.push({ row: ref, text, trail: [...trail], keys });
  };
  visit(values, undefined);
  return { reads, annotations, tooLong };
}

/** The built-ins a value may use, by their expression: `.Release.Name` → the release's name. */
export type BuiltIns = ReadonlyMap<string, string>;

/**
 * The value with the built-ins substituted, and those used; undefined when it holds any other
 * template text (a pipeline, a variable, a value we cannot know), which never matches. Each
 * `{{ … }}` is found with indexOf and read on its own, so every character of the value is looked
 * at a bounded number of times (a regular expression that began with a whitespace run took time
 * quadratic in a run of spaces before a `{{`); `meter` counts them for the tests.
 */
export function substitute(
  text: string,
  builtIns: BuiltIns,
  meter?: { visited: number },
): { name: string; used: string[] } | undefined {
  if (meter) meter.visited += text.length; // the search for a first `{{`
  if (!text.includes('{{')) return { name: text, used: [] };
  const used: string[] = [];
  let name = '';
  let from = 0; // where the text not yet copied starts
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', from)) {
    const close = text.indexOf('}}', open + 2);
    if (meter) meter.visited += (close === -1 ? text.length : close + 2) - from;
    if (close === -1) return undefined;
    const action = builtInAction(text.slice(open + 2, close));
    const value = action && builtIns.get(action.expression);
    if (!action || value === undefined) return undefined;
    if (!used.includes(action.expression)) used.push(action.expression);
    let end = open;
    if (action.trimLeft) while (end > from && isGoSpace(text.charAt(end - 1))) end--;
    name += text.slice(from, end) + value;
    from = close + 2;
    if (action.trimRight) {
      const start = from;
      while (from < text.length && isGoSpace(text.charAt(from))) from++;
      if (meter) meter.visited += from - start;
    }
  }
  if (meter) meter.visited += text.length - from;
  name += text.slice(from);
  return name.includes('{{') || name.includes('}}') ? undefined : { name, used };
}

/**
 * White space as Go templates define it, for trim markers and what they trim: space, tab, CR and
 * LF only (text/template doc.go, "Text and spaces"); JavaScript's \s and trim() also take
 * U+00A0, U+2028 and the like, which Go keeps in the rendered name.
 */
const isGoSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/**
 * An action's text between `{{` and `}}` read as `[- ][$].Field.Path[ -]`, the dashes Go's trim
 * markers (a dash and an ASCII space); undefined for anything else.
 */
function builtInAction(
  body: string,
): { expression: string; trimLeft: boolean; trimRight: boolean } | undefined {
  const trimLeft = body.startsWith('-') && isGoSpace(body.charAt(1));
  const trimRight = body.endsWith('-') && isGoSpace(body.charAt(body.length - 2));
  let start = trimLeft ? 2 : 0;
  let end = body.length - (trimRight ? 2 : 0);
  while (start < end && isGoSpace(body.charAt(start))) start++;
  while (end > start && isGoSpace(body.charAt(end - 1))) end--;
  const inner = body.slice(start, end);
  const expression = inner.startsWith('$.') ? inner.slice(1) : inner;
  return /^(\.[A-Za-z]+)+$/.test(expression) ? { expression, trimLeft, trimRight } : undefined;
}
