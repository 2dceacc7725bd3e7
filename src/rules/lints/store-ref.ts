// An ExternalSecret's store reference that cannot be what was meant. Stores often live outside the
// input (a platform team's ClusterSecretStore), so a store the input lacks is no finding; but one
// it lacks while it has a store of the other kind by that name (`kind` left out: it defaults to
// SecretStore), or a near name (`vautl` read, `vault` there), is a typo more often than not: ESO
// reports the ExternalSecret not ready, and nothing here orders the store before it. And a `kind`
// that is not one ESO's CRD accepts (its enum: the store kinds of sources/index.ts) fails the
// apply.
import { distance, swapped } from '../../model/near.js';
import type { Trail } from '../../model/path.js';
import { fieldPath, getPath } from '../../model/path.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { storeKindOf, storeKinds } from '../sources/index.js';
import type { SecretSource, StoreRef } from '../sources/source.js';
import { isKind, type Lint } from './lint.js';

/** The kind ESO reads when `kind` is left out (its CRD's default; docs/operators.md §8). */
const defaultKind = 'SecretStore';

/** Edits allowed for a name of this length, as near-name allows them; a swap of two is one. */
const maxEdits = (length: number) => (length < 4 ? 0 : length < 8 ? 1 : 2);

/**
 * Comparisons of names a run makes: `comparisons` and `perLookUp` more for each missing reference
 * looked up; only inputs crafted with thousands of stores of near lengths spend it (each
 * comparison costs at most a band of the names' lengths, model/near.ts), and past it the lint
 * says so.
 */
const comparisons = 10_000;
const perLookUp = 64;

/** The sources that read ESO stores: an ExternalSecret, a ClusterExternalSecret's template. */
const esoSource = (resource: Resource) =>
  isKind(resource, 'external-secrets.io', 'ExternalSecret') ||
  isKind(resource, 'external-secrets.io', 'ClusterExternalSecret');

export const storeRef: Lint = {
  id: 'store-ref',
  severity: 'warning',
  summary:
    "An ExternalSecret's store reference has a kind ESO does not accept, or names a store the input lacks next to one it has",
  help: 'Set the kind and name of the store meant; if the store comes from elsewhere (the cluster), silence the rule for that ExternalSecret or set it off.',
  check({ resources, sources }, { report }) {
    // Stores in the input, by kind, then namespace ('' for a cluster store), then name: found at
    // the first ESO source with a store reference (most inputs have none, or few).
    let stores: Map<string, Map<string, Set<string>>> | undefined;
    // By the reference itself: a ClusterExternalSecret's sources (one per namespace) share its
    // spec's, so it is reported once, and no key text is built per reference.
    const reported = new Set<StoreRef>();
    let budget = comparisons;
    let stopped: SecretSource | undefined;
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i] as SecretSource;
      if (source.stores.length === 0 || !esoSource(source.resource)) continue;
      stores ??= storesIn(resources);
      // Where each of this source's references is written, found on its first finding.
      let fieldOf: ((ref: StoreRef, leaf: 'kind' | 'name') => string) | undefined;
      const refField = (ref: StoreRef, leaf: 'kind' | 'name') => {
        fieldOf ??= refFields(source.resource);
        return fieldOf(ref, leaf);
      };
      for (let k = 0; k < source.stores.length; k++) {
        const ref = source.stores[k] as StoreRef;
        if (reported.has(ref)) continue;
        const known = storeKinds.find((s) => s.kind === ref.kind);
        const { resource } = source;
        if (!known) {
          reported.add(ref);
          const meant = /^cluster/i.test(ref.kind) ? 'ClusterSecretStore' : defaultKind;
          report(
            resource,
            `${describe(resource)} names its store with a kind ESO does not accept: its CRD ` +
              `allows ${storeKinds.map((s) => s.kind).join(' or ')} only (${defaultKind} when ` +
              `left out), so applying it fails. Set kind: ${meant}`,
            refField(ref, 'kind'),
          );
          continue;
        }
        const namespace = known.clusterScoped ? '' : (source.namespace ?? '');
        if (stores.get(ref.kind)?.get(namespace)?.has(ref.name)) continue;
        const other = storeKinds.find((s) => s !== known) as (typeof storeKinds)[number];
        const otherNamespace = other.clusterScoped ? '' : (source.namespace ?? '');
        const there = stores.get(other.kind)?.get(otherNamespace);
        let near: { kind: string; name: string } | undefined;
        if (there?.has(ref.name)) near = { kind: other.kind, name: ref.name };
        else {
          budget += perLookUp;
          near = nearStore(ref.name, [
            [ref.kind, stores.get(ref.kind)?.get(namespace)],
            [other.kind, there],
          ]);
          if (near === undefined && budget < 0) stopped ??= source;
        }
        if (!near) continue;
        reported.add(ref);
        const where = known.clusterScoped ? '' : ' in its namespace';
        const otherWhere = other.clusterScoped ? '' : ' in its namespace';
        const kindHint =
          near.kind === ref.kind
            ? ''
            : ` (kind ${ref.kind === defaultKind ? `is ${defaultKind} when left out` : 'differs'})`;
        report(
          resource,
          `${describe(resource)} reads ${ref.kind} ${ref.name}, which the input does not have, ` +
            `while it has ${near.kind} ${near.name}${near.kind === other.kind ? otherWhere : where}${kindHint}: ` +
            'if that is the one meant, fix the name on one side; if the store comes from elsewhere (the ' +
            'cluster), silence store-ref for this ExternalSecret (secret-rollout/silence) or set it off',
          refField(ref, near.kind === ref.kind ? 'name' : 'kind'),
        );
      }
    }
    // At the lint's severity, as near-name's: an info would sink among a large input's infos.
    if (stopped) {
      report(
        stopped.resource,
        `${describe(stopped.resource)} and the store references after it were compared with ` +
          'only some of the stores of the input (many, of near lengths): a misspelt store name ' +
          'among them may go unreported',
      );
    }

    /** A store of these whose name is within the allowed edits of `name`; paid from the budget. */
    function nearStore(
      name: string,
      among: readonly [string, Set<string> | undefined][],
    ): { kind: string; name: string } | undefined {
      const max = maxEdits(name.length);
      if (max === 0) return undefined;
      for (const [kind, names] of among) {
        if (!names) continue;
        // Only the names of near lengths, each paid for: a walk over all of them, skipping the
        // rest for free, cost references × stores (s16-review: 17 MB, 19 s).
        const byLength = lengthsOf(names);
        for (let length = name.length - max; length <= name.length + max; length++) {
          const candidates = byLength.get(length) ?? [];
          for (let c = 0; c < candidates.length; c++) {
            const candidate = candidates[c] as string;
            if (budget-- <= 0) return undefined;
            if (swapped(name, candidate) || distance(name, candidate, max) <= max) {
              return { kind, name: candidate };
            }
          }
        }
      }
      return undefined;
    }
  },
};

