// Argo CD sync phases. Phase beats wave: waves only order resources within one phase.
import type { Resource } from '../../model/resource.js';

export const hookKey = 'argocd.argoproj.io/hook';

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

/** Most resources: not a hook (one shared object, asked for once per edge of the plan). */
const syncPhase: Readonly<Phase> = Object.freeze({ name: 'Sync', order: 0, hook: false });

/** The earliest sync phase a resource runs in, or undefined when it is not part of a sync. */
export function phaseOf(resource: Resource): Phase | undefined {
  const argo = resource.annotations[hookKey];
  const helm = resource.annotations['helm.sh/hook'];
  if (argo === undefined && helm === undefined) return syncPhase;
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
