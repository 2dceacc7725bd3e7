// A Flux HelmRelease (helm.toolkit.fluxcd.io) is a consumer whose pods are rendered in the
// cluster: what it reads is found in spec.valuesFrom, in spec.values (helm-values.ts) and in the
// `secret-rollout/consumes` annotation; its checksum reaches the pods through a kustomize
// post-renderer patch on every workload kind with a pod template, or at a values path the
// `helmReleaseChecksumPath` option names for its chart (docs/helm-release.md). The facts from
// helm-controller's code are cited in docs/operators.md.
import type { HelmChecksumPath } from '../../model/config.js';
import { canonicalJson, sha256Hex, textOrder } from '../../model/hash.js';
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { fieldPath, getPath, type Keys, type Trail } from '../../model/path.js';
import { ItemError, type Resource } from '../../model/resource.js';
import { groupOf } from '../../model/scope.js';
import {
  type BuiltIns,
  substitute,
  type ValuesAnnotations,
  valueReads,
  valuesFound,
} from './helm-values.js';
import type { KeySet } from './references.js';

export const helmReleaseGroup = 'helm.toolkit.fluxcd.io';
/** Every version helm-controller has served (v2beta1 and v2beta2 until v1.x, v2 since). */
export const helmReleaseVersions = ['v2', 'v2beta2', 'v2beta1'].map(
  (v) => `${helmReleaseGroup}/${v}`,
);
export const isHelmRelease = (resource: Resource) =>
  resource.kind === 'HelmRelease' && helmReleaseVersions.includes(resource.apiVersion);

/** Secrets the release's pods read, named by the user where nothing else says so. */
export const consumesKey = 'secret-rollout/consumes';

/** What a HelmRelease reads of a Secret or ConfigMap, and where that is said. */
export interface HelmRead {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  /** Where the Secret lives: valuesFrom's in the HelmRelease's namespace, the pods' in the release's. */
  namespace: string | undefined;
  keys: KeySet;
  /** `spec.valuesFrom[0]`, `spec.values.….secretRef.name`, `metadata.annotations[…]`. */
  field: string;
  /** The built-ins substituted into the value (`.Release.Name`). */
  substituted: readonly string[];
}

