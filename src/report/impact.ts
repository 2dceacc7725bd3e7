// `secret-rollout impact BASE HEAD`: what a pull request restarts. Both sides are planned by the
// pure core (rules/transform); this module compares the two plans. No I/O: the caller reads the
// inputs and says where each HEAD resource came from (for SARIF).

import type { DeclaredTemplate } from '../model/config.js';
import { addTo } from '../model/fold.js';
import { canonicalJson } from '../model/hash.js';
import { isObject, type Json } from '../model/json.js';
import { fieldPath } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import { type Grouped, groupedOf, type Result } from '../model/results.js';
import { groupOf } from '../model/scope.js';
import { type Checksum, keysId, type SourceRead } from '../rules/checksums.js';
import { runsAfresh, unpinnedReasons } from '../rules/lints/unpinned-version.js';
import { waveOf } from '../rules/order/waves.js';
import { dependenciesAnnotation, esoSpecOf } from '../rules/sources/eso-dependencies.js';
import { type SecretSource, writtenKindOf } from '../rules/sources/source.js';
import type { Plan } from '../rules/transform.js';
import { podTemplatesOf } from '../rules/workloads/shapes.js';
import { jsonRef, type Ref } from './ref.js';

/** One side of the comparison: its resources, its plan and its results (rules only). */
export interface ImpactSide {
  resources: readonly Resource[];
  plan: Plan;
  results: readonly Result[];
  /** The podTemplates option the side was planned with: which resources are workloads. */
  podTemplates: readonly DeclaredTemplate[];
  /** Where the side is a directory: the application a resource's file is in (impact-cli.ts). */
  applicationOf?(resource: Resource): string | undefined;
}

export interface Reason {
  source: Ref;
  detail: string;
}

/** Where the side is a directory, the application an entry is in (impact-cli.ts). */
interface Placed {
  application?: string;
}

/** A workload added or removed. */
export type PlacedRef = Ref & Placed;

export interface Rollout extends Placed {
  resource: Ref;
  reasons: Reason[];
}

export interface SilentRotation extends Placed {
  source: Ref;
  /** Why the upstream value can change with nothing in Git changing. */
  why: string[];
  /** The workloads that keep running with the old value. */
  consumers: Ref[];
}

export interface WaveChange extends Placed {
  resource: Ref;
  old: string;
  new: string;
}

/** A resource whose order changed: what it waits for (depends-on entries, kapp rules). */
export interface OrderChange extends Placed {
  resource: Ref;
  /** What it waits for in HEAD, not in BASE. */
  added: Ref[];
  /** What it waited for in BASE, not in HEAD. */
  removed: Ref[];
}

export interface Impact {
  rollouts: Rollout[];
  /** HEAD's silent rotations that BASE does not have as they are (new, or why or readers changed). */
  silentRotations: SilentRotation[];
  /** How many of HEAD's silent rotations BASE has unchanged: counted, not listed on every PR. */
  unchangedSilentRotations: number;
  waves: WaveChange[];
  /** With an ordering other than Argo CD's (whose order the waves show): who waits for whom. */
  order: OrderChange[];
  added: PlacedRef[];
  removed: PlacedRef[];
  /** HEAD's warnings and errors that BASE does not have (markdown and SARIF, not the JSON). */
  newLints: Result[];
  /** All of HEAD's warnings and errors. */
  lints: Result[];
}

/** Code-unit order: the same on every machine, whatever the locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byRef = (a: Ref, b: Ref) =>
  compare(a.namespace ?? '', b.namespace ?? '') ||
  compare(a.name, b.name) ||
  compare(a.kind, b.kind) ||
  compare(a.apiVersion, b.apiVersion);

/** Identity across the two sides: the group, not the version (apps/v1beta2 → apps/v1 is one). */
const identity = (r: { apiVersion: string; kind: string; namespace?: string; name: string }) =>
  `${groupOf(r.apiVersion)}\u0000${r.kind}\u0000${r.namespace ?? ''}\u0000${r.name}`;

/** A side's resources by identity, and the copies of one already there (with its identity). */
interface Identities {
  first: Map<string, Resource>;
  copies: [string, Resource][];
}

/** Once per side: applicationGroups asks, then compareSides. */
const identities = new WeakMap<readonly Resource[], Identities>();

