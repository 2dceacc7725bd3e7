// The pure core: parsed items and configuration in, annotation edits and results out. No I/O.

import type { Config } from '../model/config.js';
import { annotationEdit, annotationField, type MappingEdit } from '../model/edit.js';
import {
  type Bystander,
  getPath,
  ItemError,
  type Resource,
  readAnnotations,
} from '../model/resource.js';
import {
  deferredInfo,
  describe,
  type ResourceRef,
  type Result,
  resourceResult,
} from '../model/results.js';
import { isArgocdCm, planHealthCheck } from './argocd-health.js';
import { type Consumption, templateChecksum, unionKeys } from './checksums.js';
import { runLints } from './lints/index.js';
import type { KeyedRead } from './lints/lint.js';
import { phaseOf } from './order/phases.js';
import { placeWaves, type WaveNode, type WavePlan, waveOf } from './order/waves.js';
import { sourceKindOf, storeKindOf, storeKinds } from './sources/index.js';
import type { SecretSource } from './sources/source.js';
import type { KeySet, ProducedKind } from './workloads/references.js';
import { secretUses } from './workloads/references.js';
import { barePod, type PodTemplateShape, podTemplatesOf } from './workloads/shapes.js';

export interface TransformOutput {
  edits: MappingEdit[];
  results: Result[];
  plan: Plan;
}

/** What was planned, for `secret-rollout plan`: the order graph and the checksums. */
export interface Plan {
  /** Stores, sources and consumers with their waves; `before` points at what comes later. */
  nodes: ReadonlyMap<Resource, WaveNode>;
  stores: readonly Resource[];
  sources: readonly SecretSource[];
  consumersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  checksums: ReadonlyMap<Resource, readonly Checksum[]>;
  /** Nodes whose wave the run writes; the others keep the wave the input gives them. */
  placed: ReadonlySet<WaveNode>;
  /** Explicit waves that contradict the order, with the nodes they are not below. */
  conflicts: ReadonlyMap<WaveNode, readonly WaveNode[]>;
}

export interface Checksum {
  shape: PodTemplateShape;
  annotation: string;
  value: string;
  /** What the value covers. */
  sources: readonly SecretSource[];
  /** The same sources with the keys the template reads of each (`impact` diffs them). */
  consumed: readonly Consumption[];
}

const namespaceKey = (ns: string | undefined) => ns ?? '';
/** Waves order resources only within one sync phase (the hook-phase lint covers the rest). */
const samePhase = (a: Resource, b: Resource) => {
  const phase = phaseOf(a);
  return phase !== undefined && phase.name === phaseOf(b)?.name;
};
const producedKey = (kind: string, ns: string | undefined, name: string) =>
  `${kind}/${namespaceKey(ns)}/${name}`;
const listNames = (sources: readonly SecretSource[]) =>
  sources.length === 1
    ? describe((sources[0] as SecretSource).resource)
    : [...new Set(sources.map((s) => describe(s.resource)))].join(', ');