const text = (value: Json | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * helm-controller's release name: `spec.releaseName`, else `[targetNamespace-]name`, shortened past
 * 53 characters to its first 40 and the first 12 hex digits of its SHA-256
 * (api/v2/helmrelease_types.go GetReleaseName, internal/release/name.go ShortenName).
 */
export function releaseName(resource: Resource): string {
  const spec = getPath(resource.value, 'spec');
  const own = text(isObject(spec) ? spec.releaseName : undefined);
  const target = text(isObject(spec) ? spec.targetNamespace : undefined);
  const name = own || (target ? `${target}-${resource.name}` : resource.name);
  return name.length <= 53 ? name : `${name.slice(0, 40)}-${sha256Hex(name).slice(0, 12)}`;
}

/** The namespace the release (and its pods) live in: spec.targetNamespace, else its own. */
export function releaseNamespace(resource: Resource): string | undefined {
  return text(getPath(resource.value, 'spec.targetNamespace')) || resource.namespace;
}

/**
 * The chart's name when the HelmRelease says it: `spec.chart.spec.chart` when it is a name (a
 * path in a GitRepository names a directory, whose Chart.yaml we do not read), else the
 * `spec.chartRef` OCIRepository's name, which the option matches but `.Chart.Name` never uses.
 */
export function chartOf(resource: Resource): { name?: string; ref?: string } {
  const chart = text(getPath(resource.value, 'spec.chart.spec.chart'));
  const ref = text(getPath(resource.value, 'spec.chartRef.name'));
  return {
    ...(chart !== undefined && !chart.includes('/') && { name: chart }),
    ...(ref !== undefined && { ref }),
  };
}

/** The built-ins known from the HelmRelease itself (Helm's .Release and .Chart objects). */
function builtInsOf(resource: Resource, namespace: string | undefined): BuiltIns {
  const builtIns = new Map([['.Release.Name', releaseName(resource)]]);
  if (namespace !== undefined) builtIns.set('.Release.Namespace', namespace);
  const { name } = chartOf(resource);
  if (name !== undefined) builtIns.set('.Chart.Name', name);
  return builtIns;
}

/** Everything a HelmRelease reads by name, in the order valuesFrom, values, annotation. */
export function helmReads(resource: Resource): HelmRead[] {
  const reads: HelmRead[] = [];
  const own = resource.namespace;
  const namespace = releaseNamespace(resource);
  const valuesFrom = getPath(resource.value, 'spec.valuesFrom');
  if (Array.isArray(valuesFrom)) {
    valuesFrom.forEach((ref, i) => {
      if (!isObject(ref)) return;
      const { kind, name, valuesKey } = ref;
      if ((kind !== 'Secret' && kind !== 'ConfigMap') || typeof name !== 'string') return;
      // helm-controller reads `values.yaml` when valuesKey is not set (GetValuesKey).
      const keys = new Set([text(valuesKey) || 'values.yaml']);
      const field = fieldPath(['spec', 'valuesFrom', i]);
      reads.push({ kind, name, namespace: own, keys, field, substituted: [] });
    });
  } else if (valuesFrom !== undefined && valuesFrom !== null) {
    throw new ItemError('spec.valuesFrom is not a list', 'spec.valuesFrom');
  }
  const values = getPath(resource.value, 'spec.values');
  const found = valueReads(values);
  if (found.length > 0) {
    const builtIns = builtInsOf(resource, namespace);
    for (const read of found) {
      const named = substitute(read.text, builtIns);
      if (!named || named.name === '') continue;
      const field = fieldPath(['spec', 'values', ...read.trail]);
      const { kind } = read.row;
      const { keys } = read;
      const { name, used: substituted } = named;
      reads.push({ kind, name, namespace, keys, field, substituted });
    }
  }
  const consumes = resource.annotations[consumesKey];
  if (consumes !== undefined) {
    const field = fieldPath(['metadata', 'annotations'], consumesKey);
    for (const name of new Set(consumes.split(',').map((n) => n.trim()))) {
      if (name === '') continue;
      reads.push({ kind: 'Secret', name, namespace, keys: 'all', field, substituted: [] });
    }
  }
  return reads;
}

/**
 * Every mapping under an `annotations` key in spec.values, or a key ending in `Annotations`
 * (`podAnnotations`, `deploymentAnnotations`: external-dns, gatus and most charts), with the path
 * to that mapping: charts write such annotations on what they render (for the double-restart
 * lint; Reloader reads the workload's and, failing those, the pod template's). Past maxValuesPath
 * the release is an error of the consumers' stage (valueReads), and the mapping is left out.
 */
export const valuesAnnotations = (resource: Resource): readonly ValuesAnnotations[] =>
  valuesFound(getPath(resource.value, 'spec.values')).annotations;

/** The values path the option names for this release's chart, if any. */
export function checksumPathFor(
  resource: Resource,
  paths: readonly HelmChecksumPath[],
): Keys | undefined {
  const { name, ref } = chartOf(resource);
  return paths.find((p) => p.chart === name || p.chart === ref)?.path;
}

/**
 * The workload kinds whose pod template the post-renderer patches: those a chart renders for
 * long-running pods, and CronJob's jobTemplate. Not Job: its pod template is immutable, so a
 * changed annotation would fail the upgrade; not ReplicaSet or a bare Pod: a changed template
 * restarts nothing there.
 */
export const patchedKinds: readonly { apiVersion: string; kind: string; template: string }[] = [
  { apiVersion: 'apps/v1', kind: 'Deployment', template: 'spec.template' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', template: 'spec.template' },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', template: 'spec.template' },
  { apiVersion: 'batch/v1', kind: 'CronJob', template: 'spec.jobTemplate.spec.template' },
];

/** The first line of each patch we write: how a later run finds its entry. */
export const patchMarker = '# secret-rollout: checksums of what this release reads (do not edit)';

/** The strategic-merge patch for one kind: the annotations on its pod template, nothing else. */
export function patchText(
  kind: (typeof patchedKinds)[number],
  annotations: ReadonlyMap<string, string>,
): string {
  const lines = [patchMarker, `apiVersion: ${kind.apiVersion}`, `kind: ${kind.kind}`];
  // kustomize applies a patch with a target to every object it selects, whatever name it gives.
  lines.push('metadata:', '  name: any');
  let indent = '';
  for (const key of kind.template.split('.')) {
    lines.push(`${indent}${key}:`);
    indent += '  ';
  }
  lines.push(`${indent}metadata:`, `${indent}  annotations:`);
  for (const [key, value] of [...annotations].sort(([a], [b]) => textOrder(a, b))) {
    lines.push(`${indent}    ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The post-renderer entry we write: one patch per kind, each selecting its kind by group. */
export function postRendererEntry(annotations: ReadonlyMap<string, string>) {
  return {
    kustomize: {
      patches: patchedKinds.map((kind) => ({
        patch: patchText(kind, annotations),
        target: { group: groupOf(kind.apiVersion), kind: kind.kind },
      })),
    },
  };
}

/**
 * An entry with each patch's text blanked, as canonical JSON: a hand edit anywhere but in a text
 * (a target narrowed by name or moved to another group, a field added, a text removed) makes it
 * differ from ours, and kustomize would then patch other objects than the ones we mean.
 */
function skeletonOf(entry: Json, patches: readonly Json[]): string {
  const blanked = patches.map((p) =>
    isObject(p) && typeof p.patch === 'string' ? { ...p, patch: '' } : p,
  );
  const kustomize = getPath(entry, 'kustomize');
  return canonicalJson({
    ...(entry as JsonObject),
    kustomize: { ...(kustomize as JsonObject), patches: blanked },
  });
}
const blankEntry = postRendererEntry(new Map());
const ourSkeleton = skeletonOf(blankEntry, blankEntry.kustomize.patches);

/** Our entry in spec.postRenderers: its position, and each patch's text as the input has it. */
export interface OurEntry {
  index: number;
  patches: readonly (string | undefined)[];
}

/**
 * Finds our entry by the marker its patches start with. An entry whose patches are not ours one
 * for one (edited by hand) is an item error: writing another would apply both. So is a second
 * entry with the marker: helm-controller applies post-renderers in order, so a copy after the
 * one we update would set its stale checksums last, and the pods would never roll.
 */
export function ourEntry(resource: Resource): OurEntry | undefined {
  const list = getPath(resource.value, 'spec.postRenderers');
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list))
    throw new ItemError('spec.postRenderers is not a list', 'spec.postRenderers');
  let found: OurEntry | undefined;
  for (const [index, entry] of list.entries()) {
    const patches = getPath(entry, 'kustomize.patches');
    if (!Array.isArray(patches)) continue;
    const texts = patches.map((p) => text(getPath(p, 'patch')));
    if (!texts.some((t) => t?.startsWith(patchMarker))) continue;
    const field = fieldPath(['spec', 'postRenderers', index]);
    if (found) {
      const first = fieldPath(['spec', 'postRenderers', found.index]);
      throw new ItemError(
        `${field} is a second copy of secret-rollout's entry ${first}: helm-controller applies both, the later one last, and it is never updated: remove it`,
        field,
      );
    }
    if (skeletonOf(entry, patches) !== ourSkeleton) {
      throw new ItemError(
        `${field} is secret-rollout's entry, changed by hand: remove it and a render writes it again`,
        field,
      );
    }
    found = { index, patches: texts };
  }
  return found;
}

/** Where our entry's `i`-th patch text is. */
export const patchTrail = (entry: number, i: number): Trail => [
  'spec',
  'postRenderers',
  entry,
  'kustomize',
  'patches',
  i,
];