function identitiesOf(resources: readonly Resource[]): Identities {
  const known = identities.get(resources);
  if (known) return known;
  const found: Identities = { first: new Map(), copies: [] };
  for (const r of resources) {
    const id = identity(r);
    if (found.first.has(id)) found.copies.push([id, r]);
    else found.first.set(id, r);
  }
  identities.set(resources, found);
  return found;
}

function byIdentity(resources: readonly Resource[]): Map<string, Resource> {
  // The first of duplicates wins (the transform warns about those).
  return identitiesOf(resources).first;
}

function isWorkload(resource: Resource, declared: readonly DeclaredTemplate[]): boolean {
  try {
    return podTemplatesOf(resource, declared).length > 0;
  } catch {
    return false;
  }
}

export function compareSides(base: ImpactSide, head: ImpactSide): Impact {
  const placed = (side: ImpactSide, resource: Resource): Placed => {
    const application = side.applicationOf?.(resource);
    return application === undefined ? {} : { application };
  };
  const placedRef = (side: ImpactSide, resource: Resource) => ({
    ...jsonRef(resource),
    ...placed(side, resource),
  });
  const baseById = byIdentity(base.resources);
  const headById = byIdentity(head.resources);

  const contributed = contributions();
  const rollouts: Rollout[] = [];
  const added: Ref[] = [];
  const removed: Ref[] = [];
  for (const [id, resource] of headById) {
    const before = baseById.get(id);
    if (!before) {
      if (isWorkload(resource, head.podTemplates)) added.push(placedRef(head, resource));
      continue;
    }
    const old = base.plan.checksums.get(before) ?? [];
    const now = head.plan.checksums.get(resource) ?? [];
    if (signature(old) === signature(now)) continue;
    rollouts.push({
      ...placed(head, resource),
      resource: jsonRef(resource),
      reasons: reasonsOf(
        old.flatMap((c) => c.consumed),
        now.flatMap((c) => c.consumed),
        contributed,
      ),
    });
  }
  for (const [id, resource] of baseById) {
    if (!headById.has(id) && isWorkload(resource, base.podTemplates))
      removed.push(placedRef(base, resource));
  }

  const waves: WaveChange[] = [];
  for (const [id, resource] of headById) {
    const before = baseById.get(id);
    if (!before) continue;
    const old = waveIn(base.plan, before);
    const now = waveIn(head.plan, resource);
    if (old !== undefined && now !== undefined && old !== now) {
      waves.push({
        ...placed(head, resource),
        resource: jsonRef(resource),
        old: String(old),
        new: String(now),
      });
    }
  }

  const order = head.plan.ordering.some((o) => o !== 'argocd')
    ? orderChanges(base, head, (r) => placed(head, r))
    : [];

  const lints = head.results.filter((r) => r.severity !== 'info');
  const silent = silentRotations(head.plan, (r) => placed(head, r));
  const before = new Set(silentRotations(base.plan).map(rotationKey));
  const changed = silent.filter((s) => !before.has(rotationKey(s)));
  return {
    rollouts: rollouts.sort((a, b) => byRef(a.resource, b.resource)),
    silentRotations: changed,
    unchangedSilentRotations: silent.length - changed.length,
    waves: waves.sort((a, b) => byRef(a.resource, b.resource)),
    order,
    added: added.sort(byRef),
    removed: removed.sort(byRef),
    newLints: newFindings(base.results, lints),
    lints,
  };
}

/**
 * The comparisons of groups of applications as one (applications that render the same resource
 * are planned apart: impact-run.ts), each list sorted as compareSides sorts it, then by
 * application.
 */