/** `bystanders`: items copied through unparsed (pass-through.ts), known by kind and name. */
export function transform(
  resources: readonly Resource[],
  config: Config,
  bystanders: readonly Bystander[] = [],
): TransformOutput {
  const results: Result[] = [];
  const edits: MappingEdit[] = [];
  /** Runs one rule on one resource; a malformed field becomes an error result for it. */
  const guarded = (resource: Resource, rule: () => void) => {
    try {
      rule();
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      const field = error.field ? { path: error.field } : undefined;
      results.push(
        resourceResult(resource, 'error', `${describe(resource)}: ${error.message}`, field),
      );
    }
  };

  // Secret sources, by namespace and Secret name.
  const sources: SecretSource[] = [];
  const bySecret = new Map<string, SecretSource[]>();
  const stores: Resource[] = [];
  const inventory = { config, resources };
  for (const resource of resources) {
    if (storeKindOf(resource)) stores.push(resource);
    const kind = sourceKindOf(resource);
    if (!kind) continue;
    guarded(resource, () => {
      const read = kind.read(resource, inventory);
      if ('skipped' in read) {
        results.push(resourceResult(resource, 'info', `skipped: ${read.skipped}`));
        return;
      }
      for (const source of Array.isArray(read) ? read : [read]) {
        sources.push(source);
        results.push(...source.notes);
        const key = producedKey(source.produces, source.namespace, source.secretName);
        const same = bySecret.get(key);
        if (same) same.push(source);
        else bySecret.set(key, [source]);
      }
    });
  }
  for (const same of bySecret.values()) {
    if (same.length < 2) continue;
    for (const source of same) {
      const others = same.filter((s) => s !== source).map((s) => describe(s.resource));
      const message = `${describe(source.resource)} and ${others.join(', ')} all write ${source.produces} ${source.secretName}; each consumer's checksum covers all of them`;
      results.push(resourceResult(source.resource, 'warning', message));
    }
  }

  // Consumers: one checksum per pod template; every consumer orders its sources before it.
  const consumersOf = new Map<SecretSource, Set<Resource>>();
  const checksummed = new Map<Resource, Checksum[]>();
  const unresolved = new Map<Resource, { kind: ProducedKind; name: string; field: string }[]>();
  const keyedReads: KeyedRead[] = [];
  for (const resource of resources) {
    if (sourceKindOf(resource)) continue;
    guarded(resource, () => {
      for (const template of podTemplatesOf(resource)) {
        // Every reference orders its source first; opt-in ones count for the checksum only when on.
        const consumed = new Map<SecretSource, KeySet>();
        for (const use of secretUses(template.podSpec, template.shape.podSpecField)) {
          const key = producedKey(use.kind, resource.namespace, use.secretName);
          const sources = bySecret.get(key);
          if (!sources) {
            const ref = {
              kind: use.kind,
              name: use.secretName,
              field: template.shape.podSpecField,
            };
            const refs = unresolved.get(resource);
            if (refs) refs.push(ref);
            else unresolved.set(resource, [ref]);
          }
          if (sources && use.field && use.keys !== 'all') {
            keyedReads.push({ consumer: resource, sources, keys: use.keys, field: use.field });
          }
          for (const source of sources ?? []) {
            const consumers = consumersOf.get(source) ?? new Set<Resource>();
            consumersOf.set(source, consumers.add(resource));
            if (use.optIn && !config[use.optIn]) continue;
            const prior = consumed.get(source);
            consumed.set(source, prior ? unionKeys(prior, use.keys) : use.keys);
          }
        }
        if (consumed.size === 0) continue;
        if (template.shape === barePod) {
          const names = listNames([...consumed.keys()]);
          const message = `reads ${names}, but a bare Pod is not restarted by an annotation change: no checksum set`;
          results.push(resourceResult(resource, 'info', message));
          continue;
        }
        // One checksum per annotation key (ExternalSecrets, and opt-in sources of their own).
        const byAnnotation = new Map<string, Consumption[]>();
        for (const [source, keys] of consumed) {
          const group = byAnnotation.get(source.annotation);
          if (group) group.push({ source, keys });
          else byAnnotation.set(source.annotation, [{ source, keys }]);
        }
        const { annotationsPath, annotationsField } = template.shape;
        const current = readAnnotations(getPath(resource.value, annotationsPath), annotationsField);
        for (const [annotation, group] of byAnnotation) {
          const value = templateChecksum(group);
          const covered = group.map((c) => c.source);
          const checksum = {
            shape: template.shape,
            annotation,
            value,
            sources: covered,
            consumed: group,
          };
          const checksums = checksummed.get(resource);
          if (checksums) checksums.push(checksum);
          else checksummed.set(resource, [checksum]);
          if (current[annotation] !== value) {
            edits.push(annotationEdit(resource.index, template.shape.metadata, annotation, value));
          }
          results.push(
            deferredInfo(resource, () => ({
              message: `checksum of ${listNames(group.map((c) => c.source))}`,
              field: {
                path: annotationField(template.shape.metadata, annotation),
                proposedValue: value,
              },
            })),
          );
        }
      }
    });
  }

  if (config.argocdHealthCheck) {
    for (const cm of resources.filter(isArgocdCm)) {
      guarded(cm, () => planHealthCheck(cm, edits, results));
    }
  }

  // The order graph is planned either way (for `plan`); its edits only count with syncWaves.
  const waves: WavePlan = { edits: [], results: [], placed: new Set(), conflicts: new Map() };
  const nodes = planWaves(sources, consumersOf, stores, config, waves, guarded);
  if (config.syncWaves) {
    edits.push(...waves.edits);
    results.push(...waves.results);
  } else {
    // Nothing is written: `plan` shows the waves Argo CD reads from the input as it is.
    for (const node of waves.placed) node.wave = waveOf(node.resource);
    waves.placed.clear();
    waves.conflicts.clear();
  }

  runLints(
    { resources, bystanders, sources, consumersOf, checksummed, unresolved, keyedReads, config },
    config,
    edits,
    results,
  );
  const { placed, conflicts } = waves;
  const plan = { nodes, stores, sources, consumersOf, checksums: checksummed, placed, conflicts };
  return { edits, results: sortByItem(results, resources), plan };
}

