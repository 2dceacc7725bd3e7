// A source whose Secret (or ConfigMap) nothing in the input reads: no checksum and no order
// follows it to a reader, so the run changes nothing for it, and says so (issue #23 §3). In a Flux
// repository a HelmRelease's chart reads most ExternalSecrets in the cluster, out of sight: the
// result names what in the namespace may read it, from what the input shows, and nothing more.
// One result per namespace, naming its sources: a package of fifty ExternalSecrets is one line.
import { nameList, namesOf } from '../../model/fold.js';
import { isObject } from '../../model/json.js';
import { getPath } from '../../model/path.js';
import type { Bystander, Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { inGroup } from '../../model/scope.js';
import type { SecretSource } from '../sources/source.js';
import type { Lint } from './lint.js';

/**
 * Kinds that make pods from text the function does not read as a pod template, with the fields
 * that say into which namespace: Flux's HelmRelease (`spec.targetNamespace`, helm-controller's
 * release namespace when set) and Argo CD's Application (`spec.destination.namespace`).
 */
const outOfSight = [
  { group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease', fields: ['spec.targetNamespace'] },
  { group: 'argoproj.io', kind: 'Application', fields: ['spec.destination.namespace'] },
] as const;
/** By kind (each kind is in one group): an item's group is read only for these two kinds. */
const outOfSightByKind: ReadonlyMap<string, (typeof outOfSight)[number]> = new Map(
  outOfSight.map((k) => [k.kind, k]),
);

export const unreadSource: Lint = {
  id: 'unread-source',
  severity: 'info',
  summary: 'A source whose Secret nothing in the input reads: the run changes nothing for it',
  help: 'If a chart, another package or an operator reads it in the cluster, nothing to do: silence the rule on the source or set it off. Else point the reader at the name the source writes, or remove the source.',
  reads: outOfSight.map(({ group, kind, fields }) => ({ group, kind, fields: [...fields] })),
  check({ resources, bystanders, sources, consumersOf, readersOf, unreadable }, output) {
    const read = new Set<Resource>();
    // Index loops here and in the namespaces' index: with inlining off (large inputs), for-of
    // allocated an iterator result per source and per item.
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i] as SecretSource;
      if (!counted(source)) continue;
      const readers = (consumersOf.get(source)?.length ?? 0) + (readersOf.get(source)?.size ?? 0);
      if (readers > 0) read.add(source.resource);
    }
    // The namespaces and first source of the resources nobody reads, in a second pass: most are
    // read, and a Set and an entry per source were most of what the lint allocated.
    const namespacesOf = new Map<Resource, Set<string>>();
    const writes = new Map<Resource, SecretSource>();
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i] as SecretSource;
      if (!counted(source) || read.has(source.resource)) continue;
      const namespaces = namespacesOf.get(source.resource) ?? new Set<string>();
      namespacesOf.set(source.resource, namespaces.add(source.namespace ?? ''));
      if (!writes.has(source.resource)) writes.set(source.resource, source);
    }
    // A cluster kind read in one namespace counts as read: its other namespaces' readers may be
    // elsewhere, and one line per namespace would repeat it.
    const groups = new Map<string, { members: Resource[]; namespaces: Set<string> }>();
    for (const [resource, namespaces] of namespacesOf) {
      if (output.silenced(resource)) continue;
      const [first] = [...namespaces].sort() as [string];
      const group = groups.get(first) ?? { members: [], namespaces: new Set() };
      group.members.push(resource);
      for (const n of namespaces) group.namespaces.add(n);
      groups.set(first, group);
    }
    if (groups.size === 0) return;
    const maybe = mayRead([resources, bystanders], unreadable);
    for (const { members, namespaces } of groups.values()) {
      const candidates = [...namespaces].flatMap((n) => [...(maybe.get(n) ?? [])]);
      output.report(
        members[0] as Resource,
        message([...namespaces].sort(), members, writes, [...new Set(candidates)].sort()),
      );
    }
  },
};

/**
 * Whether a source is one the lint follows: plain Secrets and ConfigMaps of the input are sources
 * only for their checksum (many are read by what the input does not show, registries' pull
 * Secrets); a custom resource target has its own note (manifest-target).
 */
const counted = (source: SecretSource) => source.ordered && source.produces !== 'CustomResource';

/**
 * What may read a Secret in each namespace without the input showing how, by namespace: the
 * out-of-sight kinds (by their own namespace and the one they deploy into), and workloads whose
 * pod templates could not be read.
 */
function mayRead(
  lists: readonly (readonly (Resource | Bystander)[])[],
  unreadable: ReadonlySet<Resource>,
): Map<string, Set<string>> {
  // Sets: a namespace of thousands of Applications (an app-of-apps) searched once per name was n².
  const byNamespace = new Map<string, Set<string>>();
  const add = (namespace: unknown, item: Resource | Bystander) => {
    if (typeof namespace !== 'string' || namespace === '') return;
    const name = `${item.kind} ${item.namespace ? `${item.namespace}/` : ''}${item.name ?? ''}`;
    byNamespace.set(namespace, (byNamespace.get(namespace) ?? new Set()).add(name));
  };
  for (const items of lists) {
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Resource | Bystander;
      const kind = outOfSightByKind.get(item.kind);
      if (!kind || !inGroup(item.apiVersion, kind.group)) continue;
      add(item.namespace, item);
      const value = 'value' in item && isObject(item.value) ? item.value : undefined;
      for (const field of value ? kind.fields : []) add(getPath(value, field), item);
    }
  }
  for (const resource of unreadable) add(resource.namespace, resource);
  return byNamespace;
}

/** `namespaces`: sorted, of every member (a ClusterExternalSecret's, all of them). */
function message(
  namespaces: readonly string[],
  members: readonly Resource[],
  writes: ReadonlyMap<Resource, SecretSource>,
  candidates: string[],
): string {
  const [first] = members as [Resource];
  const one = members.length === 1;
  const { produces, secretName } = writes.get(first) as SecretSource;
  const what = one
    ? `what ${describe(first)} writes (${produces} ${secretName})`
    : `what ${members.length} sources write (${namesOf(members, describe)})`;
  // The readers named may be in any of a ClusterExternalSecret's namespaces: name them all.
  const named = namespaces.filter((n) => n !== '');
  const where =
    named.length === 1 ? `in namespace ${named[0]}` : `in namespaces ${nameList(named)}`;
  const them = one ? 'it' : 'them';
  // A namespace-less source matches only namespace-less readers: say so and how to fix it.
  const unset = `${one ? `${describe(first)} has` : 'they have'} no namespace, so only readers with none match ${them}; set metadata.namespace or the defaultNamespace option to the namespace the deployer gives ${them}`;
  const tail =
    named.length === 0
      ? `; ${unset}`
      : candidates.length > 0
        ? `; ${nameList(candidates)} ${where} may read ${them} out of sight`
        : `; nothing ${where} shows what reads ${them} (a chart, an operator or another package may)`;
  return `nothing in the input reads ${what}: no checksum or order follows ${them} to a reader${tail}`;
}