export function joinGroups(parts: readonly Impact[]): Impact {
  if (parts.length === 1) return parts[0] as Impact;
  const joined: Impact = {
    rollouts: [],
    silentRotations: [],
    unchangedSilentRotations: 0,
    waves: [],
    order: [],
    added: [],
    removed: [],
    newLints: [],
    lints: [],
  };
  // One by one: a spread of a monorepo's list as arguments can pass V8's argument limit.
  const append = <T>(into: T[], list: readonly T[]) => {
    for (const entry of list) into.push(entry);
  };
  for (const part of parts) {
    append(joined.rollouts, part.rollouts);
    append(joined.silentRotations, part.silentRotations);
    append(joined.waves, part.waves);
    append(joined.order, part.order);
    append(joined.added, part.added);
    append(joined.removed, part.removed);
    append(joined.newLints, part.newLints);
    append(joined.lints, part.lints);
    joined.unchangedSilentRotations += part.unchangedSilentRotations;
  }
  const placed = (a: Placed, b: Placed) => compare(a.application ?? '', b.application ?? '');
  const byResource = (a: { resource: Ref } & Placed, b: { resource: Ref } & Placed) =>
    byRef(a.resource, b.resource) || placed(a, b);
  joined.rollouts.sort(byResource);
  joined.silentRotations.sort((a, b) => byRef(a.source, b.source) || placed(a, b));
  joined.waves.sort(byResource);
  joined.order.sort(byResource);
  joined.added.sort((a, b) => byRef(a, b) || placed(a, b));
  joined.removed.sort((a, b) => byRef(a, b) || placed(a, b));
  return joined;
}

/** Applications planned together: a group number each, from 0, of `count`. */
export interface ApplicationGroups {
  of: Map<string, number>;
  count: number;
}

/**
 * Where BASE and HEAD are directories: which applications to plan together, a group number each
 * (from 0), none where one plan does (no two applications render the same resource). A render
 * sees one application's items: two that render the same names (a cluster's overlays, a package
 * beside its rendered output) must not be planned as one, where one's items hide the other's.
 * The others stay together: one plan costs less than hundreds. An application's group is past
 * every group holding one of its resources, in one walk over the resources.
 */
export function applicationGroups(sides: readonly ImpactSide[]): ApplicationGroups | undefined {
  // Most trees render each resource once per side: only a copy can be in another application, and
  // the map of a side's resources is compareSides' own. A resource in one application in BASE and
  // another in HEAD (a file moved) is no conflict.
  const shared = sides.some((side) => {
    const { first, copies } = identitiesOf(side.resources);
    const applicationOf = (r: Resource) => side.applicationOf?.(r);
    return copies.some(([id, r]) => applicationOf(r) !== applicationOf(first.get(id) as Resource));
  });
  if (!shared) return undefined;
  /** Per application, the resources it renders, each side's apart. */
  const byApplication = new Map<string, Set<string>>();
  for (const [i, side] of sides.entries()) {
    const { first, copies } = identitiesOf(side.resources);
    for (const [id, r] of [...first, ...copies]) {
      const application = side.applicationOf?.(r) ?? '';
      const ids = byApplication.get(application) ?? new Set<string>();
      ids.add(`${i}\u0001${id}`);
      byApplication.set(application, ids);
    }
  }
  /** Per resource of a side, the first group that does not hold it. */
  const free = new Map<string, number>();
  const of = new Map<string, number>();
  let count = 1;
  for (const application of [...byApplication.keys()].sort(compare)) {
    const ids = byApplication.get(application) as Set<string>;
    let group = 0;
    for (const id of ids) group = Math.max(group, free.get(id) ?? 0);
    for (const id of ids) free.set(id, group + 1);
    of.set(application, group);
    count = Math.max(count, group + 1);
  }
  return count > 1 ? { of, count } : undefined;
}

/** A silent rotation across the sides: its source, reasons and readers, by identity. */
const rotationKey = (s: SilentRotation) =>
  [identity(s.source), ...s.why, ...s.consumers.map(identity)].join('\u0001');

const resultKey = (r: Result) =>
  `${r.severity}\u0000${r.message}\u0000${r.resourceRef ? identity(r.resourceRef) : ''}\u0000${r.field?.path ?? ''}`;

/** A grouped finding across the sides: its severity, rule and its lint's key (a store). */
const groupKey = (r: Result, { key }: Grouped) => `${r.severity}\u0000${r.tags.rule}\u0000${key}`;

/**
 * HEAD's warnings and errors that BASE does not have: the same message at the same place, or for
 * a finding that names a group (unpinned-version's ExternalSecrets on one store), one that names
 * only resources BASE's finding of that rule and key named. A group that grows by a resource is
 * new; one that loses one, or whose message counts other entries, is not.
 */