function planWaves(
  sources: readonly SecretSource[],
  consumersOf: Map<SecretSource, Set<Resource>>,
  stores: readonly Resource[],
  config: Config,
  plan: WavePlan,
  guarded: (resource: Resource, rule: () => void) => void,
): Map<Resource, WaveNode> {
  const nodes = new Map<Resource, WaveNode>();
  const nodeOf = (resource: Resource): WaveNode | undefined => {
    guarded(resource, () => {
      if (!nodes.has(resource)) {
        nodes.set(resource, { resource, wave: waveOf(resource), before: new Set() });
      }
    });
    return nodes.get(resource);
  };
  const options = { conflictSeverity: config.waveConflictSeverity };

  const storeNodes = new Map<string, WaveNode>();
  const storeKey = (kind: string, name: string, namespace: string | undefined) =>
    `${kind}/${namespaceKey(namespace)}/${name}`;
  for (const store of stores) {
    const node = nodeOf(store);
    const namespace = storeKindOf(store)?.clusterScoped ? undefined : store.namespace;
    if (node) storeNodes.set(storeKey(store.kind, store.name, namespace), node);
  }

  const sourceNodes = new Set<WaveNode>();
  for (const source of sources) {
    if (!source.ordered) continue;
    const node = nodeOf(source.resource);
    if (!node) continue;
    // One resource can be several sources (one per namespace): its node gathers all consumers.
    for (const consumer of consumersOf.get(source) ?? []) {
      const consumerNode = samePhase(source.resource, consumer) ? nodeOf(consumer) : undefined;
      if (consumerNode) node.before.add(consumerNode);
    }
    sourceNodes.add(node);
    for (const ref of source.stores) {
      const clusterScoped = storeKinds.find((k) => k.kind === ref.kind)?.clusterScoped;
      const namespace = clusterScoped ? undefined : source.namespace;
      const store = storeNodes.get(storeKey(ref.kind, ref.name, namespace));
      if (store && samePhase(store.resource, source.resource)) store.before.add(node);
    }
  }
  const defaults = new Map<WaveNode, bigint>();
  for (const node of sourceNodes) defaults.set(node, config.externalSecretWave);
  for (const node of storeNodes.values()) defaults.set(node, config.storeWave);
  placeWaves(defaults, options, plan);
  return nodes;
}

/** Results in item order (stable), results without a resource first. */
function sortByItem(results: Result[], resources: readonly Resource[]): Result[] {
  const position = new Map<string, number>();
  resources.forEach((r, i) => {
    position.set(`${r.kind}/${r.namespace ?? ''}/${r.name}/${r.apiVersion}`, i);
  });
  // The results of one resource share its ref (refOf): its rank is looked up once.
  const rankOf = new Map<ResourceRef, number>();
  const ranks = results.map((r) => {
    const ref = r.resourceRef;
    if (!ref) return -1;
    let rank = rankOf.get(ref);
    if (rank === undefined) {
      rank = position.get(`${ref.kind}/${ref.namespace ?? ''}/${ref.name}/${ref.apiVersion}`) ?? -1;
      rankOf.set(ref, rank);
    }
    return rank;
  });
  const order = results.map((_, i) => i);
  order.sort((a, b) => (ranks[a] as number) - (ranks[b] as number) || a - b);
  return order.map((i) => results[i] as Result);
}
