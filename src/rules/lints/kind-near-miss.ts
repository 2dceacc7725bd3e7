// A resource that looks like a kind the function reads but is not one (`Externalsecret`,
// `ExternalSecrets`, `external-secret.io/v1`) is silently ignored by it, and usually by the API
// server too: a warning says what it would take to count. And a known kind at a version its
// operator no longer serves is read, but its apply fails: a warning says so.
//
// Workload kinds need no near-miss check: consumers are found by shape (a pod template with
// containers), not by kind, so a misspelled `Deployment` is still read as a consumer.
import { mapUnder, namesOf } from '../../model/fold.js';
import { distance } from '../../model/near.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { groupOf } from '../../model/scope.js';
import { sourceKindOf, storeKindOf } from '../sources/index.js';
import type { Lint } from './lint.js';

export interface KnownKind {
  group: string;
  kind: string;
  /** The apiVersion to write. */
  apiVersion: string;
  /**
   * Only where sourced: the versions the operator defines but no longer serves, with why. A kind
   * with this table serves `apiVersion` only; without it, versions are not checked.
   */
  unserved?: Readonly<Record<string, string>>;
}

/**
 * ESO's CRDs (testdata/eso/crds, ESO 2.9.0) serve only v1 and list v1beta1 with `served: false`;
 * ESO's v0.17.0 release notes: "v0.17.0 Stops serving v1beta1 apis". v1alpha1 is not in them.
 */
const esoUnserved = {
  v1beta1:
    'ESO v0.17.0 and later do not serve it (served: false in their CRDs), so applying it fails there',
  v1alpha1:
    'ESO v0.17.0 and later do not define it (their CRDs have v1 and an unserved v1beta1), so applying it fails there',
};
const eso = (kind: string): KnownKind => ({
  group: 'external-secrets.io',
  kind,
  apiVersion: 'external-secrets.io/v1',
  unserved: esoUnserved,
});

/** Every source and store kind (test/lints.test.ts checks the tables agree). */
export const knownKinds: readonly KnownKind[] = [
  eso('ExternalSecret'),
  eso('ClusterExternalSecret'),
  eso('SecretStore'),
  eso('ClusterSecretStore'),
  { group: 'kubernetes-client.io', kind: 'ExternalSecret', apiVersion: 'kubernetes-client.io/v1' },
  { group: 'bitnami.com', kind: 'SealedSecret', apiVersion: 'bitnami.com/v1alpha1' },
  ...['VaultStaticSecret', 'VaultDynamicSecret', 'VaultPKISecret', 'HCPVaultSecretsApp'].map(
    (kind): KnownKind => ({
      group: 'secrets.hashicorp.com',
      kind,
      apiVersion: 'secrets.hashicorp.com/v1beta1',
    }),
  ),
  { group: 'onepassword.com', kind: 'OnePasswordItem', apiVersion: 'onepassword.com/v1' },
  {
    group: 'secrets.doppler.com',
    kind: 'DopplerSecret',
    apiVersion: 'secrets.doppler.com/v1alpha1',
  },
  { group: 'k8s.bitwarden.com', kind: 'BitwardenSecret', apiVersion: 'k8s.bitwarden.com/v1' },
  {
    group: 'secrets.infisical.com',
    kind: 'InfisicalSecret',
    apiVersion: 'secrets.infisical.com/v1alpha1',
  },
  {
    group: 'secrets-store.csi.x-k8s.io',
    kind: 'SecretProviderClass',
    apiVersion: 'secrets-store.csi.x-k8s.io/v1',
  },
  { group: '', kind: 'ConfigMap', apiVersion: 'v1' },
  { group: '', kind: 'Secret', apiVersion: 'v1' },
];

/** How a kind differs from a known one, or undefined when it is not a near miss. */
function kindMiss(kind: string, known: string): string | undefined {
  if (kind === known) return '';
  const lower = kind.toLowerCase();
  const want = known.toLowerCase();
  if (lower === want) return 'differs only in case';
  if (lower === `${want}s` || lower === `${want}es`) return 'is a plural';
  return distance(lower, want, 2) <= 2 ? 'is misspelled' : undefined;
}

const squash = (group: string) => group.toLowerCase().replace(/[^a-z0-9.]/g, '');
const firstLabel = (group: string) => squash(group).split('.')[0] as string;

/**
 * Whether a group other than `known` looks like it: a typo (edit distance ≤ 2, ignoring case and
 * dashes), the same first label under another domain (`external-secrets.com`), `core` for the
 * core group, or no group at all for an operator's kind (no built-in kind has those names).
 */
function groupMiss(group: string, known: string): boolean {
  if (known === '') return group.toLowerCase() === 'core';
  if (group === '') return true;
  return distance(squash(group), squash(known), 2) <= 2 || firstLabel(group) === firstLabel(known);
}

