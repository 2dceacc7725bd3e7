// A lint reads the plan (which sources each pod template reads) and reports traps visible in the
// manifests alone. Each lint is one module, which declares it whole (the Lint below).
import type { Config } from '../../model/config.js';
import type { Copies } from '../../model/copies.js';
import type { MappingEdit } from '../../model/edit.js';
import type { ListsBy } from '../../model/fold.js';
import type { Keys } from '../../model/path.js';
import type { Bystander, Resource } from '../../model/resource.js';
import type { Rule } from '../../model/results.js';
import { inGroup } from '../../model/scope.js';
import type { SecretSource } from '../sources/source.js';
import type { ProducedKind } from '../workloads/references.js';
import type { PodTemplateShape } from '../workloads/shapes.js';

export interface LintContext {
  resources: readonly Resource[];
  /** The items given more than once, each to its list of copies (model/copies.ts). */
  copies: Copies;
  /** Items copied through unparsed, known by kind, name and namespace only. */
  bystanders: readonly Bystander[];
  sources: readonly SecretSource[];
  /** The resources whose pod templates read each source, each once. */
  consumersOf: ReadonlyMap<SecretSource, readonly Resource[]>;
  /**
   * The resources that read each source's Secret other than through a pod template: sources
   * (ESO templateFrom), and whatever later stages add (HelmReleases, operator resources).
   */
  readersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  /** Resources with a pod template that could not be read (a malformed field). */
  unreadable: ReadonlySet<Resource>;
  /** Pod templates that carry a checksum, per resource, with the sources each checksum covers. */
  checksummed: ListsBy<
    Resource,
    { shape: PodTemplateShape; annotation: string; sources: readonly SecretSource[] }
  >;
  /** References that no source in the resource's own namespace produces. */
  unresolved: ReadonlyMap<Resource, readonly UnresolvedRef[]>;
  /**
   * References that read named keys of a Secret or ConfigMap that sources in the input produce,
   * of which one at least they will not produce (consumers.ts).
   */
  keyedReads: readonly KeyedRead[];
  config: Config;
}

export interface UnresolvedRef {
  kind: ProducedKind;
  name: string;
  /** The PodSpec that holds the reference. */
  field: string;
  /** The PodSpec's path and the reference's place in it: `Places.named` finds its name field. */
  podSpec: Keys;
  use: number;
}

export interface KeyedRead {
  consumer: Resource;
  /** Every source producing the Secret (or ConfigMap) in the consumer's namespace. */
  sources: readonly SecretSource[];
  keys: ReadonlySet<string>;
  /** The PodSpec's path and the reference's place in it: `Places.keys` finds its key field. */
  podSpec: Keys;
  use: number;
}

/**
 * `group`: for a finding that names several resources, what identifies it across two inputs
 * (`impact`): a key of the lint's and the resources named (model/results.ts Grouped), in a list
 * the lint no longer changes (kept as it is).
 */
export type Report = (
  resource: Resource,
  message: string,
  field?: string,
  group?: { key: string; members: readonly Resource[] },
) => void;

export interface LintOutput {
  /** A finding, at the lint's severity. */
  report: Report;
  /**
   * An info result, for example about a fix the lint applied: it carries the lint's id (silenced
   * with it, gone when it is off) but stays info whatever severity the lint is set to.
   */
  note: Report;
  edits: MappingEdit[];
  /**
   * Whether a resource silences this lint (`secret-rollout/silence`): a result that names several
   * resources leaves such ones out, as its own result on them would be dropped.
   */
  silenced: (resource: Resource) => boolean;
}

/**
 * A lint, declared in its module: its rule (id, default severity, SARIF's texts), what it reads
 * and its check. Its option is `<id in camelCase>Severity` (`unpinnedVersionSeverity`), the same
 * as `severity: {<id>: …}` (rule-table.ts); `off` skips the check.
 */
export interface Lint extends Rule {
  /** Lints report traps in what the user wrote: each can be set or silenced. */
  readonly fixed?: never;
  /** What to do about it: every lint says. */
  readonly help: string;
  /**
   * Fields the lint reads of items of kinds that are not sources, beyond their metadata and pod
   * templates: the reader builds only those of such items (rules/read-plan.ts).
   */
  reads?: readonly { group: string; kind: string; fields: readonly string[] }[];
  check(context: LintContext, output: LintOutput): void;
}

export const isKind = (resource: Resource, group: string, kind: string) =>
  resource.kind === kind && inGroup(resource.apiVersion, group);

/** The texts Go's strconv.ParseBool reads as true (the Vault injector's and Reloader's switches). */
const goTrue: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
/** Go's strconv.ParseBool: a Set look-up, not an array built per call. */
export const goBool = (text: string) => goTrue.has(text);
