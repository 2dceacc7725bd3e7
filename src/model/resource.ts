// A parsed item with the few metadata fields every rule needs, checked once at the edge so the rest
// of the core can trust them.

import type { FactsOf, ResourceFacts } from './facts.js';
import { isObject, type Json, type JsonObject } from './json.js';
import { grouped } from './numbers.js';
import { fieldPath } from './path.js';
import { effectiveNamespace, groupOf } from './scope.js';

export interface Resource {
  /** Position of the item in the input list; edits and results refer to items by it. */
  readonly index: number;
  readonly value: JsonObject;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** Its own, else the defaultNamespace option's for a namespaced kind (model/scope.ts). */
  readonly namespace: string | undefined;
  readonly annotations: Readonly<Record<string, string>>;
  readonly file: { path: string; index?: number } | undefined;
  /**
   * Its pod templates' references read as facts (model/facts.ts), its PodSpecs taken out of
   * `value`; absent, the rules walk `value`.
   */
  readonly facts?: ResourceFacts | undefined;
}

export class ItemError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Which parts of an item's value a reader builds: `true` all of it, a map the keys listed (each
 * with its own projection; a list's elements share the list's). Keys not listed are left out.
 */
export type Projection = true | ReadonlyMap<string, Projection>;

/**
 * Validates the envelope of an item (`apiVersion`, `kind`, `metadata`) and wraps it. `nodeBound`:
 * a known upper bound of the value's node count; the alias-bomb walk is skipped below maxNodes.
 * `defaultNamespace`: where a namespace-less namespaced item lives (model/scope.ts); the value
 * keeps what it says. `facts`: the read plan's, for an item it projected. `listFile`: the file of
 * the List the item is an entry of, where its own annotations name none (a kpt package's List).
 */
export function toResource(
  index: number,
  value: unknown,
  nodeBound = Number.POSITIVE_INFINITY,
  defaultNamespace?: string,
  facts?: FactsOf,
  listFile?: Resource['file'],
): Resource {
  if (!isObject(value)) {
    throw new ItemError(`item is ${describeType(value)}, not a mapping`);
  }
  const apiVersion = value.apiVersion;
  const kind = value.kind;
  if (typeof apiVersion !== 'string' || apiVersion === '') {
    throw new ItemError('item has no apiVersion string', 'apiVersion');
  }
  if (typeof kind !== 'string' || kind === '') {
    throw new ItemError('item has no kind string', 'kind');
  }
  const metadata = value.metadata ?? {};
  if (!isObject(metadata)) {
    throw new ItemError(`metadata is ${describeType(metadata)}, not a mapping`, 'metadata');
  }
  const name = metadata.name ?? '';
  if (typeof name !== 'string')
    throw new ItemError('metadata.name is not a string', 'metadata.name');
  const namespace = metadata.namespace ?? undefined;
  if (namespace !== undefined && typeof namespace !== 'string') {
    throw new ItemError('metadata.namespace is not a string', 'metadata.namespace');
  }
  const annotations = readAnnotations(metadata.annotations, 'metadata.annotations');
  if (nodeBound > maxNodes) assertBounded(value);
  const trimmed = apiVersion.trim();
  return {
    index,
    value,
    apiVersion: trimmed,
    kind,
    name,
    namespace: effectiveNamespace(apiVersion, kind, namespace || undefined, defaultNamespace),
    annotations,
    file: fileOf(annotations) ?? listFile,
    // Last: the facts take the PodSpecs out of the value the checks above read.
    facts: facts?.(value, trimmed, kind),
  };
}

export function readAnnotations(value: Json | undefined, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value))
    throw new ItemError(`${field} is ${describeType(value)}, not a mapping`, field);
  // An index loop: with inlining off (large inputs), for-of allocated an iterator result per key.
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const v = value[key];
    if (typeof v !== 'string') {
      const at = fieldPath([field], key);
      throw new ItemError(`${at} is ${describeType(v)}, not a string`, at);
    }
  }
  return value as Record<string, string>;
}

/**
 * The file of an item that is not a valid resource, from whichever path annotations it has, so its
 * error result names the file as every other result does.
 */
export function fileOfItem(value: unknown): Resource['file'] {
  const metadata = isObject(value) ? value.metadata : undefined;
  const annotations = isObject(metadata) ? metadata.annotations : undefined;
  return isObject(annotations) ? fileOf(annotations) : undefined;
}

/** kpt's path annotations (the internal one first); values that are not strings count as absent. */
function fileOf(annotations: Readonly<Record<string, Json | undefined>>): Resource['file'] {
  const text = (key: string) => {
    const v = annotations[key];
    return typeof v === 'string' ? v : undefined;
  };
  const path = text('internal.config.kubernetes.io/path') ?? text('config.kubernetes.io/path');
  if (path === undefined) return undefined;
  const index = Number(
    text('internal.config.kubernetes.io/index') ?? text('config.kubernetes.io/index'),
  );
  return Number.isInteger(index) && index > 0 ? { path, index } : { path };
}

/** One object among those of a kind: `kind/namespace/name` (no namespace: cluster-scoped). */
export const objectKey = (kind: string, namespace: string | undefined, name: string) =>
  `${kind}/${namespace ?? ''}/${name}`;

/** One object of the cluster, whatever the version it is written in (`apps/v1`, `apps/v1beta2`). */
export const clusterObjectKey = (
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
) => `${groupOf(apiVersion)}/${objectKey(kind, namespace, name)}`;

/**
 * A kind as Kubernetes names types: a letter, then letters and digits, at most 63 (a CRD's kind
 * lower-cased is a DNS-1035 label). Messages may name such a kind; any other text is not quoted.
 */
export const isKindName = (text: string) => /^[A-Za-z][A-Za-z0-9]{0,62}$/.test(text);
/** What a field failing isKindName is said to be (the text itself is never quoted). */
export const notKindName =
  'is not a Kubernetes kind (a letter, then letters or digits, at most 63)';

/** What a value is, never what it says: it can be a Secret's value, or a file's first line. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

/** More nodes than any real manifest has: past it, the item is a YAML alias bomb. */
export const maxNodes = 1_000_000;

/**
 * YAML aliases share nodes, so a few lines can expand to billions of them ("billion laughs");
 * every walk of the function would then explode. Counts nodes as walks see them, iteratively.
 */
function assertBounded(value: Json): void {
  const stack: Json[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop() as Json;
    if (++count > maxNodes) {
      throw new ItemError(
        `item expands to more than ${grouped(maxNodes)} nodes (a YAML alias bomb?)`,
      );
    }
    // One push per element: a spread passes a list's elements as arguments, past ≈120k a RangeError.
    // Index loops: with inlining off (large inputs), for-of allocated an iterator result per node.
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) stack.push(node[i] as Json);
    else if (isObject(node)) {
      const children = Object.values(node);
      for (let i = 0; i < children.length; i++) stack.push(children[i] as Json);
    }
  }
}

/** What is known of an item copied through unparsed, read from its lines. */
export interface Bystander {
  apiVersion: string;
  kind: string;
  name: string | undefined;
  namespace: string | undefined;
}
