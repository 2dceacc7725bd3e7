// The order graph (stores and dependencies → sources → consumers) in the annotations of deployers
// other than Argo CD: kpt live apply and Config Sync read `config.kubernetes.io/depends-on`
// (kubernetes-sigs/cli-utils pkg/object/dependson), kapp reads change groups and change rules
// (carvel-dev/kapp pkg/kapp/diffgraph). Both ends of every edge are items of the input, so no
// entry names the Secret an operator writes (cli-utils: ExternalDependencyError). Entries are
// only added: what the input already says is kept, and a second run finds nothing to add.
import type { Ordering } from '../../model/config.js';
import { annotationEdit, annotationField, type MappingEdit } from '../../model/edit.js';
import { sha256Hex } from '../../model/hash.js';
import { isObject } from '../../model/json.js';
import type { Resource } from '../../model/resource.js';
import {
  changeRule,
  clusterScopedNamespace,
  dependsOn,
  orderSkipped,
} from '../../model/result-rules.js';
import { deferredInfo, describe, type Result, resourceResult } from '../../model/results.js';
import { groupOf, isClusterScoped } from '../../model/scope.js';
import type { WaveNode } from './waves.js';

export const dependsOnKey = 'config.kubernetes.io/depends-on';
/** kapp reads `change-group` and every `change-group.<x>`: ours never takes the user's key. */
export const changeGroupKey = 'kapp.k14s.io/change-group.secret-rollout';
const changeGroupPrefix = 'kapp.k14s.io/change-group';
const changeRulePrefix = 'kapp.k14s.io/change-rule';
/** The prefix of kapp change groups this function names (one per item something waits for). */
export const groupPrefix = 'secret-rollout.dev/';

const clusterScoped = (r: Resource) => isClusterScoped(r.apiVersion, r.kind);

/**
 * cli-utils' object reference: `<group>/namespaces/<ns>/<Kind>/<name>`, cluster-scoped
 * `<group>/<Kind>/<name>`, core group empty. A namespace-less namespaced item is named in the
 * `defaultNamespace` option's namespace (Resource.namespace): the applier puts it in its default
 * namespace (cli-utils manifestreader SetNamespaces). Undefined without the option: the input
 * does not say which.
 */
export function dependsOnRef(resource: Resource): string | undefined {
  const group = groupOf(resource.apiVersion);
  if (resource.namespace !== undefined) {
    return `${group}/namespaces/${resource.namespace}/${resource.kind}/${resource.name}`;
  }
  return clusterScoped(resource) ? `${group}/${resource.kind}/${resource.name}` : undefined;
}

/**
 * The kapp change group of an item: `secret-rollout.dev/<Kind>[.<group>]_<namespace>_<name>`.
 * Kubernetes names and kinds hold no `_`, so two items never share a group; an empty namespace
 * (namespace-less) differs from a cluster-scoped item's missing one (`Kind__name`, `Kind_name`).
 */
export function changeGroupOf(resource: Resource): string {
  const group = groupOf(resource.apiVersion);
  const kind = group === '' ? resource.kind : `${resource.kind}.${group}`;
  const where = clusterScoped(resource) ? '' : `${resource.namespace ?? ''}_`;
  return `${groupPrefix}${kind}_${where}${resource.name}`;
}

/** kapp's change-group name rule: a qualified name (apimachinery), any length of its name part. */
export function isChangeGroupName(name: string): boolean {
  const slash = name.indexOf('/');
  const prefix = slash < 0 ? undefined : name.slice(0, slash);
  const rest = slash < 0 ? name : name.slice(slash + 1);
  if (prefix !== undefined && (prefix.length > 253 || !dnsSubdomain.test(prefix))) return false;
  return qualifiedNamePart.test(rest);
}
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedNamePart = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** The rule that makes an item wait for a group (kapp: four tokens, one space each). */
export const ruleAfter = (group: string) => `upsert after upserting ${group}`;

/** The keys of the change rules this function writes. */
export const ourRulePrefix = `${changeRulePrefix}.secret-rollout-`;
/** One key per group waited for, named by a hash of it: stable, and within 63 characters. */
export const changeRuleKey = (group: string) => `${ourRulePrefix}${sha256Hex(group).slice(0, 10)}`;

/** The entries of a depends-on value as cli-utils splits them (comma, whitespace trimmed). */
export const dependsOnEntries = (value: string) => value.split(',').map((e) => e.trim());

/** Values of `key` and every `key.<x>` annotation: what kapp reads as groups or rules. */
const valuesOf = (resource: Resource, key: string) =>
  Object.entries(resource.annotations)
    .filter(([k]) => k === key || k.startsWith(`${key}.`))
    .map(([, v]) => v);

/** What the other deployers' annotations add to the plan (edits and their results). */
export interface DeployerOrder {
  edits: MappingEdit[];
  results: Result[];
}

/**
 * The edges of the graph (`a.before` holds what waits for `a`) as depends-on entries and kapp
 * rules on the waiting item, and kapp groups on what is waited for.
 */
export function planDeployerOrder(
  nodes: Iterable<WaveNode>,
  ordering: readonly Ordering[],
): DeployerOrder {
  const out: DeployerOrder = { edits: [], results: [] };
  // With Argo CD alone (the default) no edge is written here: the waits are not gathered.
  if (!ordering.includes('depends-on') && !ordering.includes('kapp')) return out;
  /**
   * What each item waits for, in the order of the graph: a Set, in insertion order (a list kept
   * unique by `includes` scanned it per edge: quadratic in what one workload waits for,
   * bench/adversarial depends-on-entries).
   */
  const waitsFor = new Map<Resource, Set<Resource>>();
  for (const node of nodes) {
    for (const after of node.before) {
      const waits = waitsFor.get(after);
      if (waits) waits.add(node.resource);
      else waitsFor.set(after, new Set([node.resource]));
    }
  }
  if (ordering.includes('depends-on')) {
    for (const [resource, before] of waitsFor) planDependsOn(resource, before, out);
    for (const { resource } of nodes) namespacedClusterItem(resource, out);
  }
  if (ordering.includes('kapp')) planKapp(waitsFor, out);
  return out;
}

