// Check mode (`mode: check`, `secret-rollout check`): a CI gate that changes nothing. Every edit
// a render would make becomes an error result naming the resource, the field, the value a render
// writes and the command that writes it. Pure: the planned edits in, results out.

import { type Ordering, orderings } from '../model/config.js';
import {
  type Edit,
  isListEntryEdit,
  type ListEntryEdit,
  listField,
  type MappingEdit,
} from '../model/edit.js';
import { nameList } from '../model/fold.js';
import type { Json } from '../model/json.js';
import { fieldPath, getPath } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import { notRendered, otherOrdering } from '../model/result-rules.js';
import { describe, type Result, resourceResult } from '../model/results.js';
import {
  changeGroupKey,
  dependsOnEntries,
  dependsOnKey,
  dependsOnRef,
  ourRulePrefix,
} from './order/deployers.js';
import { syncWaveKey, type WaveNode } from './order/waves.js';
import { sourceNames } from './sources/source.js';
import type { Plan } from './transform.js';
import { valueAt } from './workloads/references.js';

/** A value short enough to quote in a message; longer ones (the health script) are only named. */
const quotable = (value: string) => !value.includes('\n') && value.length <= 100;

/**
 * A current value of the form the function writes (a checksum, a wave, a boolean): shown as it
 * is. Anything else is text of the input, which results never quote (README "Results").
 */
const ours = (value: Json | undefined): value is string =>
  typeof value === 'string' && /^(?:[0-9a-f]{64}|[+-]?\d{1,20}|true|false)$/.test(value);

/** Who ran the check, which says how to render: kpt, kustomize (LOG_TO_STDERR), or a stream. */
export type CheckedBy = 'kpt' | 'kustomize' | 'stream';
const renderWith: Readonly<Record<CheckedBy, string>> = {
  kpt: 'render again with kpt (kpt fn render, or the kpt fn eval that runs secret-rollout)',
  kustomize: 'render with secret-rollout as a kustomize transformer',
  stream: 'render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml)',
};

/**
 * One error per edit, in the order of the edits (every planned edit changes its item). A checksum
 * names what it covers (`checksums`, the plan's), so a stale one points at the edited source.
 */
export function checkResults(
  resources: readonly Resource[],
  edits: readonly Edit[],
  plan: Pick<Plan, 'checksums' | 'nodes' | 'ordering'>,
  by: CheckedBy,
): Result[] {
  const { checksums } = plan;
  const byIndex = new Map(resources.map((r) => [r.index, r]));
  const covers = (resource: Resource, edit: MappingEdit, path: string): string | undefined => {
    const checksum = checksums
      .get(resource)
      ?.find((c) => c.annotation === edit.key && c.field === path);
    // Five named, the rest counted: every stale checksum's error repeats it (all of them named
    // was readers × sources: bench/adversarial check-covers).
    return checksum && nameList(sourceNames(checksum.sources));
  };
  const results: Result[] = [];
  for (const edit of edits) {
    const resource = byIndex.get(edit.item);
    if (!resource) continue;
    if (isListEntryEdit(edit)) {
      results.push(appendResult(resource, edit, by));
      continue;
    }
    // Through the facts where the edit renames a reference in a PodSpec read as facts.
    const current: Json | undefined = valueAt(resource, [...edit.path, edit.key]);
    const field: NonNullable<Result['field']> = {
      path: fieldPath(edit.path, edit.key),
      proposedValue: edit.value,
    };
    if (ours(current)) field.currentValue = current;
    const sources = covers(resource, edit, field.path);
    let now: string;
    if (current === undefined) now = `is not set${sources ? ` (it covers ${sources})` : ''}`;
    else {
      now = ours(current) ? `is ${JSON.stringify(current)}` : 'differs';
      if (sources) now += `, not the checksum of ${sources}`;
    }
    // A value that keeps the input's own entries (a depends-on list) would quote them.
    const keeps = typeof current === 'string' && !ours(current) && edit.value.includes(current);
    const value =
      quotable(edit.value) && !keeps
        ? JSON.stringify(edit.value)
        : `the value in field.proposedValue (${edit.value.split('\n').length} lines)`;
    const message = `${describe(resource)}: ${edit.key} ${now}; ${renderWith[by]} to set ${edit.key} to ${value}`;
    results.push(resourceResult(notRendered, resource, message, field));
  }
  const other = otherOrderingResult(edits, plan);
  return other ? [other, ...results] : results;
}

