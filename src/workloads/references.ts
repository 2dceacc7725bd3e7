// Which PodSpec fields name a Secret or ConfigMap, as data (like kustomize's nameReference table): a path of
// field names where `[]` steps into every list element, the field holding the Secret's name, and
// which keys the reference reads.
import { describeType, ItemError, isObject, type Json, type JsonObject } from '../resource.js';
import type { KeySet, ProducedKind } from '../sources/source.js';

export interface SecretReference {
  /** What the reference names. */
  kind: ProducedKind;
  /** Path from the PodSpec to the reference object. */
  path: string;
  /** Field of the reference object holding the Secret name. */
  nameField: string;
  /** Which keys it reads: one key field, a list of `items[].key`, or the whole Secret. */
  keys: { field: string } | { items: string } | 'all';
  /** Counts for the checksum only when the option of that name is on. */
  optIn?: 'imagePullSecrets';
}

const containerLists = ['containers', 'initContainers', 'ephemeralContainers'];

export const secretReferences: readonly SecretReference[] = [
  ...containerLists.flatMap((list): SecretReference[] => [
    {
      kind: 'Secret',
      path: `${list}[].env[].valueFrom.secretKeyRef`,
      nameField: 'name',
      keys: { field: 'key' },
    },
    { kind: 'Secret', path: `${list}[].envFrom[].secretRef`, nameField: 'name', keys: 'all' },
    {
      kind: 'ConfigMap',
      path: `${list}[].env[].valueFrom.configMapKeyRef`,
      nameField: 'name',
      keys: { field: 'key' },
    },
    { kind: 'ConfigMap', path: `${list}[].envFrom[].configMapRef`, nameField: 'name', keys: 'all' },
  ]),
  { kind: 'Secret', path: 'volumes[].secret', nameField: 'secretName', keys: { items: 'items' } },
  {
    kind: 'Secret',
    path: 'volumes[].projected.sources[].secret',
    nameField: 'name',
    keys: { items: 'items' },
  },
  { kind: 'ConfigMap', path: 'volumes[].configMap', nameField: 'name', keys: { items: 'items' } },
  {
    kind: 'ConfigMap',
    path: 'volumes[].projected.sources[].configMap',
    nameField: 'name',
    keys: { items: 'items' },
  },
  {
    kind: 'Secret',
    path: 'imagePullSecrets[]',
    nameField: 'name',
    keys: 'all',
    optIn: 'imagePullSecrets',
  },
];

export interface SecretUse {
  kind: ProducedKind;
  secretName: string;
  keys: KeySet;
  /** Field path from the PodSpec, for results. */
  field: string;
  /** Counts for the checksum only when this option is on (it always counts for ordering). */
  optIn?: SecretReference['optIn'];
}

/** Every Secret a PodSpec references, per the table; malformed fields are item errors. */
export function secretUses(podSpec: JsonObject, podSpecField: string): SecretUse[] {
  const uses: SecretUse[] = [];
  for (const ref of secretReferences) {
    select(podSpec, ref.path.split('.'), podSpecField, (node, field) => {
      const name = node[ref.nameField];
      if (name === undefined || name === null) return;
      if (typeof name !== 'string') {
        throw new ItemError(
          `${field}.${ref.nameField} is not a string`,
          `${field}.${ref.nameField}`,
        );
      }
      const use: SecretUse = {
        kind: ref.kind,
        secretName: name,
        keys: keysOf(node, ref, field),
        field,
      };
      if (ref.optIn) use.optIn = ref.optIn;
      uses.push(use);
    });
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

function select(
  node: Json,
  steps: readonly string[],
  field: string,
  visit: (node: JsonObject, field: string) => void,
  depth = 0,
): void {
  if (depth === steps.length) {
    if (isObject(node)) visit(node, field);
    else if (node !== null)
      throw new ItemError(`${field} is ${describeType(node)}, not a mapping`, field);
    return;
  }
  if (!isObject(node))
    throw new ItemError(`${field} is ${describeType(node)}, not a mapping`, field);
  const step = steps[depth] as string;
  const list = step.endsWith('[]');
  const key = list ? step.slice(0, -2) : step;
  const child = node[key];
  if (child === undefined || child === null) return;
  const childField = `${field}.${key}`;
  if (!list) {
    select(child, steps, childField, visit, depth + 1);
    return;
  }
  if (!Array.isArray(child)) {
    throw new ItemError(`${childField} is ${describeType(child)}, not a list`, childField);
  }
  for (let i = 0; i < child.length; i++) {
    select(child[i] as Json, steps, `${childField}[${i}]`, visit, depth + 1);
  }
}
