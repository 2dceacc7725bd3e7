// A workload the function annotates that another mechanism restarts too: a change can roll it
// twice, once for the checksum and once for the other. Both are tables: restart annotations
// (Reloader, wave, the operators' own), and VSO's rolloutRestartTargets on its resources. Facts
// and their sources: docs/operators.md §1, §2, §3, §5, §9a, §9b, §10.
import { annotationField } from '../../model/edit.js';
import { addTo } from '../../model/fold.js';
import { isObject, type Json } from '../../model/json.js';
import { fieldPath, getPath, parsePath, walk } from '../../model/path.js';
import { objectKey, type Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { groupOf, inGroup } from '../../model/scope.js';
import type { SecretSource } from '../sources/source.js';
import { helmReleaseGroup, isHelmRelease, valuesAnnotations } from '../workloads/helm-release.js';
import { optOutKey } from '../workloads/opt-out.js';
import type { ProducedKind } from '../workloads/references.js';
import type { PodTemplateShape } from '../workloads/shapes.js';
import { goBool, type Lint } from './lint.js';
import { goTrimSpace, ReloadLists } from './reload-list.js';

/** What each operator does with a value: Go's strconv.ParseBool (goBool), `== "true"`. */
const isTrue = (v: string) => v === 'true';

/** An annotation on the workload's metadata that restarts it for every change it follows. */
interface RestartAnnotation {
  mechanism: string;
  key: string;
  /** The values that make it restart the workload. */
  on: (value: string) => boolean;
  /** The kinds it restarts, `group/Kind`. */
  kinds: readonly string[];
}

const restartAnnotations: readonly RestartAnnotation[] = [
  {
    mechanism: 'wave',
    key: 'wave.pusher.com/update-on-config-change',
    on: isTrue,
    kinds: ['apps/Deployment', 'apps/DaemonSet', 'apps/StatefulSet'],
  },
  {
    mechanism: 'the 1Password operator',
    key: 'operator.1password.io/auto-restart',
    // The operator lower-cases the value before strconv.ParseBool.
    on: (v) => ['1', 't', 'true'].includes(v.toLowerCase()),
    kinds: ['apps/Deployment'],
  },
  {
    mechanism: 'the Doppler operator',
    key: 'secrets.doppler.com/reload',
    on: isTrue,
    kinds: ['apps/Deployment'],
  },
  {
    mechanism: 'the Infisical operator',
    key: 'secrets.infisical.com/auto-reload',
    on: isTrue,
    kinds: ['apps/Deployment', 'apps/DaemonSet', 'apps/StatefulSet'],
  },
];

/**
 * Stakater Reloader decides per changed resource (pkg/common/common.go ShouldReload), so it is
 * asked about each source the checksum covers, with its annotations for that type of resource.
 */
interface ReloaderType {
  /** Sources producing this kind change this type of resource. */
  produces: ProducedKind;
  /** Names or regular expressions (RE2), comma-separated: reload-list.ts. */
  reload: string;
  auto: string;
  /** Exact names, comma-separated; read from the workload's metadata only. */
  exclude: string;
}
const reloaderTypes: readonly ReloaderType[] = [
  {
    produces: 'Secret',
    reload: 'secret.reloader.stakater.com/reload',
    auto: 'secret.reloader.stakater.com/auto',
    exclude: 'secrets.exclude.reloader.stakater.com/reload',
  },
  {
    produces: 'ConfigMap',
    reload: 'configmap.reloader.stakater.com/reload',
    auto: 'configmap.reloader.stakater.com/auto',
    exclude: 'configmaps.exclude.reloader.stakater.com/reload',
  },
  {
    produces: 'SecretProviderClass',
    reload: 'secretproviderclass.reloader.stakater.com/reload',
    auto: 'secretproviderclass.reloader.stakater.com/auto',
    exclude: 'secretproviderclasses.exclude.reloader.stakater.com/reload',
  },
];
const reloader = {
  mechanism: 'Stakater Reloader',
  auto: 'reloader.stakater.com/auto',
  // Restarts for resources annotated reloader.stakater.com/match: "true", which only the cluster shows.
  search: 'reloader.stakater.com/search',
  kinds: [
    'apps/Deployment',
    'apps/DaemonSet',
    'apps/StatefulSet',
    'batch/CronJob',
    'batch/Job',
    'argoproj.io/Rollout',
    // What a release renders carries the annotations its values give (valuesPlaces).
    `${helmReleaseGroup}/HelmRelease`,
  ],
};

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

const tableKeys = new Set([
  ...restartAnnotations.map((row) => row.key),
  ...reloaderTypes.flatMap((t) => [t.reload, t.auto, t.exclude]),
  reloader.auto,
  reloader.search,
]);
function mentionsAny(annotations: Json | undefined): boolean {
  if (!isObject(annotations)) return false;
  for (const key in annotations) if (tableKeys.has(key)) return true;
  return false;
}

/**
 * Whether a pod template's annotations mention the table: an index loop, where `some` with an
 * arrow made a closure for each checksummed workload (most of what the lint allocated).
 */
function templatesMention(
  resource: Resource,
  templates: readonly { shape: PodTemplateShape }[],
): boolean {
  for (let i = 0; i < templates.length; i++) {
    const { shape } = templates[i] as { shape: PodTemplateShape };
    if (mentionsAny(getPath(resource.value, shape.annotations))) return true;
  }
  return false;
}

const vsoKinds: ReadonlySet<string> = new Set(restartTargets.kinds);

const kindOf = (r: Resource) => `${groupOf(r.apiVersion)}/${r.kind}`;

interface Found {
  /**
   * `key: "value"` for a switch (one of the few values that turn it on), the key alone for a
   * `reload` list, whose entries are free text from the input; and where when it is not the
   * workload's own metadata.
   */
  text: string;
  key: string;
  field: string;
  /** The annotations mapping it is in: with `key`, what tells two finds apart. */
  mapping: object;
}

interface Place {
  /** The path of the annotations mapping. */
  at: readonly string[];
  annotations: Readonly<Record<string, Json>>;
  own: boolean;
  /** Annotations in a HelmRelease's values, which its chart writes on what it renders. */
  values?: true;
}

/** Every annotations mapping in a HelmRelease's values (valuesAnnotations), wherever the chart has it. */
const valuesPlaces = (resource: Resource): Place[] =>
  valuesAnnotations(resource).map((found) => ({
    // Written out only for a result (helm-values.ts FoundAnnotations).
    get at() {
      return found.at;
    },
    annotations: found.annotations,
    own: false,
    values: true,
  }));

function foundAt(place: Place, key: string, list = false): Found | undefined {
  const value = place.annotations[key];
  if (typeof value !== 'string') return undefined;
  const where = place.own ? '' : place.values ? ' in its values' : ' on its pod template';
  return {
    text: `${key}${list ? '' : `: ${JSON.stringify(value)}`}${where}`,
    key,
    field: fieldPath(place.at, key),
    mapping: place.annotations,
  };
}

/** A `reload` list the lint could not read whole: entries that are not RE2, or past the budget. */
interface Unread {
  key: string;
  own: boolean;
  /** Entries Reloader skips. */
  invalid: readonly number[];
  /** Whether the run's regular-expression budget ran out before the list was decided. */
  undecided: boolean;
  produces: ProducedKind;
}

/** What the Reloader part of the lint reads and finds across the workloads of one run. */
interface ReloaderRun {
  lists: ReloadLists;
  /** Of the workload being checked, by field. */
  unread: Map<string, Unread>;
  /** Of the HelmRelease being checked: its values' annotations, found once for all its sources. */
  values: readonly Place[] | undefined;
}

/** The Reloader annotations that restart `resource` when `source`'s resource (of `type`) changes. */
function reloaderFor(
  resource: Resource,
  templates: readonly { shape: PodTemplateShape }[],
  type: ReloaderType,
  source: SecretSource,
  run: ReloaderRun,
): Found[] {
  const own = resource.annotations;
  const excluded = own[type.exclude];
  if (typeof excluded === 'string') {
    if (excluded.split(',').some((name) => goTrimSpace(name) === source.secretName)) return [];
  }
  // The pod template's annotations are read only when the workload has none of the type's keys.
  const keys = [type.reload, reloader.auto, type.auto, reloader.search];
  const places: Place[] = [];
  if (run.values) places.push(...run.values);
  else if (keys.some((key) => own[key] !== undefined)) {
    places.push({ at: ['metadata', 'annotations'], annotations: own, own: true });
  } else {
    for (const { shape } of templates) {
      const annotations = getPath(resource.value, shape.annotations);
      if (isObject(annotations))
        places.push({ at: [...shape.metadata, 'annotations'], annotations, own: false });
    }
  }
  const result: Found[] = [];
  for (const place of places) {
    const reload = place.annotations[type.reload];
    const list = typeof reload === 'string' ? run.lists.list(reload) : undefined;
    const search = place.annotations[reloader.search];
    const answer = list && run.lists.named(list, source.secretName);
    if (list && (list.invalid.length > 0 || answer === undefined)) {
      const field = fieldPath(place.at, type.reload);
      const undecided = answer === undefined || run.unread.get(field)?.undecided === true;
      run.unread.set(field, {
        key: type.reload,
        own: place.own,
        invalid: list.invalid,
        undecided,
        produces: type.produces,
      });
    }
    const on = [
      ...[reloader.auto, type.auto].filter((key) => {
        const value = place.annotations[key];
        return typeof value === 'string' && goBool(value);
      }),
      answer ? type.reload : undefined,
      typeof search === 'string' && isTrue(search) ? reloader.search : undefined,
    ];
    for (const key of on) {
      const at = key && foundAt(place, key, key === type.reload);
      if (at) result.push(at);
    }
  }
  return result;
}

/** Each workload-metadata annotation of `rows` that is on. */
function workloadAnnotations(resource: Resource, rows: readonly RestartAnnotation[]): Found[] {
  const place = { at: ['metadata', 'annotations'], annotations: resource.annotations, own: true };
  return rows.flatMap((row) => {
    const value = resource.annotations[row.key];
    const at = typeof value === 'string' && row.on(value) ? foundAt(place, row.key) : undefined;
    return at ? [at] : [];
  });
}

const hint = (remove: string, instead?: string) =>
  `a change can restart it twice. Remove ${remove}${instead ? `, ${instead}` : ''}, or opt out here with ${optOutKey}: "true"`;

/** The table's rows by mechanism, one warning each. */
const byMechanism = new Map<string, RestartAnnotation[]>();
for (const row of restartAnnotations) {
  byMechanism.set(row.mechanism, [...(byMechanism.get(row.mechanism) ?? []), row]);
}

/**
 * Reloader's part of the warning, if it follows a resource the checksum covers: which of its
 * annotations, for which resources, and how to exclude just those (Reloader then still restarts
 * the workload for everything else its pods read).
 */
function reloaderWarning(
  resource: Resource,
  templates: readonly { shape: PodTemplateShape; sources: readonly SecretSource[] }[],
  run: ReloaderRun,
): { message: string; field: string } | undefined {
  // Told apart by mapping and key, not by field: a path in a HelmRelease's values is as long as
  // the input makes it, and hashing it for each of many places cost their product.
  const all: Found[] = [];
  const seen = new Map<object, Set<string>>();
  const followed = new Map<ReloaderType, Set<string>>();
  for (const { sources } of templates) {
    for (const source of sources) {
      const type = reloaderTypes.find((t) => t.produces === source.produces);
      const on = type ? reloaderFor(resource, templates, type, source, run) : [];
      if (!type || on.length === 0) continue;
      followed.set(type, (followed.get(type) ?? new Set()).add(source.secretName));
      for (const f of on) {
        const keys = seen.get(f.mapping) ?? new Set<string>();
        if (!keys.has(f.key)) all.push(f);
        seen.set(f.mapping, keys.add(f.key));
      }
    }
  }
  const [at] = all;
  if (!at) return undefined;
  const texts = all.map((f) => f.text).join(', ');
  const keys = [...new Set(all.map((f) => f.key))].join(', ');
  const named = [...followed].flatMap(([type, names]) =>
    [...names].map((n) => `${type.produces} ${n}`),
  );
  const exclude = [...followed].map(
    ([type, names]) => `add ${[...names].join(',')} to ${type.exclude}`,
  );
  const changes = named.length === 1 ? 'changes' : 'change';
  return {
    message: `${reloader.mechanism} (${texts}) when ${named.join(', ')} ${changes}: ${hint(keys, exclude.join(', '))}`,
    field: at.field,
  };
}

/** Positions only: an entry is text from the input, which no message quotes. */
function unreadMessages(resource: Resource, unread: Unread): string[] {
  const { key, invalid, undecided } = unread;
  const list = `${key}${unread.own ? '' : ' on its pod template'}`;
  const covered = `a ${unread.produces} the checksum covers`;
  const entries = invalid.length === 1 ? 'entry' : 'entries';
  return [
    invalid.length > 0 &&
      `Stakater Reloader skips ${entries} ${invalid.join(', ')} of ${list}: not a valid RE2 regular expression (Go's regexp), so Reloader never matches it and this lint cannot tell whether it names ${covered}. Fix or remove it`,
    undecided &&
      `${list} was not evaluated in full: the Reloader lists of this input hold more regular-expression work than one run does, so this lint cannot tell whether it names ${covered}`,
  ].flatMap((problem) => (problem ? [`${describe(resource)}: ${problem}`] : []));
}

export const doubleRestart: Lint = {
  id: 'double-restart',
  severity: 'warning',
  summary: 'A workload with a checksum that another mechanism restarts too',
  help: 'Keep one restart mechanism: remove the other one, or opt the workload out with secret-rollout/ignore: "true".',
  // VSO kinds that are not sources are read as projections: keep their restart targets.
  reads: restartTargets.kinds.map((kind) => ({
    group: restartTargets.group,
    kind,
    fields: ['spec.rolloutRestartTargets'],
  })),
  check({ resources, checksummed }, { report }) {
    // The workloads VSO restarts (`group/Kind/namespace/name`), with the entries that name them.
    const listed = new Map<string, string[]>();
    // Their names: a workload none names is passed over with no key text built for it (every
    // checksummed workload of an input with a VSO resource: 8k on fan-in at 10k items).
    const names = new Set<string>();
    const path = parsePath(restartTargets.field);
    // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
    // item.
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i] as Resource;
      if (!vsoKinds.has(r.kind) || !inGroup(r.apiVersion, restartTargets.group)) continue;
      walk(r.value, path, (entry, at) => {
        // Malformed entries are the source's to report.
        if (!isObject(entry) || typeof entry.kind !== 'string' || typeof entry.name !== 'string') {
          return;
        }
        const kind = restartTargets.targets[entry.kind];
        if (kind === undefined) return;
        const key = objectKey(kind, r.namespace, entry.name);
        addTo(listed, key, `${describe(r)} ${fieldPath(at)}`);
        names.add(entry.name);
      });
    }
    const run: ReloaderRun = { lists: new ReloadLists(), unread: new Map(), values: undefined };
    // forEach: a for…of over the map allocates an entry per workload.
    checksummed.forEach((templates, resource) => {
      // Indexed, not destructured: an array pattern iterates.
      const first = templates[0];
      if (!first) return;
      // A walk of the whole of spec.values: done once here, not again for each source it reads.
      run.values = isHelmRelease(resource) ? valuesPlaces(resource) : undefined;
      // Most workloads carry none of the table's annotations: that is checked without allocating.
      const annotated =
        mentionsAny(resource.annotations) ||
        templatesMention(resource, templates) ||
        run.values?.some((p) => mentionsAny(p.annotations)) === true;
      const named = names.has(resource.name);
      if (!annotated && !named) return;
      const kind = kindOf(resource);
      const entries = named
        ? listed.get(objectKey(kind, resource.namespace, resource.name))
        : undefined;
      if (!annotated && !entries) return;
      const ours = `${describe(resource)} is restarted by secret-rollout's ${first.annotation} and also by`;
      run.unread.clear();
      const byReloader =
        annotated && reloader.kinds.includes(kind) && reloaderWarning(resource, templates, run);
      if (byReloader) report(resource, `${ours} ${byReloader.message}`, byReloader.field);
      for (const [field, unread] of run.unread) {
        for (const message of unreadMessages(resource, unread)) report(resource, message, field);
      }
      for (const [mechanism, all] of annotated ? byMechanism : []) {
        const found = workloadAnnotations(
          resource,
          all.filter((row) => row.kinds.includes(kind)),
        );
        const [at] = found;
        if (!at) continue;
        const keys = found.map((f) => f.key).join(', ');
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
    });
  },
};
