// What every secret source (ExternalSecret, SealedSecret, VaultStaticSecret, plain Secrets, …) tells the
// planner: which Secret it produces, what decides that Secret's content, and which stores it uses.
import type { Config } from '../../model/config.js';
import type { Json } from '../../model/json.js';
import type { Keys } from '../../model/path.js';
import type { Resource } from '../../model/resource.js';
import { describe, type Result } from '../../model/results.js';
import type { KeySet, ProducedKind } from '../workloads/references.js';

export interface StoreRef {
  kind: string;
  name: string;
}

/** The kind a source writes, as messages and reports name it (`CustomResource` never). */
export const writtenKindOf = (s: Pick<SecretSource, 'produces' | 'writtenKind'>): string =>
  s.writtenKind ?? s.produces;

export interface SecretSource {
  resource: Resource;
  /**
   * What the source produces, and so which references match it. `CustomResource`: an ESO generic
   * target (`target.manifest`) of a kind no PodSpec field names, which only its store orders.
   */
  produces: ProducedKind | 'CustomResource';
  /** With `CustomResource`, the kind written (what reports name); else `produces` says it. */
  writtenKind?: string;
  /** Where it lands: the resource's namespace, or each selected one for cluster kinds. */
  namespace: string | undefined;
  /** Name of the produced Secret (or ConfigMap). */
  secretName: string;
  /** The pod-template annotation whose checksum covers this source. */
  annotation: string;
  /** Whether the source gets a sync wave (Argo CD already orders plain Secrets and ConfigMaps). */
  ordered: boolean;
  /** What decides the Secret's content, narrowed to `keys` where the source can tell. */
  content(keys: KeySet): Json;
  /** Stores this source reads from; they are ordered before it. */
  stores: readonly StoreRef[];
  /** Notes about the source itself (for example what its checksum cannot follow). */
  notes: readonly Result[];
  /**
   * The data keys the produced Secret (or ConfigMap) has, when the spec alone decides them;
   * `undefined` when anything else can add keys (dataFrom, templates, the remote store). Only a
   * known set lets the missing-key lint warn, so when unsure, `undefined`.
   */
  producedKeys(): ReadonlySet<string> | undefined;
  /**
   * Items of the input the operator reads besides its spec (ESO: templateFrom ConfigMaps and
   * Secrets, generators). They are ordered before the source, like its stores.
   */
  dependencies?: readonly Resource[];
  /**
   * Annotations the source itself must carry (ESO: `checksum/dependencies`), in the metadata
   * mapping at `metadata` (`['metadata']`; a ClusterExternalSecret's `spec.externalSecretMetadata`,
   * which ESO copies onto the ExternalSecrets it creates): the operator watches none of its
   * dependencies, so only a change of the source makes it sync again.
   */
  ownAnnotations?: { metadata: Keys; values: Readonly<Record<string, string>> };
}

/**
 * The keys a Secret (or ConfigMap) written by `sources` has: a key any of them makes is there;
 * null when any source's keys are unknown (unsure). Built once per list: producers hand every
 * reader of a name the same list, and thousands read one Secret.
 */
export function keysProduced(sources: readonly SecretSource[]): ReadonlySet<string> | null {
  let produced = producedBy.get(sources);
  if (produced === undefined) {
    produced = unionOfKeys(sources);
    producedBy.set(sources, produced);
  }
  return produced;
}

const producedBy = new WeakMap<readonly SecretSource[], ReadonlySet<string> | null>();

function unionOfKeys(sources: readonly SecretSource[]): ReadonlySet<string> | null {
  const produced = new Set<string>();
  for (const source of sources) {
    const some = source.producedKeys();
    if (some === undefined) return null;
    for (const key of some) produced.add(key);
  }
  return produced;
}

/** Whether a read of `keys` reads a key the Secret will not have (`produced`), when known. */
export function readsMissingKey(
  produced: ReadonlySet<string> | null,
  keys: ReadonlySet<string>,
): boolean {
  if (produced === null) return false;
  probe.produced = produced;
  probe.missing = false;
  // forEach with a function of the module: no iterator result or closure per read (106k
  // references on the fan-in bench).
  keys.forEach(probeKey, probe);
  return probe.missing;
}

const probe = { produced: new Set<string>() as ReadonlySet<string>, missing: false };
function probeKey(this: typeof probe, key: string): void {
  if (!this.produced.has(key)) this.missing = true;
}

/** What a source may look up: the options, and the rest of the input (Namespaces, …). */
export interface Inventory {
  config: Config;
  resources: readonly Resource[];
  /** The input's length in characters, which bounds the ClusterExternalSecrets' work. */
  inputCharacters: number;
  /** The item of this group and kind with this name (`namespace` undefined: cluster-scoped or unset). */
  find(
    group: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): Resource | undefined;
  /**
   * A Secret whose values a checksum would cover but, without `secretChecksumKey`, does not
   * (only its type and key names): the run names them in one warning.
   */
  unkeyed(secret: Resource): void;
}

/**
 * A plain ConfigMap or Secret, in the reading resource's namespace; one without a namespace
 * (a ClusterExternalSecret) reads it in every namespace it selects, which only the sources decide.
 */
export interface InputRead {
  kind: 'ConfigMap' | 'Secret';
  name: string;
}

export interface SourceKind {
  group: string;
  kind: string;
  /**
   * Reads a resource of this kind: one Secret, one per namespace (cluster kinds), or none, with
   * the reason in `skipped` (a ClusterExternalSecret that selects no namespace).
   * Malformed fields throw ItemError.
   */
  read(
    resource: Resource,
    inventory: Inventory,
  ): SecretSource | SecretSource[] | { skipped: string };
  /**
   * The plain ConfigMaps and Secrets a resource of this kind reads from the input (ESO
   * templateFrom). They pass through unparsed unless named here (the read plan's second pass,
   * rules/read-plan.ts). Never throws: a malformed field is reported by `read`.
   */
  inputReads?(resource: Resource): readonly InputRead[];
}

/** The sources' resources described, each once, in the sources' order. */
export const sourceNames = (sources: readonly SecretSource[]): string[] => [
  ...new Set(sources.map((s) => describe(s.resource))),
];
