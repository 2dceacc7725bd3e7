// A lint reads the plan (which sources each pod template reads) and reports traps visible in the
// manifests alone. Each lint is one module; its severity is a config option (`off` disables it).
import type { Config } from '../../model/config.js';
import type { MappingEdit } from '../../model/edit.js';
import type { Trail } from '../../model/path.js';
import { type Bystander, groupOf, type Resource } from '../../model/resource.js';
import type { SecretSource } from '../sources/source.js';
import type { ProducedKind } from '../workloads/references.js';
import type { PodTemplateShape } from '../workloads/shapes.js';

export interface LintContext {
  resources: readonly Resource[];
  /** Items copied through unparsed, known by kind, name and namespace only. */
  bystanders: readonly Bystander[];
  sources: readonly SecretSource[];
  /** The resources whose pod templates read each source. */
  consumersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  /** Pod templates that carry a checksum, per resource, with the sources each checksum covers. */
  checksummed: ReadonlyMap<
    Resource,
    readonly { shape: PodTemplateShape; annotation: string; sources: readonly SecretSource[] }[]
  >;
  /** References that no source in the resource's own namespace produces. */
  unresolved: ReadonlyMap<Resource, readonly UnresolvedRef[]>;
  /** References that read named keys of a Secret or ConfigMap that sources in the input produce. */
  keyedReads: readonly KeyedRead[];
  config: Config;
}

export interface UnresolvedRef {
  kind: ProducedKind;
  name: string;
  /** The PodSpec that holds the reference. */
  field: string;
  /** Where the reference names the Secret (`…secretKeyRef.name`), printed only when reported. */
  at: Trail;
}

export interface KeyedRead {
  consumer: Resource;
  /** Every source producing the Secret (or ConfigMap) in the consumer's namespace. */
  sources: readonly SecretSource[];
  keys: ReadonlySet<string>;
  /** Where the reference's key field is (`…secretKeyRef.key`), printed only when reported. */
  at: Trail;
}

export type Report = (resource: Resource, message: string, field?: string) => void;

export interface LintOutput {
  /** A finding, at the lint's severity. */
  report: Report;
  /** An info result, for example about a fix the lint applied. */
  note: Report;
  edits: MappingEdit[];
}

export interface Lint {
  option:
    | 'hookPhaseSeverity'
    | 'jobChecksumSeverity'
    | 'unpinnedVersionSeverity'
    | 'vaultAgentJobSeverity'
    | 'crossNamespaceSeverity'
    | 'missingKeySeverity'
    | 'kindNearMissSeverity'
    | 'doubleRestartSeverity'
    | 'scaledJobRolloutSeverity'
    | 'csiSyncMountSeverity'
    | 'nearNameSeverity';
  /**
   * Fields the lint reads of items of kinds that are not sources, beyond their metadata and pod
   * templates: the reader builds only those of such items (rules/reads.ts).
   */
  reads?: readonly { group: string; kind: string; fields: readonly string[] }[];
  check(context: LintContext, output: LintOutput): void;
}

export const isKind = (resource: Resource, group: string, kind: string) =>
  resource.kind === kind && groupOf(resource.apiVersion) === group;