function newFindings(base: readonly Result[], lints: readonly Result[]): Result[] {
  const seen = new Set<string>();
  const seenGroups = new Map<string, Set<string>>();
  for (const r of base) {
    if (r.severity === 'info') continue;
    const grouped = groupedOf(r);
    if (!grouped) {
      seen.add(resultKey(r));
      continue;
    }
    const key = groupKey(r, grouped);
    const members = seenGroups.get(key) ?? new Set<string>();
    for (const member of grouped.members) members.add(identity(member));
    seenGroups.set(key, members);
  }
  return lints.filter((r) => {
    const grouped = groupedOf(r);
    if (!grouped) return !seen.has(resultKey(r));
    const before = seenGroups.get(groupKey(r, grouped));
    return !before || grouped.members.some((member) => !before.has(identity(member)));
  });
}

/** Each pod template's checksums (a resource can have several templates), in a stable order. */
const signature = (checksums: readonly Checksum[]) =>
  checksums
    .map((c) => `${fieldPath(c.shape.annotations, c.annotation)}=${c.value}`)
    .sort()
    .join(',');

/** What each resource waits for in a plan's order graph, by identity. */
function waitsFor(plan: Plan): Map<string, Map<string, Resource>> {
  const waits = new Map<string, Map<string, Resource>>();
  for (const node of plan.nodes.values()) {
    for (const after of node.before) {
      const id = identity(after);
      const list = waits.get(id) ?? new Map<string, Resource>();
      list.set(identity(node.resource), node.resource);
      waits.set(id, list);
    }
  }
  return waits;
}

/** Resources on both sides whose waits changed, sorted. */
function orderChanges(
  base: ImpactSide,
  head: ImpactSide,
  placed: (resource: Resource) => Placed,
): OrderChange[] {
  const old = waitsFor(base.plan);
  const now = waitsFor(head.plan);
  const baseIds = new Set(base.resources.map(identity));
  const changes: OrderChange[] = [];
  for (const resource of head.resources) {
    const id = identity(resource);
    if (!baseIds.has(id)) continue;
    const before = old.get(id) ?? new Map<string, Resource>();
    const after = now.get(id) ?? new Map<string, Resource>();
    const added = [...after].filter(([k]) => !before.has(k)).map(([, r]) => jsonRef(r));
    const removed = [...before].filter(([k]) => !after.has(k)).map(([, r]) => jsonRef(r));
    if (added.length === 0 && removed.length === 0) continue;
    changes.push({
      ...placed(resource),
      resource: jsonRef(resource),
      added: added.sort(byRef),
      removed: removed.sort(byRef),
    });
  }
  return changes.sort((a, b) => byRef(a.resource, b.resource));
}

/** The wave Argo CD uses: the planned one for stores, sources and consumers, else the input's. */
function waveIn(plan: Plan, resource: Resource): bigint | undefined {
  const node = plan.nodes.get(resource);
  if (node) return node.wave.value;
  try {
    return waveOf(resource).value;
  } catch {
    return undefined;
  }
}

/** A source across the sides: its resource and the Secret (or ConfigMap) it writes. */
const sourceKey = (s: SecretSource) =>
  `${identity(s.resource)}\u0000${s.produces}\u0000${s.namespace ?? ''}`;

interface Contributions {
  /** What one source adds to a checksum, as the checksum hashes it: a number per distinct text. */
  of(c: SourceRead): number;
  /** changeDetail, once per pair of contributions. */
  change(a: SourceRead, b: SourceRead): string;
}

/**
 * A source's content can be megabytes (YAML aliases) read by thousands of workloads: it is
 * written once per source and keys read, compared as a number, and diffed once per change.
 */
function contributions(): Contributions {
  const bySource = new Map<SecretSource, Map<string, number>>();
  const numbers = new Map<string, number>();
  const changes = new Map<string, string>();
  const of = ({ source, keys }: SourceRead) => {
    let byKeys = bySource.get(source);
    if (byKeys === undefined) {
      byKeys = new Map();
      bySource.set(source, byKeys);
    }
    const read = keysId(keys);
    let number = byKeys.get(read);
    if (number === undefined) {
      const text = canonicalJson({ content: source.content(keys), secret: source.secretName });
      number = numbers.get(text) ?? numbers.size;
      numbers.set(text, number);
      byKeys.set(read, number);
    }
    return number;
  };
  const change = (a: SourceRead, b: SourceRead) => {
    const pair = `${of(a)} ${a.source.produces} ${of(b)} ${b.source.produces}`;
    let detail = changes.get(pair);
    if (detail === undefined) {
      detail = changeDetail(a, b);
      changes.set(pair, detail);
    }
    return detail;
  };
  return { of, change };
}

