// What the rules read of an item, so that the reader builds only that: parsed values of workloads
// are most of a run's memory and garbage, and the rules read their metadata and the few PodSpec
// fields that name a Secret or ConfigMap. Sources are read whole (their content is hashed).
import type { Config, DeclaredTemplate } from '../model/config.js';
import { groupOf, objectKey, type Projection, type Resource } from '../model/resource.js';
import { lints } from './lints/index.js';
import { dependencyGroups, sourceKindOf, sourceKinds, storeKinds } from './sources/index.js';
import { secretReferences } from './workloads/references.js';
import {
  barePod,
  declaredShapes,
  kindKey,
  type PodTemplateShape,
  podTemplateShapes,
} from './workloads/shapes.js';

type Tree = Map<string, Tree | true>;

/** Adds `path` (keys; a `[]` step is its list's elements, which share the list's projection). */
function add(tree: Tree, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const key = head.endsWith('[]') ? head.slice(0, -2) : head;
  if (rest.length === 0) {
    tree.set(key, true);
    return;
  }
  const child = tree.get(key) ?? new Map();
  if (child === true) return;
  tree.set(key, child);
  add(child, rest);
}

/**
 * Every field a rule reads of an item that is not a source: see podTemplatesOf, secretUses; for
 * one kind also its declared pod templates and what lints read of it (`fields`).
 */
function buildProjection(
  shapes: readonly PodTemplateShape[] = [],
  fields: readonly string[] = [],
): Projection {
  const tree: Tree = new Map();
  for (const key of ['apiVersion', 'kind', 'metadata']) tree.set(key, true);
  for (const shape of [...podTemplateShapes, barePod, ...shapes]) {
    add(tree, shape.metadata.length > 1 ? shape.metadata : []);
    for (const ref of secretReferences) add(tree, [...shape.podSpec, ...ref.path.split('.')]);
  }
  for (const field of fields) add(tree, field.split('.'));
  return tree;
}

let built: Projection | undefined;
/** The projection of kinds nothing declares: built on first use (a run on no items builds none). */
export function nonSourceProjection(): Projection {
  built ??= buildProjection();
  return built;
}

export type ProjectionFor = (
  apiVersion: string | undefined,
  kind: string | undefined,
) => Projection;

const cache = new WeakMap<readonly DeclaredTemplate[], ProjectionFor>();

/**
 * What to build of an item of this kind: everything for sources, stores and what sources read
 * (and for kinds not known before parsing), else the fields the rules read, which for kinds with
 * declared pod templates (the podTemplates option) or fields a lint reads are more than for the
 * others.
 */
export function projectionsFor(config: Config): ProjectionFor {
  const declared = config.podTemplates;
  let projectionFor = cache.get(declared);
  if (projectionFor) return projectionFor;
  const fieldsOf = new Map<string, string[]>();
  for (const lint of lints) {
    for (const { group, kind, fields } of lint.reads ?? []) {
      fieldsOf.set(kindKey(group, kind), [
        ...(fieldsOf.get(kindKey(group, kind)) ?? []),
        ...fields,
      ]);
    }
  }
  const shapes = declaredShapes(declared);
  // Kinds with a projection of their own, each built when an item of that kind first comes.
  const special = new Set([...shapes.keys(), ...fieldsOf.keys()]);
  const byKind = new Map<string, Projection>();
  projectionFor = (apiVersion, kind) => {
    if (apiVersion === undefined || kind === undefined) return true;
    const group = groupOf(apiVersion);
    const known = (k: { kind: string; group: string }) => k.kind === kind && k.group === group;
    if (sourceKinds.some(known) || storeKinds.some(known) || dependencyGroups.has(group)) {
      return true;
    }
    const key = kindKey(group, kind);
    if (!special.has(key)) return nonSourceProjection();
    let projection = byKind.get(key);
    if (projection === undefined) {
      projection = buildProjection(shapes.get(key), fieldsOf.get(key));
      byKind.set(key, projection);
    }
    return projection;
  };
  cache.set(declared, projectionFor);
  return projectionFor;
}

/**
 * Whether sources read this plain ConfigMap or Secret (ESO templateFrom): the reader builds these
 * though their kind would pass through unparsed.
 */
export function inputReads(resources: readonly Resource[]): (object: NamedObject) => boolean {
  const keys = new Set<string>();
  for (const resource of resources) {
    // The kind first: a string comparison, where sourceKindOf would split every apiVersion.
    if (!readerKinds.has(resource.kind)) continue;
    for (const read of sourceKindOf(resource)?.inputReads?.(resource) ?? []) {
      keys.add(objectKey(read.kind, resource.namespace ?? anyNamespace, read.name));
    }
  }
  return ({ kind, namespace, name }) =>
    keys.has(objectKey(kind, namespace, name)) || keys.has(objectKey(kind, anyNamespace, name));
}

export interface NamedObject {
  kind: string;
  namespace: string | undefined;
  name: string;
}

/**
 * Where a reader without a namespace reads (a ClusterExternalSecret: in each namespace it
 * selects): building the object in every namespace costs only its parse. No namespace is `*`.
 */
const anyNamespace = '*';

const readerKinds = new Set(sourceKinds.filter((k) => k.inputReads).map((k) => k.kind));
