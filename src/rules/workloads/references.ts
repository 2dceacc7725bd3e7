// Which PodSpec fields name a Secret or ConfigMap, as data (like kustomize's nameReference table): a path of
// field names where `[]` steps into every list element, the field holding the Secret's name, and
// which keys the reference reads.
import {
  describeType,
  ItemError,
  isObject,
  type Json,
  type JsonObject,
} from '../../model/resource.js';

/** The data keys a pod template reads from a Secret, or all of them. */
export type KeySet = 'all' | ReadonlySet<string>;

/** What pods reference by name. */
export type ProducedKind = 'Secret' | 'ConfigMap';

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
  /** Counts for the checksum only when this option is on (it always counts for ordering). */
  optIn?: SecretReference['optIn'];
  /** Where a reference that reads named keys is (`…secretKeyRef`, `…volumes[0].secret`). */
  field?: string;
}

interface Step {
  key: string;
  list: boolean;
}

/** The table's paths, split once. */
const compiled = secretReferences.map((ref) => ({
  ref,
  steps: ref.path.split('.').map((step): Step => {
    const list = step.endsWith('[]');
    return { key: list ? step.slice(0, -2) : step, list };
  }),
}));

/**
 * Where the walk is, as a stack of segments pushed and popped on the way: the field path string
 * (`spec.template.spec.containers[0].env[1]`) is only built for an error.
 */
type Trail = (string | number)[];
const fieldOf = (trail: Trail): string => {
  let field = '';
  for (const segment of trail) {
    if (typeof segment === 'number') field = `${field}[${segment}]`;
    else field = field === '' ? segment : `${field}.${segment}`;
  }
  return field;
};

/** Every Secret a PodSpec references, per the table; malformed fields are item errors. */
export function secretUses(podSpec: JsonObject, podSpecField: string): SecretUse[] {
  const uses: SecretUse[] = [];
  // One trail for all walks: each walk pops what it pushes (a throw ends them all).
  const trail: Trail = [podSpecField];
  for (const { ref, steps } of compiled) select(podSpec, steps, 0, trail, ref, uses);
  return uses;
}

/** The reference object `node` found at `trail`: its use, if it names a Secret. */
function addUse(node: JsonObject, trail: Trail, ref: SecretReference, uses: SecretUse[]): void {
  const name = node[ref.nameField];
  if (name === undefined || name === null) return;
  if (typeof name !== 'string') {
    const field = `${fieldOf(trail)}.${ref.nameField}`;
    throw new ItemError(`${field} is not a string`, field);
  }
  const use: SecretUse = { kind: ref.kind, secretName: name, keys: keysOf(node, ref, trail) };
  if (ref.optIn) use.optIn = ref.optIn;
  // Only named keys can be missing: the missing-key lint reports them at this field.
  if (use.keys !== 'all' && ref.keys !== 'all') {
    use.field = `${fieldOf(trail)}.${'field' in ref.keys ? ref.keys.field : ref.keys.items}`;
  }
  uses.push(use);
}

function keysOf(node: JsonObject, ref: SecretReference, trail: Trail): KeySet {
  if (ref.keys === 'all') return 'all';
  if ('field' in ref.keys) {
    const key = node[ref.keys.field];
    return typeof key === 'string' ? new Set([key]) : 'all';
  }
  const items = node[ref.keys.items];
  if (items === undefined || items === null) return 'all';
  if (!Array.isArray(items)) {
    const field = `${fieldOf(trail)}.items`;
    throw new ItemError(`${field} is not a list`, field);
  }
  const keys = items.map((item) => (isObject(item) ? item.key : undefined));
  return keys.every((k) => typeof k === 'string') && keys.length > 0
    ? new Set(keys as string[])
    : 'all';
}

function select(
  node: Json,
  steps: readonly Step[],
  depth: number,
  trail: Trail,
  ref: SecretReference,
  uses: SecretUse[],
): void {
  if (!isObject(node)) {
    if (depth === steps.length && node === null) return;
    const field = fieldOf(trail);
    throw new ItemError(`${field} is ${describeType(node)}, not a mapping`, field);
  }
  if (depth === steps.length) {
    addUse(node, trail, ref, uses);
    return;
  }
  const { key, list } = steps[depth] as Step;
  const child = node[key];
  if (child === undefined || child === null) return;
  trail.push(key);
  if (!list) {
    select(child, steps, depth + 1, trail, ref, uses);
  } else if (!Array.isArray(child)) {
    const field = fieldOf(trail);
    throw new ItemError(`${field} is ${describeType(child)}, not a list`, field);
  } else {
    for (let i = 0; i < child.length; i++) {
      trail.push(i);
      select(child[i] as Json, steps, depth + 1, trail, ref, uses);
      trail.pop();
    }
  }
  trail.pop();
}
