// Whether an item is a copy of another, decided once per run: the duplicate-item lint reports the
// copies, producers count a source given twice as one writer, unpinned-version one member.
import { clusterObjectKey, type Resource } from './resource.js';

/**
 * The items given more than once (same group, kind, namespace and name), each mapped to the list
 * of its copies in input order, one list shared by all of them: it stands for the item where a
 * stage counts items once. An item given once is not in it (most runs: empty).
 */
export type Copies = ReadonlyMap<Resource, readonly Resource[]>;

/**
 * The copies among `resources`, in the order of their names' first items, then of their own
 * first copies. By name first, keyed by the items' own strings: an identity string per item was
 * 3 MiB of fan-in's peak at 10k items, where a name is shared by a few items at most.
 */
export function findCopies(resources: readonly Resource[]): Copies {
  const byName = new Map<string, Resource | Resource[]>();
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i] as Resource;
    const had = byName.get(r.name);
    if (had === undefined) byName.set(r.name, r);
    else if (Array.isArray(had)) had.push(r);
    else byName.set(r.name, [had, r]);
  }
  const copies = new Map<Resource, readonly Resource[]>();
  byName.forEach((named) => {
    if (!Array.isArray(named)) return;
    const byKey = new Map<string, Resource[]>();
    for (const r of named) {
      const key = clusterObjectKey(r.apiVersion, r.kind, r.namespace, r.name);
      const same = byKey.get(key);
      if (same) same.push(r);
      else byKey.set(key, [r]);
    }
    byKey.forEach((same) => {
      if (same.length < 2) return;
      for (const r of same) copies.set(r, same);
    });
  });
  return copies;
}

/** What stands for an item where copies count once: its copies' list, else the item itself. */
export const itemOf = (copies: Copies, resource: Resource): object =>
  copies.get(resource) ?? resource;
