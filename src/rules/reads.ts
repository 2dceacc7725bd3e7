// What the rules read of an item, so that the reader builds only that: parsed values of workloads
// are most of a run's memory and garbage, and the rules read their metadata and the few PodSpec
// fields that name a Secret or ConfigMap. Sources are read whole (their content is hashed).
import type { Projection, Resource } from '../model/resource.js';
import { dependencyGroups, sourceKindOf, sourceKinds, storeKinds } from './sources/index.js';
import { objectKey } from './stage.js';
import { secretReferences } from './workloads/references.js';
import { barePod, podTemplateShapes } from './workloads/shapes.js';

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

/** Every field a rule reads of an item that is not a source: see podTemplatesOf, secretUses. */
function buildProjection(): Projection {
  const tree: Tree = new Map();
  for (const key of ['apiVersion', 'kind', 'metadata']) tree.set(key, true);
  for (const shape of [...podTemplateShapes, barePod]) {
    add(tree, shape.metadata.length > 1 ? shape.metadata : []);
    for (const ref of secretReferences) add(tree, [...shape.podSpec, ...ref.path.split('.')]);
  }
  return tree;
}

export const nonSourceProjection: Projection = buildProjection();

/**
 * What to build of an item of this kind: everything for sources, stores and what sources read
 * (and for kinds not known before parsing), else the fields the rules read.
 */
export function projectionFor(
  apiVersion: string | undefined,
  kind: string | undefined,
): Projection {
  if (apiVersion === undefined || kind === undefined) return true;
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const known = (k: { kind: string; group: string }) => k.kind === kind && k.group === group;
  return sourceKinds.some(known) || storeKinds.some(known) || dependencyGroups.has(group)
    ? true
    : nonSourceProjection;
}

/**
 * The plain ConfigMaps and Secrets that sources read (ESO templateFrom), as `kind/namespace/name`:
 * the reader builds these though their kind would pass through unparsed.
 */
export function inputReads(resources: readonly Resource[]): Set<string> {
  const keys = new Set<string>();
  for (const resource of resources) {
    // The kind first: a string comparison, where sourceKindOf would split every apiVersion.
    if (!readerKinds.has(resource.kind)) continue;
    for (const read of sourceKindOf(resource)?.inputReads?.(resource) ?? []) {
      keys.add(objectKey(read.kind, resource.namespace, read.name));
    }
  }
  return keys;
}

const readerKinds = new Set(sourceKinds.filter((k) => k.inputReads).map((k) => k.kind));
