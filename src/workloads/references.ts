// Which PodSpec fields name a Secret, as data (like kustomize's nameReference table): a path of
// field names where `[]` steps into every list element, the field holding the Secret's name, and
// which keys the reference reads.
import { describeType, ItemError, isObject, type Json, type JsonObject } from '../resource.js';
import type { KeySet } from '../sources/source.js';

export interface SecretReference {
  /** Path from the PodSpec to the reference object. */
  path: string;
  /** Field of the reference object holding the Secret name. */
  nameField: string;
  /** Which keys it reads: one key field, a list of `items[].key`, or the whole Secret. */
  keys: { field: string } | { items: string } | 'all';
  /** Only when the option of that name is on. */
  optIn?: 'imagePullSecrets';
}

const containerLists = ['containers', 'initContainers', 'ephemeralContainers'];

export const secretReferences: readonly SecretReference[] = [
  ...containerLists.flatMap((list): SecretReference[] => [
    { path: `${list}[].env[].valueFrom.secretKeyRef`, nameField: 'name', keys: { field: 'key' } },
    { path: `${list}[].envFrom[].secretRef`, nameField: 'name', keys: 'all' },
  ]),
  { path: 'volumes[].secret', nameField: 'secretName', keys: { items: 'items' } },
  { path: 'volumes[].projected.sources[].secret', nameField: 'name', keys: { items: 'items' } },
  { path: 'imagePullSecrets[]', nameField: 'name', keys: 'all', optIn: 'imagePullSecrets' },
];

export interface SecretUse {
  secretName: string;
  keys: KeySet;
  /** Field path from the PodSpec, for results. */
  field: string;
}

/** Every Secret a PodSpec references, per the table; malformed fields are item errors. */
export function secretUses(
  podSpec: JsonObject,
  podSpecField: string,
  enabled: { imagePullSecrets: boolean },
): SecretUse[] {
  const uses: SecretUse[] = [];
  for (const ref of secretReferences) {
    if (ref.optIn && !enabled[ref.optIn]) continue;
    for (const { node, field } of select(podSpec, ref.path.split('.'), podSpecField)) {
      const name = node[ref.nameField];
      if (name === undefined || name === null) continue;
      if (typeof name !== 'string') {
        throw new ItemError(
          `${field}.${ref.nameField} is not a string`,
          `${field}.${ref.nameField}`,
        );
      }
      uses.push({ secretName: name, keys: keysOf(node, ref, field), field });
    }
  }
  return uses;
}

function keysOf(node: JsonObject, ref: SecretReference, field: string): KeySet {
  if (ref.keys === 'all') return 'all';
  if ('field' in ref.keys) {
    const key = node[ref.keys.field];
    return typeof key === 'string' ? new Set([key]) : 'all';
  }
  const items = node[ref.keys.items];
  if (items === undefined || items === null) return 'all';
  if (!Array.isArray(items)) throw new ItemError(`${field}.items is not a list`, `${field}.items`);
  const keys = items.map((item) => (isObject(item) ? item.key : undefined));
  return keys.every((k) => typeof k === 'string') && keys.length > 0
    ? new Set(keys as string[])
    : 'all';
}

function* select(
  node: Json,
  steps: readonly string[],
  field: string,
): Generator<{ node: JsonObject; field: string }> {
  if (steps.length === 0) {
    if (isObject(node)) yield { node, field };
    else if (node !== null)
      throw new ItemError(`${field} is ${describeType(node)}, not a mapping`, field);
    return;
  }
  const [step, ...rest] = steps as [string, ...string[]];
  if (!isObject(node))
    throw new ItemError(`${field} is ${describeType(node)}, not a mapping`, field);
  const list = step.endsWith('[]');
  const key = list ? step.slice(0, -2) : step;
  const child = node[key];
  if (child === undefined || child === null) return;
  const childField = `${field}.${key}`;
  if (!list) {
    yield* select(child, rest, childField);
    return;
  }
  if (!Array.isArray(child)) {
    throw new ItemError(`${childField} is ${describeType(child)}, not a list`, childField);
  }
  for (let i = 0; i < child.length; i++) {
    yield* select(child[i] as Json, rest, `${childField}[${i}]`);
  }
}