/**
 * An entry a render appends to a list (a HelmRelease's postRenderers): the list named, how many
 * entries it has, and the entry in `field.proposedValue`, as JSON, never in the message (it may
 * hold names from the input).
 */
function appendResult(resource: Resource, edit: ListEntryEdit, by: CheckedBy): Result {
  const list: Json | undefined = getPath(resource.value, [...edit.path, edit.key]);
  const path = listField(edit);
  const entries = Array.isArray(list) ? list.length : 0;
  const now =
    list === undefined || list === null
      ? 'is not set'
      : `has ${entries} ${entries === 1 ? 'entry' : 'entries'}, none of them the one a render appends`;
  const message = `${describe(resource)}: ${path} ${now}; ${renderWith[by]} to append the entry in field.proposedValue`;
  const field = { path, proposedValue: JSON.stringify(edit.entry) };
  return resourceResult(notRendered, resource, message, field);
}

/** Whether an annotation key is one a deployer's order is written in. */
const formOf = (key: string): Ordering | undefined =>
  key === syncWaveKey
    ? 'argocd'
    : key === dependsOnKey
      ? 'depends-on'
      : key === changeGroupKey || key.startsWith(ourRulePrefix)
        ? 'kapp'
        : undefined;

/**
 * The depends-on entries a render writes for the graph's edges, per resource: the refs of the nodes
 * whose `before` holds it. Built once, in one pass over the edges, not a pass over every node for
 * each node that has a depends-on of its own.
 */
function edgeRefs(nodes: Iterable<WaveNode>): Map<Resource, Set<string>> {
  const refs = new Map<Resource, Set<string>>();
  for (const other of nodes) {
    const ref = dependsOnRef(other.resource);
    if (ref === undefined) continue;
    for (const resource of other.before) {
      const set = refs.get(resource);
      if (set) set.add(ref);
      else refs.set(resource, new Set([ref]));
    }
  }
  return refs;
}

/** Whether a node's depends-on names something it waits for in the graph, as a render writes. */
function namesAnEdge(node: WaveNode, refs: ReadonlyMap<Resource, ReadonlySet<string>>): boolean {
  const edges = refs.get(node.resource);
  if (!edges) return false;
  return dependsOnEntries(node.resource.annotations[dependsOnKey] ?? '').some((e) => edges.has(e));
}

/**
 * A render made with another `ordering`: order annotations a render would add are missing, and
 * the graph's items carry another deployer's instead. One error that names the option to use,
 * before the missing annotations it explains.
 */
function otherOrderingResult(
  edits: readonly Edit[],
  { nodes, ordering }: Pick<Plan, 'nodes' | 'ordering'>,
): Result | undefined {
  if (!edits.some((e) => formOf(e.key) !== undefined)) return undefined;
  const found = new Map<Ordering, Resource>();
  let refs: Map<Resource, Set<string>> | undefined;
  // Built on the first node that carries a depends-on of its own, once per check.
  const edgeRefsOnce = () => {
    refs ??= edgeRefs(nodes.values());
    return refs;
  };
  for (const node of nodes.values()) {
    // A consumer's own wave says nothing: Argo CD users set them; sources and stores are ours.
    const waited = node.before.length > 0;
    for (const key of Object.keys(node.resource.annotations)) {
      const form = formOf(key);
      if (form === undefined || ordering.includes(form) || found.has(form)) continue;
      if (form === 'argocd' && !waited) continue;
      // A depends-on of your own says nothing either: only an entry for an edge of the graph.
      if (form === 'depends-on' && !namesAnEdge(node, edgeRefsOnce())) {
        continue;
      }
      found.set(form, node.resource);
    }
  }
  if (found.size === 0) return undefined;
  const rendered = orderings.filter((o) => found.has(o));
  const first = found.get(rendered[0] as Ordering) as Resource;
  const asked = ordering.length === 0 ? 'none' : ordering.join(',');
  const message = `${describe(first)} carries the order annotations of ordering: ${rendered.join(',')}, and those of ordering: ${asked}, which this check asks for, are missing: the input was rendered with another ordering. Check with ordering=${rendered.join(',')} (and any other deployer the render used), or render again with ordering=${asked}`;
  return resourceResult(otherOrdering, first, message);
}