function planDependsOn(resource: Resource, before: ReadonlySet<Resource>, out: DeployerOrder) {
  const field = annotationField(['metadata'], dependsOnKey);
  const current = resource.annotations[dependsOnKey];
  const present = new Set(current === undefined ? [] : dependsOnEntries(current));
  const wanted: string[] = [];
  // A Set beside the list: `includes` per dependency was quadratic in a workload's dependencies
  // (bench/adversarial depends-on-entries: 8 MB 8.3 s).
  const seen = new Set<string>();
  for (const dependency of before) {
    const ref = dependsOnRef(dependency);
    if (ref === undefined) {
      const message = `${describe(resource)} is not made to wait for ${describe(dependency)} in ${dependsOnKey}: ${describe(dependency)} has no namespace, and kpt live apply and Config Sync give it one the input does not say; set metadata.namespace on it, or the defaultNamespace option`;
      out.results.push(orderSkippedResult(resource, message, field));
      continue;
    }
    if (seen.has(ref)) continue;
    seen.add(ref);
    wanted.push(ref);
  }
  if (wanted.length === 0) return;
  const added = wanted.filter((ref) => !present.has(ref)).sort();
  if (added.length > 0) {
    // An empty value is no entry (cli-utils rejects it): ours replace it.
    const kept = current === undefined || current.trim() === '' ? [] : [current];
    out.edits.push(
      annotationEdit(resource.index, ['metadata'], dependsOnKey, [...kept, ...added].join(',')),
    );
  }
  out.results.push(
    deferredInfo(dependsOn, resource, () => ({
      message: `${dependsOnKey} names ${wanted.join(', ')}`,
      field: { path: field },
    })),
  );
}

function planKapp(waitsFor: ReadonlyMap<Resource, ReadonlySet<Resource>>, out: DeployerOrder) {
  const grouped = new Set<Resource>();
  const groupField = annotationField(['metadata'], changeGroupKey);
  /** The group of an item waited for, or undefined (with a result) when it cannot have ours. */
  const groupOfWaited = (resource: Resource): string | undefined => {
    const group = changeGroupOf(resource);
    if (!isChangeGroupName(group)) {
      const message = `${describe(resource)} gets no kapp change group: its name makes no valid group name`;
      out.results.push(orderSkippedResult(resource, message, groupField));
      return undefined;
    }
    if (grouped.has(resource)) return group;
    grouped.add(resource);
    const taken = resource.annotations[changeGroupKey];
    if (taken !== undefined && taken !== group) {
      const message = `${describe(resource)} gets no kapp change group: ${changeGroupKey} holds another value; remove it to let secret-rollout set it`;
      out.results.push(orderSkippedResult(resource, message, groupField));
      return undefined;
    }
    if (!valuesOf(resource, changeGroupPrefix).includes(group)) {
      out.edits.push(annotationEdit(resource.index, ['metadata'], changeGroupKey, group));
    }
    return group;
  };
  for (const [resource, before] of waitsFor) {
    const groups = [...new Set([...before].map(groupOfWaited))]
      .filter((g): g is string => g !== undefined)
      .sort();
    // A Set: the item's change rules looked up per group were groups × rules (s13-attack).
    const rules = new Set(valuesOf(resource, changeRulePrefix));
    for (const group of groups) {
      const key = changeRuleKey(group);
      const rule = ruleAfter(group);
      const field = annotationField(['metadata'], key);
      if (rules.has(rule)) continue;
      if (resource.annotations[key] !== undefined) {
        const message = `${describe(resource)} is not made to wait for kapp group ${group}: ${key} holds another value; remove it to let secret-rollout set it`;
        out.results.push(orderSkippedResult(resource, message, field));
        continue;
      }
      out.edits.push(annotationEdit(resource.index, ['metadata'], key, rule));
    }
    if (groups.length === 0) continue;
    out.results.push(
      deferredInfo(changeRule, resource, () => ({
        message: `kapp change rules: upsert after upserting ${groups.join(', ')}`,
      })),
    );
  }
}

/**
 * cli-utils, which kpt live apply and Config Sync apply with, refuses a cluster-scoped object that
 * names a namespace (sigs.k8s.io/cli-utils pkg/manifestreader/common.go SetNamespaces: "resource
 * is cluster-scoped but has a non-empty namespace"): the apply fails before any wait. The order
 * itself reads no namespace for it (model/scope.ts effectiveNamespace).
 */
function namespacedClusterItem(resource: Resource, out: DeployerOrder): void {
  if (!clusterScoped(resource)) return;
  const metadata = isObject(resource.value) ? resource.value.metadata : undefined;
  const written = isObject(metadata) ? metadata.namespace : undefined;
  if (typeof written !== 'string' || written === '') return;
  const message = `${describe(resource)} is cluster-scoped but has metadata.namespace: kpt live apply and Config Sync (cli-utils) refuse to apply it; remove the namespace (kustomize's namespace: writes it on kinds it does not know as cluster-scoped)`;
  out.results.push(
    resourceResult(clusterScopedNamespace, resource, message, { path: 'metadata.namespace' }),
  );
}

const orderSkippedResult = (resource: Resource, message: string, path: string) =>
  resourceResult(orderSkipped, resource, message, { path });
