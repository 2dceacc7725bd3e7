// An ExternalSecret (or the spec a ClusterExternalSecret gives its ExternalSecrets) whose content
// the checksum cannot follow: remoteRefs without `version`, `dataFrom.find`, generators that run
// on a timer. When the remote value rotates, nothing in Git changes.
//
// The advice depends on the store: pinning is advice only where the provider honours
// `remoteRef.version` (docs/operators.md §8c); a store that cannot pin gets one info about how a
// rotation reaches pods. Results are one per store and advice, naming the ExternalSecrets, so that
// thirty ExternalSecrets on one store read as one finding.
import { mapUnder, nameList, namesOf } from '../../model/fold.js';
import { ItemTable } from '../../model/item-table.js';
import { isObject, type Json } from '../../model/json.js';
import { getPath } from '../../model/path.js';
import { objectKey, type Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { inGroup } from '../../model/scope.js';
import {
  esoSpecOf,
  type Refresh,
  refreshOf,
  rotatesEveryRun,
} from '../sources/eso-dependencies.js';
import { storeKindOf, storeKinds } from '../sources/index.js';
import { type StoreRef, writtenKindOf } from '../sources/source.js';
import type { Lint } from './lint.js';

/**
 * Consumers that read the Secret afresh at every run: a Job's pods start with the value of the
 * day, so a rotation needs no restart (KEDA's ScaledJob makes Jobs).
 */
const freshKinds: ReadonlyMap<string, string> = new Map([
  ['Job', 'batch'],
  ['CronJob', 'batch'],
  ['ScaledJob', 'keda.sh'],
]);
export const runsAfresh = (r: Resource) => {
  const group = freshKinds.get(r.kind);
  return group !== undefined && inGroup(r.apiVersion, group);
};

const rejects = 'rejects remoteRef.version (a sync with one fails)';
const ignores = 'ignores remoteRef.version';
/**
 * ESO providers (the SecretStore's `spec.provider` field) that cannot pin a value by
 * `remoteRef.version`, and what they do with one: their GetSecret, read at
 * external-secrets/external-secrets@cc5bfbc2 (docs/operators.md §8c). Every other provider in
 * that snapshot reads `remoteRef.version` as a fixed version; one not listed is taken to pin.
 */
const unpinnable: ReadonlyMap<string, string> = new Map([
  ['onepassword', rejects],
  ['onepasswordSDK', rejects],
  ['delinea', rejects],
  ['secretserver', rejects],
  [
    'oracle',
    'reads remoteRef.version as a stage (CURRENT, PENDING, …), which moves with a rotation',
  ],
  ['webhook', 'only hands remoteRef.version to the webhook service, which decides what it means'],
  ...[
    'barbican',
    'beyondtrust',
    'beyondtrustworkloadcredentials',
    'bitwardensecretsmanager',
    'chef',
    'conjur',
    'crd',
    'doppler',
    'dvls',
    'fortanix',
    'github',
    'gitlab',
    'ibm',
    'infisical',
    'keepersecurity',
    'kubernetes',
    'ngrok',
    'onboardbase',
    'passbolt',
    'passworddepot',
    'previder',
    'pulumi',
    'senhasegura',
  ].map((provider): [string, string] => [provider, ignores]),
]);

/** The fake provider serves the values written in the store's own spec: nothing rotates upstream. */
const inGit = 'fake';

/** One result to come: the ExternalSecrets that share a store and an advice. */
interface Group {
  advice: 'pin' | 'generator' | 'rotation';
  store?: StoreRef;
  storeResource?: Resource;
  provider?: string;
  members: Resource[];
  /**
   * The lists of copies (model/copies.ts) of its members given more than once: a copy of a member
   * (duplicate-item says so) is no member again. Made for the first such member only.
   */
  copied?: Set<readonly Resource[]>;
  /**
   * The first member's reasons, which the message shows, and how many entries all members have:
   * the others' reasons are only counted (no list kept per member).
   */
  own: string[];
  entries: number;
  /** The kinds the members write (Secret, ConfigMap, …): what a rotation reaches. */
  written: Set<string>;
  /** What would pin the group's entries (see Unpinned.pin). */
  pins: Set<Pin>;
}

export const unpinnedVersion: Lint = {
  id: 'unpinned-version',
  severity: 'warning',
  summary: 'An ExternalSecret whose remote value can rotate without a change in Git',
  help: 'Pin remoteRef.version (dataFrom[].extract.version for an extract) where the provider can; dataFrom[].find cannot be pinned: name its keys in pinned entries instead; for a generator use refreshPolicy OnChange or refreshInterval 0; or accept it (set the rule to info or off): the checksum cannot follow a rotation of the remote value.',
  check({ resources, copies, consumersOf }, { report, note, silenced }) {
    // The stores of the input, found on the first look-up (most ExternalSecrets are pinned).
    let stores: Map<string, Resource> | undefined;
    const storeAt = (key: string) => {
      if (!stores) {
        stores = new Map();
        // An index loop: with inlining off (large inputs), for-of allocated an iterator result
        // per item.
        for (let i = 0; i < resources.length; i++) {
          const r = resources[i] as Resource;
          // Most items are of other kinds: storeKindOf tells them by kind first, no group sliced.
          const kind = storeKindOf(r);
          if (kind)
            stores.set(objectKey(r.kind, kind.clusterScoped ? undefined : r.namespace, r.name), r);
        }
      }
      return stores.get(key);
    };
    // A ClusterExternalSecret is a source per namespace: its consumers are those of all of them;
    // a SecretStore it names is looked up in the first namespace it selects. Only whether one of
    // them keeps its pods across a rotation matters: consumers are read until one does.
    // By item number (model/item-table.ts), not a Map entry per ExternalSecret (2,000 on the
    // fan-in bench, outliving a scavenge to the peak).
    const read = new ItemTable<{
      namespace: string | undefined;
      written: string;
      keeps: boolean;
    }>();
    consumersOf.forEach((consumers, source) => {
      const place = read.placeOf(source.resource);
      let entry = place < 0 ? undefined : read.values[place];
      if (!entry) {
        entry = { namespace: source.namespace, written: writtenKindOf(source), keeps: false };
        read.add(source.resource, entry);
      }
      if (entry.keeps) return;
      for (let i = 0; i < consumers.length; i++) {
        if (runsAfresh(consumers[i] as Resource)) continue;
        entry.keeps = true;
        break;
      }
    });
    const groups = new Map<string, Group>();
    const groupAt = (
      key: string,
      fields: Omit<Group, 'members' | 'copied' | 'own' | 'entries' | 'pins' | 'written'>,
    ) => {
      let group = groups.get(key);
      if (!group) {
        group = {
          ...fields,
          members: [],
          own: [],
          entries: 0,
          pins: new Set(),
          written: new Set(),
        };
        groups.set(key, group);
      }
      return group;
    };
    // The group of each store an entry names, by namespace, kind and name: most entries of an
    // input read a few stores, whose key, resource and provider are found once (undefined: the
    // store serves values kept in Git).
    const byStore = new Map<string, Map<string, Map<string, Group | undefined>>>();
    const storeGroup = (kind: string, name: string, namespace: string | undefined) => {
      const byName = mapUnder(mapUnder(byStore, namespace ?? ''), kind);
      if (byName.has(name)) return byName.get(name);
      const clusterScoped = storeKinds.find((k) => k.kind === kind)?.clusterScoped;
      const key = objectKey(kind, clusterScoped ? undefined : namespace, name);
      const storeResource = storeAt(key);
      const provider = providerOf(storeResource);
      const advice = provider !== undefined && unpinnable.has(provider) ? 'rotation' : 'pin';
      const store = { kind, name };
      const group =
        provider === inGit
          ? undefined
          : groupAt(`${advice}\u0000${key}`, { advice, store, storeResource, provider });
      byName.set(name, group);
      return group;
    };
    read.values.forEach(({ namespace, written, keeps }, i) => {
      const resource = read.owners[i] as Resource;
      const site = esoSpecOf(resource);
      // Nobody reads it, or only Jobs that read the Secret afresh at each run: no trap.
      // Silenced on it: left out of its group too, which names every member.
      if (!site || !keeps || silenced(resource)) return;
      const count = scanUnpinned(site.spec);
      // A spec's entries mostly read one store (its secretStoreRef): their group is looked up
      // once.
      let lastKind: string | undefined;
      let lastName: string | undefined;
      let lastGroup: Group | undefined;
      for (let i = 0; i < count; i++) {
        const entry = scanned[i] as Unpinned;
        const { pin, storeKind, storeName } = entry;
        if (pin === undefined) {
          lastKind = undefined;
          lastGroup = groupAt('generator', generatorGroup);
        } else if (storeKind !== lastKind || storeName !== lastName) {
          lastKind = storeKind;
          lastName = storeName;
          lastGroup = storeGroup(storeKind, storeName, namespace);
        }
        const group = lastGroup;
        if (!group) continue;
        // A spec's entries are read together: the resource is a member already when it is the
        // group's last one.
        if (group.members[group.members.length - 1] !== resource) {
          // Only an item given more than once has an identity to check: no text made per member.
          const same = copies.get(resource);
          if (same) {
            group.copied ??= new Set();
            if (group.copied.has(same)) continue;
            group.copied.add(same);
          }
          group.members.push(resource);
        }
        if (pin) group.pins.add(pin);
        group.written.add(written);
        group.entries++;
        // Only the first member's reasons are shown: the others' are counted, no text made.
        if (group.members[0] === resource) group.own.push(whyOf(entry));
      }
    });
    for (const [key, group] of groups) {
      if (group.advice === 'rotation') {
        const { storeResource, provider } = group as Required<Group>;
        note(storeResource, rotationMessage(group, provider), `spec.provider.${provider}`);
        continue;
      }
      const [first] = group.members;
      const site = first && esoSpecOf(first);
      // Its message counts entries and names a first member: impact compares the group instead.
      const members = { key, members: group.members };
      if (site) report(first as Resource, unpinnedMessage(group), site.at, members);
    }
  },
};

/** The provider a store names (its one `spec.provider` field), when the store is in the input. */
function providerOf(store: Resource | undefined): string | undefined {
  const provider = store && getPath(store.value, 'spec.provider');
  const [name] = isObject(provider) ? Object.keys(provider) : [];
  return name;
}

/** One ExternalSecret by name; several counted, then named. */
const names = (members: readonly Resource[], from = '') =>
  members.length === 1
    ? describe(members[0] as Resource)
    : `${members.length} ExternalSecrets${from} (${namesOf(members, describe)})`;

/** Reasons as a message lists them: the first three, the rest counted. */
const shownReasons = (reasons: readonly string[]) =>
  (reasons.length > 3 ? [...reasons.slice(0, 3), `${reasons.length - 3} more`] : reasons).join(
    '; ',
  );

/**
 * The fix for entries a store could pin, by the field that pins them: `version` is a field of
 * `data[].remoteRef` and of `dataFrom[].extract` (both ExternalSecretDataRemoteRef), while
 * `dataFrom[].find` (ExternalSecretFind) has none (docs/operators.md §8c).
 */
function pinFix(pins: ReadonlySet<Pin>, their: string): string {
  const fields = pinnable.filter((p) => pins.has(p)).map((p) => pinField[p]);
  const rolls = `so that a new version rolls ${their} consumers`;
  const pin = fields.length > 0 ? `pin ${fields.join(' and ')} ${rolls}` : '';
  if (!pins.has('find')) return pin;
  const find = `dataFrom[].find cannot be pinned: name its keys in data[] or dataFrom[].extract with a version${pin ? '' : ` ${rolls}`}`;
  return pin ? `${pin}; ${find}` : find;
}

/** The providers that reject a version, and how many ignore one, as advice names them. */
const providersBy = (what: string) => [...unpinnable].filter(([, does]) => does === what);
const rejecting = nameList(providersBy(rejects).map(([provider]) => provider));
const ignoring = providersBy(ignores).length;

function unpinnedMessage({
  advice,
  store,
  storeResource,
  members,
  own,
  entries,
  pins,
}: Group): string {
  // A store kind other than ESO's two is text of the input: not repeated.
  const known = store?.name && storeKinds.some((k) => k.kind === store.kind);
  const pin = pinFix(pins, members.length > 1 ? 'their' : 'its');
  const severity = 'set unpinnedVersionSeverity to info or off';
  // In a Flux or Argo CD repository the store often lives in another directory: its provider is
  // not known, and pinning would break the sync of a provider that rejects a version.
  const tail =
    advice !== 'pin'
      ? `: for a generator, refreshPolicy OnChange or refreshInterval 0 if a value made once will do (a short-lived token must rotate: read it from a volume, which the kubelet updates), or ${severity}`
      : known && !storeResource && (pins.has('remoteRef') || pins.has('extract'))
        ? `: the input has no ${store.kind} ${store.name}: if its provider can pin, ${pin}; ` +
          `${rejecting} reject a version (the sync fails) and ${ignoring} other providers ignore it: for those, ${severity}`
        : `: ${pin}, or ${severity}`;
  const [first] = members as [Resource];
  if (members.length === 1) {
    return `the checksum of ${describe(first)} cannot follow a rotation of the remote value (${shownReasons(own)})${tail}`;
  }
  const from = known ? ` reading ${store.kind} ${store.name}` : '';
  return (
    `the checksums of ${names(members, from)} cannot follow ` +
    `a rotation of the remote value (${entries} entries; in ${describe(first)}: ${shownReasons(own)})${tail}`
  );
}

function rotationMessage({ storeResource, members, written }: Group, provider: string): string {
  const one = members.length === 1;
  // What the ExternalSecrets write: a ConfigMap target's rotation reaches a ConfigMap.
  const kinds = [...written].sort().map((kind) => `${kind}s`);
  const what = one ? `its ${[...written][0]}` : `their ${kinds.join(' and ')}`;
  return (
    `${names(members)} read${one ? 's' : ''} from ${describe(storeResource as Resource)}, whose ` +
    `provider ${provider} ${unpinnable.get(provider)}: a rotation reaches ${what} ` +
    'at the next refresh (refreshInterval) with no change in Git, so no checksum moves and nothing ' +
    'restarts the pods that read them (environment variables and subPath mounts keep the old ' +
    `value). To roll them on a rotation: a restarter that watches ${kinds.join(' and ')} (Stakater Reloader or ` +
    'similar), an app that re-reads a mounted volume (the kubelet updates it), or rotating through ' +
    'Git (a new remote item or key name moves the checksum)'
  );
}

/** The field that pins an entry a store reads; `find` has none. */
type Pin = 'remoteRef' | 'extract' | 'find';
const pinField: Readonly<Record<Exclude<Pin, 'find'>, string>> = {
  remoteRef: 'remoteRef.version',
  extract: 'dataFrom[].extract.version',
};
const pinnable = ['remoteRef', 'extract'] as const;

/**
 * An entry the checksum cannot follow, as scanUnpinned leaves it: what whyOf words its reason
 * from, and the store it reads. Records of the module, written over by the next scan: the lint
 * made a record, a store reference and a reason text per entry of every ExternalSecret (3.2k on
 * fan-in at 10k items), while a message shows the reasons of one member per group.
 */
interface Unpinned {
  /** Its position in `data` (a pin of remoteRef, a generator without `generator`), else `dataFrom`. */
  at: number;
  /** What would pin it; undefined for a generator. */
  pin: Pin | undefined;
  /** A `dataFrom` generator's generatorRef (a mapping), and the spec's refresh that runs it. */
  generator: Json | undefined;
  refresh: Refresh | undefined;
  /** The store a pinnable entry reads: one whose store cannot be named reads the default's. */
  storeKind: string;
  storeName: string;
}
const scanned: Unpinned[] = [];
let found = 0;

const generatorGroup = { advice: 'generator' } as const;

/**
 * Why an ExternalSecret spec's content can change upstream without the spec changing (one reason
 * per entry that is not pinned); empty when every entry is pinned. `secret-rollout impact` reuses it.
 */
export function unpinnedReasons(spec: Json | undefined): string[] {
  const count = scanUnpinned(spec);
  const reasons = new Array<string>(count);
  for (let i = 0; i < count; i++) reasons[i] = whyOf(scanned[i] as Unpinned);
  return reasons;
}

/** The reason an entry scanUnpinned found is not pinned, in a message's words. */
function whyOf({ at, pin, generator, refresh }: Unpinned): string {
  switch (pin) {
    case 'remoteRef':
      return `data[${at}].remoteRef has no fixed version`;
    case 'find':
      return `dataFrom[${at}] uses find`;
    case 'extract':
      return `dataFrom[${at}].extract has no fixed version`;
  }
  if (!isObject(generator)) return `data[${at}] uses a generator`;
  const { kind, name } = generator;
  return typeof kind === 'string' && rotatesEveryRun(kind)
    ? `dataFrom[${at}] uses generator ${kind} ${name}, which makes a new value at every refresh (${(refresh as Refresh).why}) and restarts no pod`
    : `dataFrom[${at}] uses generator ${kind} ${name}, whose value the remote side decides`;
}

// Paths as keys: getPath looks a text path up in its table of compiled ones on every call.
const dataAt = ['data'];
const dataFromAt = ['dataFrom'];
const sourceRefAt = ['sourceRef'];
const generatorRefAt = ['generatorRef'];
const storeRefAt = ['storeRef'];
const secretStoreRefAt = ['secretStoreRef'];
const remoteRefAt = ['remoteRef'];
const extractAt = ['extract'];
const findAt = ['find'];
const versionAt = ['version'];

/**
 * The entries of a spec the checksum cannot follow, into `scanned`; returns how many. Index loops
 * and functions of the module: closures made per call were most of what the lint allocated for
 * each ExternalSecret (2,000 on fan-in at 10k items), pinned or not.
 */
function scanUnpinned(spec: Json | undefined): number {
  found = 0;
  // The spec's store, read once for all its entries; an entry's own sourceRef overrides it.
  const specStore = getPath(spec, secretStoreRefAt);
  const data = listOf(getPath(spec, dataAt));
  for (let i = 0; i < data.length; i++) {
    const entry = data[i] as Json;
    // Most entries have no sourceRef: nothing more is looked up in them.
    const sourceRef = getPath(entry, sourceRefAt);
    if (isObject(sourceRef) && isObject(getPath(sourceRef, generatorRefAt))) {
      add(i, undefined, undefined, undefined);
      continue;
    }
    const remoteRef = getPath(entry, remoteRefAt);
    if (isObject(remoteRef) && !isPinned(getPath(remoteRef, versionAt))) {
      remote(add(i, 'remoteRef', undefined, undefined), sourceRef, specStore);
    }
  }
  // Read for a generator only: most specs have none.
  let refresh: Refresh | undefined;
  const dataFrom = listOf(getPath(spec, dataFromAt));
  for (let i = 0; i < dataFrom.length; i++) {
    const entry = dataFrom[i] as Json;
    const sourceRef = getPath(entry, sourceRefAt);
    const generator = isObject(sourceRef) ? getPath(sourceRef, generatorRefAt) : undefined;
    if (isObject(generator)) {
      // A generator runs at every sync: only a timer syncs without a change of the ExternalSecret
      // (which moves the checksum). Fake returns its spec; others read a remote side.
      refresh ??= refreshOf(spec);
      if (!refresh.periodic || generator.kind === 'Fake') continue;
      add(i, undefined, generator, refresh);
    } else if (isObject(getPath(entry, findAt))) {
      remote(add(i, 'find', undefined, undefined), sourceRef, specStore);
    } else {
      const extract = getPath(entry, extractAt);
      if (isObject(extract) && !isPinned(getPath(extract, versionAt))) {
        remote(add(i, 'extract', undefined, undefined), sourceRef, specStore);
      }
    }
  }
  return found;
}

/** The next record of `scanned`, filled (its store left for `remote`). */
function add(
  at: number,
  pin: Pin | undefined,
  generator: Json | undefined,
  refresh: Refresh | undefined,
): Unpinned {
  let entry = scanned[found];
  if (entry === undefined) {
    entry = { at, pin, generator, refresh, storeKind: '', storeName: '' };
    scanned[found] = entry;
  } else {
    entry.at = at;
    entry.pin = pin;
    entry.generator = generator;
    entry.refresh = refresh;
  }
  found++;
  return entry;
}

const noEntries: readonly Json[] = [];
const listOf = (value: Json | undefined): readonly Json[] =>
  Array.isArray(value) ? value : noEntries;

/**
 * The store an entry reads: its own sourceRef.storeRef, else the spec's secretStoreRef. One whose
 * store cannot be named still reads one: the default's.
 */
function remote(entry: Unpinned, sourceRef: Json | undefined, specStore: Json | undefined): void {
  const ref = (isObject(sourceRef) ? getPath(sourceRef, storeRefAt) : undefined) ?? specStore;
  const named = isObject(ref) && typeof ref.name === 'string';
  entry.storeKind = named && typeof ref.kind === 'string' ? ref.kind : 'SecretStore';
  entry.storeName = named ? (ref.name as string) : '';
}

/**
 * A version that names one value for good. Labels that move with rotation do not: AWS Secrets
 * Manager stages (AWSCURRENT, AWSPENDING) and "latest" (GCP, Azure, Vault-style providers).
 */
function isPinned(version: Json | undefined): boolean {
  if (typeof version === 'number') return true;
  if (typeof version !== 'string' || version.trim() === '') return false;
  return !/^(awscurrent|awspending|latest)$/i.test(version.trim());
}