/** The input's stores: kind → namespace ('' for a cluster-scoped kind) → names. */
function storesIn(resources: readonly Resource[]): Map<string, Map<string, Set<string>>> {
  const found = new Map<string, Map<string, Set<string>>>();
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as Resource;
    const kind = storeKindOf(resource);
    if (!kind) continue;
    let byNamespace = found.get(kind.kind);
    if (!byNamespace) {
      byNamespace = new Map();
      found.set(kind.kind, byNamespace);
    }
    const namespace = kind.clusterScoped ? '' : (resource.namespace ?? '');
    let names = byNamespace.get(namespace);
    if (!names) {
      names = new Set();
      byNamespace.set(namespace, names);
    }
    names.add(resource.name);
  }
  return found;
}

/** A set's names by length, made once per set (a namespace's stores of one kind). */
function lengthsOf(names: Set<string>): Map<number, string[]> {
  let byLength = lengthIndex.get(names);
  if (byLength === undefined) {
    byLength = new Map();
    for (const name of names) {
      const same = byLength.get(name.length);
      if (same) same.push(name);
      else byLength.set(name.length, [name]);
    }
    lengthIndex.set(names, byLength);
  }
  return byLength;
}
const lengthIndex = new WeakMap<Set<string>, Map<number, string[]>>();

/**
 * Where a source names each store: its spec's `secretStoreRef`, else the first entry of `data` or
 * `dataFrom` whose `sourceRef.storeRef` does, then `.kind` or `.name` under it. The places are
 * read once, at a source's first finding: read again per finding, a source of many entries each
 * naming a near store cost entries² (s16-review).
 */
function refFields(resource: Resource): (ref: StoreRef, leaf: 'kind' | 'name') => string {
  const spec: Trail = isKind(resource, 'external-secrets.io', 'ClusterExternalSecret')
    ? ['spec', 'externalSecretSpec']
    : ['spec'];
  const first = new Map<string, Trail>();
  const note = (at: Trail) => {
    const found = getPath(resource.value, at);
    if (found === null || typeof found !== 'object' || Array.isArray(found)) return;
    const { name, kind = defaultKind } = found;
    if (typeof name !== 'string' || typeof kind !== 'string') return;
    const key = `${kind}\u0000${name}`;
    if (!first.has(key)) first.set(key, at);
  };
  note([...spec, 'secretStoreRef']);
  for (const list of ['data', 'dataFrom']) {
    const entries = getPath(resource.value, [...spec, list]);
    if (!Array.isArray(entries)) continue;
    for (let i = 0; i < entries.length; i++) note([...spec, list, i, 'sourceRef', 'storeRef']);
  }
  return (ref, leaf) => {
    const at = first.get(`${ref.kind}\u0000${ref.name}`) ?? [...spec, 'secretStoreRef'];
    return fieldPath([...at, leaf]);
  };
}
