// A lint reads the plan (which sources each pod template reads) and reports traps visible in the
// manifests alone. Each lint is one module; its severity is a config option (`off` disables it).
import type { Config } from '../config.js';
import type { MappingEdit } from '../plan/edits.js';
import { groupOf, type Resource } from '../resource.js';
import type { ProducedKind, SecretSource } from '../sources/source.js';
import type { PodTemplateShape } from '../workloads/shapes.js';

export interface LintContext {
  resources: readonly Resource[];
  sources: readonly SecretSource[];
  /** The resources whose pod templates read each source. */
  consumersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  /** Pod templates that carry a checksum, per resource. */
  checksummed: ReadonlyMap<Resource, readonly PodTemplateShape[]>;
  /** References that no source in the resource's own namespace produces. */
  unresolved: ReadonlyMap<Resource, readonly { kind: ProducedKind; name: string }[]>;
  config: Config;
}

export type Report = (resource: Resource, message: string, field?: string) => void;

export interface Lint {
  option:
    | 'hookPhaseSeverity'
    | 'jobChecksumSeverity'
    | 'unpinnedVersionSeverity'
    | 'vaultAgentJobSeverity'
    | 'crossNamespaceSeverity';
  check(context: LintContext, report: Report, edits: MappingEdit[]): void;
}

/** Argo CD's sync phases in order; PreDelete, PostDelete and Skip are outside a sync. */
const phaseOrder: Readonly<Record<string, number>> = {
  PreSync: -1,
  Sync: 0,
  PostSync: 1,
  SyncFail: 2,
};
/** How Argo CD maps Helm hooks onto its phases. */
const helmPhases: Readonly<Record<string, string>> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};

export interface Phase {
  name: string;
  order: number;
  /** Declared as a hook (Argo CD or Helm annotation). */
  hook: boolean;
}

/** The earliest sync phase a resource runs in, or undefined when it is not part of a sync. */
export function phaseOf(resource: Resource): Phase | undefined {
  const argo = resource.annotations['argocd.argoproj.io/hook'];
  const helm = resource.annotations['helm.sh/hook'];
  const names =
    argo !== undefined
      ? argo.split(',').map((p) => p.trim())
      : helm !== undefined
        ? helm.split(',').map((p) => helmPhases[p.trim()] ?? '')
        : ['Sync'];
  const known = names.filter((n) => phaseOrder[n] !== undefined);
  if (known.length === 0) return undefined;
  const name = known.reduce((a, b) =>
    (phaseOrder[a] as number) <= (phaseOrder[b] as number) ? a : b,
  );
  return {
    name,
    order: phaseOrder[name] as number,
    hook: argo !== undefined || helm !== undefined,
  };
}

export const isKind = (resource: Resource, group: string, kind: string) =>
  resource.kind === kind && groupOf(resource.apiVersion) === group;