/** The sources whose contribution to a workload's checksums changed, and how. */
function reasonsOf(
  old: readonly SourceRead[],
  now: readonly SourceRead[],
  contributions: Contributions,
): Reason[] {
  const group = (list: readonly SourceRead[]) => {
    const map = new Map<string, SourceRead[]>();
    for (const c of list) addTo(map, sourceKey(c.source), c);
    return map;
  };
  const before = group(old);
  const after = group(now);
  const reasons: Reason[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    const source = ((b ?? a) as SourceRead[])[0] as SourceRead;
    const ref = jsonRef(source.source.resource);
    if (!a) {
      reasons.push({ source: ref, detail: `newly read (${produced(source.source)})` });
      continue;
    }
    if (!b) {
      reasons.push({ source: ref, detail: `no longer read (${produced(source.source)})` });
      continue;
    }
    const sig = (list: SourceRead[]) => list.map(contributions.of).sort().join();
    if (sig(a) === sig(b)) continue;
    reasons.push({
      source: ref,
      detail: contributions.change(a[0] as SourceRead, b[0] as SourceRead),
    });
  }
  if (reasons.length === 0) {
    // Same sources, same content: the checksum's grouping changed (an option differs).
    const any = now[0] ?? old[0];
    if (any) {
      reasons.push({
        source: jsonRef(any.source.resource),
        detail: 'the checksum covers its sources differently (options differ)',
      });
    }
  }
  return reasons.sort((x, y) => byRef(x.source, y.source) || compare(x.detail, y.detail));
}

const produced = (s: SecretSource) => `${writtenKindOf(s)} ${s.secretName}`;

/** At most this many changes are spelled out per reason. */
const maxChanges = 4;

function changeDetail(a: SourceRead, b: SourceRead): string {
  const changes: string[] = [];
  if (a.source.secretName !== b.source.secretName) {
    changes.push(
      `writes ${writtenKindOf(b.source)} ${b.source.secretName} (was ${a.source.secretName})`,
    );
  }
  changes.push(...diff(asApplied(a.source.content(a.keys)), asApplied(b.source.content(b.keys))));
  if (changes.length === 0) return 'content changed';
  const shown = changes.slice(0, maxChanges);
  if (changes.length > maxChanges) shown.push(`${changes.length - maxChanges} more`);
  return shown.join('; ');
}

/** An ExternalSecret's content holds its `checksum/dependencies`: named where it is applied. */
function asApplied(content: Json): Json {
  if (!isObject(content) || !Object.hasOwn(content, dependenciesAnnotation)) return content;
  const { [dependenciesAnnotation]: hash = null, ...rest } = content;
  return { ...rest, metadata: { annotations: { [dependenciesAnnotation]: hash } } };
}

/** Entries of a list keyed by a name field where every entry has a distinct one. */
function keyedEntries(list: readonly Json[]): Map<string, Json> | undefined {
  for (const field of ['secretKey', 'key', 'name']) {
    const names = list.map((e) => (isObject(e) && typeof e[field] === 'string' ? e[field] : null));
    if (names.every((n) => n !== null) && new Set(names).size === names.length) {
      return new Map(list.map((e, i) => [names[i] as string, e]));
    }
  }
  return undefined;
}

/**
 * What a change may show of a source's content. The report goes into a pull-request comment and
 * CI logs, and a source's content can be text nobody should copy there: a template's literals
 * (`target.template.data`), a ConfigMap's values, a SealedSecret's ciphertext, digests of Secret
 * values. So values are shown only for fields that name or version something: remote keys and
 * their versions and properties, store and generator names and kinds, types, paths, strategies
 * and policies (an allow list, by the field's name). Anything else, and everything under a map
 * whose keys are the author's (data, annotations, labels, …), is said to have changed, where:
 * `target.template.data[config.yaml] changed`. The keys themselves are names, and shown.
 */
const identifierField =
  /^(key|name|version|kind|apiVersion|namespace|path|mount|type|property|provider|project|config|role|target|into|strategy|engineVersion|mergePolicy|templateAs)$|(Key|Name|Version|Kind|Path|Id|ID|Type|Slug|Policy|Strategy)$/;
