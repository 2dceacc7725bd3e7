// A workload the function annotates that another mechanism restarts too: a change can roll it
// twice, once for the checksum and once for the other. Both are tables: restart annotations
// (Reloader, wave, the operators' own), and VSO's rolloutRestartTargets on its resources. Facts
// and their sources: docs/operators.md §1, §2, §3, §5, §9a, §9b, §10.
import { annotationField } from '../../model/edit.js';
import { fieldPath, getPath, parsePath, walk } from '../../model/path.js';
import { groupOf, isObject, type Json, objectKey, type Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { optOutKey } from '../workloads/opt-out.js';
import type { PodTemplateShape } from '../workloads/shapes.js';
import { isKind, type Lint } from './lint.js';

/** What each operator does with a value: Go's strconv.ParseBool, `== "true"`, a name list. */
const goBool = (v: string) => ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
const isTrue = (v: string) => v === 'true';
const anyName = (v: string) => v.split(',').some((name) => name.trim() !== '');

interface RestartAnnotation {
  mechanism: string;
  key: string;
  /** The values that make it restart the workload. */
  on: (value: string) => boolean;
  /**
   * `workload`: read from the workload's metadata. `template`: also from its pod template's when
   * the workload's metadata has none of the mechanism's keys (Reloader's fallback).
   */
  where: 'workload' | 'template';
  /** The kinds it restarts, `group/Kind`. */
  kinds: readonly string[];
}

const reloaderKinds = [
  'apps/Deployment',
  'apps/DaemonSet',
  'apps/StatefulSet',
  'batch/CronJob',
  'batch/Job',
  'argoproj.io/Rollout',
];
const reloader = (key: string, on: RestartAnnotation['on']): RestartAnnotation => ({
  mechanism: 'Stakater Reloader',
  key,
  on,
  where: 'template',
  kinds: reloaderKinds,
});

const restartAnnotations: readonly RestartAnnotation[] = [
  reloader('reloader.stakater.com/auto', goBool),
  reloader('secret.reloader.stakater.com/auto', goBool),
  reloader('secret.reloader.stakater.com/reload', anyName),
  reloader('secretproviderclass.reloader.stakater.com/auto', goBool),
  reloader('secretproviderclass.reloader.stakater.com/reload', anyName),
  // Restarts for Secrets annotated reloader.stakater.com/match: "true", which only the cluster shows.
  reloader('reloader.stakater.com/search', isTrue),
  {
    mechanism: 'wave',
    key: 'wave.pusher.com/update-on-config-change',
    on: isTrue,
    where: 'workload',
    kinds: ['apps/Deployment', 'apps/DaemonSet', 'apps/StatefulSet'],
  },
  {
    mechanism: 'the 1Password operator',
    key: 'operator.1password.io/auto-restart',
    // The operator lower-cases the value before strconv.ParseBool.
    on: (v) => ['1', 't', 'true'].includes(v.toLowerCase()),
    where: 'workload',
    kinds: ['apps/Deployment'],
  },
  {
    mechanism: 'the Doppler operator',
    key: 'secrets.doppler.com/reload',
    on: isTrue,
    where: 'workload',
    kinds: ['apps/Deployment'],
  },
  {
    mechanism: 'the Infisical operator',
    key: 'secrets.infisical.com/auto-reload',
    on: isTrue,
    where: 'workload',
    kinds: ['apps/Deployment', 'apps/DaemonSet', 'apps/StatefulSet'],
  },
];

/** VSO restarts the workloads its resources list, in their own namespace. */
const restartTargets = {
  mechanism: 'Vault Secrets Operator',
  group: 'secrets.hashicorp.com',
  kinds: ['VaultStaticSecret', 'VaultDynamicSecret', 'VaultPKISecret', 'HCPVaultSecretsApp'],
  field: 'spec.rolloutRestartTargets[]',
  /** Its `kind` values (an enum in VSO's CRD) and the kind each names. */
  targets: {
    Deployment: 'apps/Deployment',
    DaemonSet: 'apps/DaemonSet',
    StatefulSet: 'apps/StatefulSet',
    'argo.Rollout': 'argoproj.io/Rollout',
  } as Readonly<Record<string, string>>,
};

/** The table's rows by mechanism, one warning each. */
const byMechanism = new Map<string, RestartAnnotation[]>();
for (const row of restartAnnotations) {
  byMechanism.set(row.mechanism, [...(byMechanism.get(row.mechanism) ?? []), row]);
}

const tableKeys = new Set(restartAnnotations.map((row) => row.key));
function mentionsAny(annotations: Json | undefined): boolean {
  if (!isObject(annotations)) return false;
  for (const key in annotations) if (tableKeys.has(key)) return true;
  return false;
}

const kindOf = (r: Resource) => `${groupOf(r.apiVersion)}/${r.kind}`;

interface Found {
  /** `key: "value"`, and where when it is not the workload's own metadata. */
  text: string;
  key: string;
  field: string;
}

/** The annotations of one mechanism (`rows`) that restart `resource`, where they are. */
function foundAnnotations(
  resource: Resource,
  templates: readonly { shape: PodTemplateShape }[],
  rows: readonly RestartAnnotation[],
): Found[] {
  const places: { metadata: readonly string[]; annotations: Readonly<Record<string, unknown>> }[] =
    [{ metadata: ['metadata'], annotations: resource.annotations }];
  // Reloader reads the pod template's annotations only when the workload has none of its keys.
  const onWorkload = rows.some((row) => resource.annotations[row.key] !== undefined);
  if (!onWorkload) {
    for (const { shape } of templates) {
      const annotations = getPath(resource.value, shape.annotations);
      if (isObject(annotations)) places.push({ metadata: shape.metadata, annotations });
    }
  }
  const found: Found[] = [];
  for (const row of rows) {
    for (const [i, { metadata, annotations }] of places.entries()) {
      const value = annotations[row.key];
      if ((i > 0 && row.where !== 'template') || typeof value !== 'string' || !row.on(value)) {
        continue;
      }
      const where = i > 0 ? ' on its pod template' : '';
      const text = `${row.key}: ${JSON.stringify(value)}${where}`;
      found.push({ text, key: row.key, field: annotationField(metadata, row.key) });
    }
  }
  return found;
}

const hint = (remove: string) =>
  `a change can restart it twice. Remove ${remove}, or opt out here with ${optOutKey}: "true"`;

export const doubleRestart: Lint = {
  option: 'doubleRestartSeverity',
  // VSO kinds that are not sources are read as projections: keep their restart targets.
  reads: restartTargets.kinds.map((kind) => ({
    group: restartTargets.group,
    kind,
    fields: ['spec.rolloutRestartTargets'],
  })),
  check({ resources, checksummed }, { report }) {
    // The workloads VSO restarts (`group/Kind/namespace/name`), with the entries that name them.
    const listed = new Map<string, string[]>();
    const path = parsePath(restartTargets.field);
    for (const r of resources) {
      if (!restartTargets.kinds.some((kind) => isKind(r, restartTargets.group, kind))) continue;
      walk(r.value, path, (entry, at) => {
        // Malformed entries are the source's to report.
        if (!isObject(entry) || typeof entry.kind !== 'string' || typeof entry.name !== 'string') {
          return;
        }
        const kind = restartTargets.targets[entry.kind];
        if (kind === undefined) return;
        const key = objectKey(kind, r.namespace, entry.name);
        listed.set(key, [...(listed.get(key) ?? []), `${describe(r)} ${fieldPath(at)}`]);
      });
    }
    for (const [resource, templates] of checksummed) {
      const [first] = templates;
      if (!first) continue;
      // Most workloads carry none of the table's annotations: that is checked without allocating.
      const annotated =
        mentionsAny(resource.annotations) ||
        templates.some(({ shape }) => mentionsAny(getPath(resource.value, shape.annotations)));
      const kind = kindOf(resource);
      const entries =
        listed.size > 0
          ? listed.get(objectKey(kind, resource.namespace, resource.name))
          : undefined;
      if (!annotated && !entries) continue;
      const ours = `${describe(resource)} is restarted by secret-rollout's ${first.annotation} and also by`;
      for (const [mechanism, all] of annotated ? byMechanism : []) {
        const rows = all.filter((row) => row.kinds.includes(kind));
        const found = foundAnnotations(resource, templates, rows);
        const [at] = found;
        if (!at) continue;
        const keys = [...new Set(found.map((f) => f.key))].join(', ');
        const texts = found.map((f) => f.text).join(', ');
        report(resource, `${ours} ${mechanism} (${texts}): ${hint(keys)}`, at.field);
      }
      if (entries) {
        report(
          resource,
          `${ours} the ${restartTargets.mechanism} (${entries.join(', ')}): ${hint('it from rolloutRestartTargets')}`,
          annotationField(first.shape.metadata, first.annotation),
        );
      }
    }
  },
};