/** The known kind a resource looks like, and how it differs; undefined when none. */
export function nearMiss(
  apiVersion: string,
  kind: string,
): { known: KnownKind; why: string[] } | undefined {
  const group = groupOf(apiVersion);
  for (const known of knownKinds) {
    const sameGroup = group === known.group;
    if (!sameGroup && !groupMiss(group, known.group)) continue;
    const how = kindMiss(kind, known.kind);
    if (how === undefined || (how === '' && sameGroup)) continue;
    const why: string[] = [];
    if (how !== '') why.push(`its kind ${how}`);
    if (!sameGroup) why.push(`its group ${group === '' ? 'is missing' : `is ${group}`}`);
    return { known, why };
  }
  return undefined;
}

/** Why a version of a known kind fails to apply, when it does (undefined: served, or unknown). */
export function unservedVersion(resource: Resource): { known: KnownKind; why: string } | undefined {
  const group = groupOf(resource.apiVersion);
  const known = knownKinds.find((k) => k.group === group && k.kind === resource.kind);
  if (!known?.unserved || resource.apiVersion === known.apiVersion) return undefined;
  const version = resource.apiVersion.slice(group.length + 1);
  const why =
    known.unserved[version] ?? 'its operator does not define that version, so applying it fails';
  return { known, why };
}

/** What an apiVersion and kind are to the lint: read (at a served version or not), or a near miss. */
type Verdict =
  | { counted: true; unserved: ReturnType<typeof unservedVersion> }
  | { counted: false; miss: ReturnType<typeof nearMiss> };

const article = (kind: string) => `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;

export const kindNearMiss: Lint = {
  id: 'kind-near-miss',
  severity: 'warning',
  summary: 'A resource looks like a kind secret-rollout reads but is not one',
  help: 'Set the apiVersion and kind the message gives: an item that is not read gets no checksum and no place in the order.',
  check({ resources, config }, { report, silenced }) {
    // An input has thousands of items and a dozen kinds: each apiVersion and kind is judged once
    // (read as a source or store, and then its version, or else a near miss), found per item by
    // two look-ups that build no string.
    const verdicts = new Map<string, Map<string, Verdict>>();
    const verdictOf = (resource: Resource): Verdict => {
      const { apiVersion, kind } = resource;
      const byKind = mapUnder(verdicts, apiVersion);
      let verdict = byKind.get(kind);
      if (!verdict) {
        verdict =
          (sourceKindOf(resource) ?? storeKindOf(resource))
            ? { counted: true, unserved: unservedVersion(resource) }
            : { counted: false, miss: nearMiss(apiVersion, kind) };
        byKind.set(kind, verdict);
      }
      return verdict;
    };
    // A repository written for an older operator has every item at the old version: one warning
    // per apiVersion and kind, naming them (silenced items are left out).
    const unservedGroups = new Map<string, { why: string; known: KnownKind; items: Resource[] }>();
    // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
    // item.
    for (let i = 0; i < resources.length; i++) {
      const resource = resources[i] as Resource;
      const verdict = verdictOf(resource);
      if (verdict.counted) {
        const { unserved } = verdict;
        if (!unserved || silenced(resource)) continue;
        const key = `${resource.apiVersion}\u0000${resource.kind}`;
        const group = unservedGroups.get(key) ?? { ...unserved, items: [] };
        group.items.push(resource);
        unservedGroups.set(key, group);
        continue;
      }
      const { miss } = verdict;
      if (!miss) continue;
      const { known, why } = miss;
      report(
        resource,
        `${describe(resource)} (${resource.apiVersion}) looks like ${article(known.kind)} ` +
          `(${known.apiVersion}), but ${why.join(' and ')}, so secret-rollout does not read it ` +
          `(no checksum, no ${config.ordering.includes('argocd') ? 'wave' : 'order'}). To count, set apiVersion: ${known.apiVersion} and kind: ` +
          `${known.kind}`,
        why.some((w) => w.startsWith('its kind')) ? 'kind' : 'apiVersion',
      );
    }
    for (const [key, { why, known, items }] of unservedGroups) {
      const [first] = items as [Resource];
      const fix = `but ${why}. Set apiVersion: ${known.apiVersion}`;
      report(
        first,
        items.length === 1
          ? `${describe(first)} (${first.apiVersion}) is read as ${article(known.kind)}, ${fix}`
          : `${items.length} ${known.kind}s (${namesOf(items, describe)}) use ${first.apiVersion}: ` +
              `they are read as ${known.kind}s, ${fix}`,
        'apiVersion',
        // Its message counts and names a first member: impact compares the group instead.
        { key, members: items },
      );
    }
  },
};