/** Fields whose keys are the author's (data keys, annotations): keys in brackets, values hidden. */
const authorMaps = new Set([
  'data',
  'stringData',
  'encryptedData',
  'annotations',
  'labels',
  'tags',
  'params',
  'parameters',
  'templates',
]);
/** A Kubernetes field name; any other key is written in brackets, as the path syntax does. */
const fieldName = /^[a-z][A-Za-z0-9]*$/;

function show(value: Json | undefined): string {
  if (value === undefined) return '(none)';
  if (isObject(value) || Array.isArray(value)) return '{…}';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
}

/**
 * Paths where `a` and `b` differ, in a stable order: `path: old → new` where the field may show
 * its value (above), else `path changed` (`added`, `removed`). `field` is the field name the value
 * is at: `''` for a structure without one (the content, a list's entry), undefined inside an
 * author's map and for a list's scalar entries.
 */
export function diff(
  a: Json | undefined,
  b: Json | undefined,
  path = '',
  field: string | undefined = '',
): string[] {
  if (isDeepEqual(a, b)) return [];
  const at = path === '' ? '(content)' : path;
  const shows = field !== undefined && identifierField.test(field);
  if (a === undefined) return [`${at} added${shows ? `: ${show(b)}` : ''}`];
  if (b === undefined) return [`${at} removed`];
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compare);
    const ownMap = field === undefined || authorMaps.has(field);
    return keys.flatMap((k) => {
      const named = !ownMap && fieldName.test(k);
      const step = named ? (path === '' ? k : `${path}.${k}`) : `${path}[${k}]`;
      return diff(a[k], b[k], step, named ? k : undefined);
    });
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const ka = keyedEntries(a);
    const kb = keyedEntries(b);
    // An entry of a list is a structure again: its fields are named (`data[password].remoteRef`).
    const entries = (x: Json | undefined, y: Json | undefined, step: string) =>
      diff(x, y, step, field !== undefined && isObject(x ?? y ?? null) ? '' : undefined);
    if (ka && kb) {
      const names = [...new Set([...ka.keys(), ...kb.keys()])].sort(compare);
      return names.flatMap((n) => entries(ka.get(n), kb.get(n), `${path}[${n}]`));
    }
    const length = Math.max(a.length, b.length);
    return Array.from({ length }, (_, i) => entries(a[i], b[i], `${path}[${i}]`)).flat();
  }
  return [shows ? `${at}: ${show(a)} → ${show(b)}` : `${at} changed`];
}

const isDeepEqual = (a: Json | undefined, b: Json | undefined) =>
  a === b || (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b));

/**
 * ExternalSecrets (and ClusterExternalSecrets) read by a workload that a rotation does not roll.
 * Jobs and CronJobs are no such readers: each run reads the Secret afresh.
 */
function silentRotations(
  plan: Plan,
  placed: (resource: Resource) => Placed = () => ({}),
): SilentRotation[] {
  const bySource = new Map<Resource, Set<Resource>>();
  for (const source of plan.sources) {
    const consumers = [...(plan.consumersOf.get(source) ?? [])].filter((c) => !runsAfresh(c));
    if (consumers.length === 0) continue;
    const all = bySource.get(source.resource) ?? new Set<Resource>();
    for (const c of consumers) all.add(c);
    bySource.set(source.resource, all);
  }
  const rotations: SilentRotation[] = [];
  for (const [resource, consumers] of bySource) {
    const site = esoSpecOf(resource);
    if (site?.spec === undefined) continue;
    const why = unpinnedReasons(site.spec);
    if (why.length === 0) continue;
    rotations.push({
      ...placed(resource),
      source: jsonRef(resource),
      why,
      consumers: [...consumers].map(jsonRef).sort(byRef),
    });
  }
  return rotations.sort((a, b) => byRef(a.source, b.source));
}

/** The JSON document (schema/impact.schema.json): every key always present, lists sorted. */
export function impactJson(impact: Impact): string {
  const { rollouts, silentRotations, unchangedSilentRotations, waves, order, added, removed } =
    impact;
  const document = {
    rollouts,
    silentRotations,
    unchangedSilentRotations,
    waves,
    order,
    added,
    removed,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
