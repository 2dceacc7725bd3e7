// A workload reading a Secret (or ConfigMap) that nothing in the input makes, while something in
// its namespace makes a near name: a typo (`postgress`, one or two edits away), or `act-runner`
// read and `gitea-act-runner` made (a chart's release prefix). Nothing checksums or orders the
// read, and the pod fails to start (or runs without it) if the name is wrong. A typo is a
// warning (the rule's severity): a likely mistake, and the run's main promise failing in
// silence. A name with an affix, or one whose digits differ (`db-1`, `db-2`), is an info:
// a Secret named so may well come from elsewhere (the cluster, a chart not in the input), as
// release-prefixed and numbered names often do.
//
// Cost stays linear in the input: names are indexed (by their first and last `-` segment and by
// length), and every comparison of a run, however crowded the namespace, is paid from one budget
// of cells (names from the input can be crafted to be many, long and alike), which grows with
// each missing name looked up. Where it runs out, the lint says so: a misspelt name it did not
// compare would otherwise go unreported in silence.
import { addTo, mapUnder } from '../../model/fold.js';
import { distance } from '../../model/near.js';
import { fieldPath } from '../../model/path.js';
import type { Bystander, Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { SecretSource } from '../sources/source.js';
import { Places } from '../workloads/references.js';
import type { Lint, UnresolvedRef } from './lint.js';

/** Longer names are never near (a Kubernetes name has at most 253 characters; model/near.ts). */
const longest = 253;
/**
 * Cells a run spends comparing names: one for each name compared, a character of each of the two
 * where their counts are compared (countsApart), the product of the lengths where an edit
 * distance is computed, and one plus the read name's length for each name checked for a prefix
 * or suffix. A run starts with `cellBudget`, and each missing name looked up adds
 * `cellsPerLookUp`, enough to compare it with 80 names of 50 characters or rule out 8,000 by
 * their letters: only names crafted to be many, long and alike spend it, and the run's cost
 * stays linear in its reads. Past it, no more names are compared, and the lint reports that it
 * stopped. (Until session 12 a read was also compared with only the first 16 names of each
 * bucket, and a near name past them went unreported in silence.)
 */
const cellBudget = 1_000_000;
const cellsPerLookUp = 8_192;

/** Edits allowed for a name of this length: none under 4 characters (`db` is near everything). */
const maxEdits = (length: number) => (length < 4 ? 0 : length < 8 ? 1 : 2);

interface Made {
  name: string;
  /**
   * The source that makes it; undefined for a plain Secret or ConfigMap of the input. Described
   * in a message only: most names made are never suggested.
   */
  by: Resource | undefined;
  /**
   * Its characters, as `letters` and `others` give them (compared before their counts), found at
   * its first comparison (-1 until then): most names made are never compared.
   */
  letters: number;
  others: number;
}

/**
 * The characters a name has, as two sets of 32 bits: `a`–`z`, `-` and `.` in one, the digits and
 * any other character (its code folded) in the other. An edit adds at most one character to a
 * name's set and takes at most one away, so names more than `max` edits apart differ in more
 * than 2 × `max` bits: most names compared do (`worker-db-6370` and `indexer-1409`), found in a
 * few operations where their counts read each character twice.
 */
function letters(name: string): number {
  let bits = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
    else if (c === 45) bits |= 1 << 26;
    else if (c === 46) bits |= 1 << 27;
  }
  return bits;
}
function others(name: string): number {
  let bits = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 48 && c <= 57) bits |= 1 << (c - 48);
    else if ((c < 97 || c > 122) && c !== 45 && c !== 46) bits |= 1 << (10 + (c % 22));
  }
  return bits;
}

/** The bits set in a 32-bit number. */
function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The first and last `-` segments: `x` and `<prefix>-x` share the last, `x-<suffix>` the first. */
const first = (name: string) =>
  name.slice(0, name.indexOf('-') + 1 ? name.indexOf('-') : name.length);
const last = (name: string) => name.slice(name.lastIndexOf('-') + 1);

/**
 * Whether `long` is `short` with a `-` prefix or suffix added (`<prefix>-x`, `x-<suffix>`). The
 * `-` where the affix would end is read before the texts are compared: the names of a bucket
 * mostly share its first segment (a namespace's names start with its name), and each missing
 * name is checked against all of them (63k names on mixed at 10k items, two comparisons each).
 */
const extends_ = (long: string, short: string) =>
  long.length > short.length + 1 &&
  ((long.charCodeAt(long.length - short.length - 1) === 45 && long.endsWith(short)) ||
    (long.charCodeAt(short.length) === 45 && long.startsWith(short)));

/**
 * A name's digits, in order. Near names whose digits differ (`api-creds-6297` and
 * `api-creds-6692`, `redis-0` and `redis-10`, `app-ca` and `app-17`) are numbered siblings more
 * often than typos.
 */
const digitsOf = (name: string) => name.replace(/\D+/g, '');

/** `x` and `<prefix>-x`, or `x` and `x-<suffix>`, either way round (no string is built). */
const affixed = (a: string, b: string) => extends_(a, b) || extends_(b, a);

export const nearName: Lint = {
  id: 'near-name',
  severity: 'warning',
  summary: 'A workload reads a Secret nothing in the input makes, next to a near name it makes',
  help: 'Read the name the input makes; if the Secret comes from elsewhere (the cluster, a chart not in the input), silence the rule for that workload or set it off.',
  check({ resources, bystanders, sources, unresolved }, { report, note, silenced }) {
    if (unresolved.size === 0) return;
    // What the input makes, per kind then namespace (no key string built per item or per
    // look-up); a name made anywhere (another namespace is the cross-namespace lint's) or present
    // as a plain item is no miss.
    const scopes = new Map<string, Map<string, Scope>>();
    const anywhere = new Map<string, Set<string>>();
    const add = (kind: string, namespace: string | undefined, name: string, by?: Resource) => {
      const inKind = mapUnder(scopes, kind);
      let scope = inKind.get(namespace ?? '');
      if (!scope) {
        scope = {
          names: new Set(),
          looked: new Map(),
          first: new Map(),
          last: new Map(),
          length: new Map(),
        };
        inKind.set(namespace ?? '', scope);
      }
      if (scope.names.has(name)) return;
      scope.names.add(name);
      if (name.length > longest) return;
      const m: Made = {
        name,
        by,
        letters: -1,
        others: -1,
      };
      addTo(scope.first, first(name), m);
      addTo(scope.last, last(name), m);
      addTo(scope.length, name.length, m);
    };
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i] as SecretSource;
      let names = anywhere.get(s.produces);
      if (!names) {
        names = new Set();
        anywhere.set(s.produces, names);
      }
      names.add(s.secretName);
      add(s.produces, s.namespace, s.secretName, s.resource);
    }
    for (const items of [resources, bystanders]) {
      // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
      // item.
      for (let i = 0; i < items.length; i++) {
        const r = items[i] as Resource | Bystander;
        const plainKind = r.kind === 'Secret' || r.kind === 'ConfigMap';
        if (r.apiVersion !== 'v1' || !plainKind || r.name === undefined) continue;
        add(r.kind, r.namespace, r.name);
      }
    }
    let cells = cellBudget;
    /** Whether the budget ran out during the present look-up, before every name was compared. */
    let stopped = false;
    /** Whether the present look-up's near name is within the allowed edits (not an affix). */
    let typo = false;
    /** Missing names the budget stopped, and the first read of one (the result's place). */
    let stoppedNames = 0;
    let firstStopped: { resource: Resource; ref: UnresolvedRef } | undefined;
    // Many workloads read the same missing name (a shared TLS Secret): looked up once each in its
    // scope; a kind the namespace does not make has no near name.
    const lookUp = (namespace: string | undefined, kind: string, name: string): Looked => {
      const scope = scopes.get(kind)?.get(namespace ?? '');
      if (!scope) return nothing;
      let found = scope.looked.get(name);
      if (!found) {
        const there = scope.names.has(name) || anywhere.get(kind)?.has(name) === true;
        stopped = false;
        typo = false;
        cells += there ? 0 : cellsPerLookUp;
        const near = there ? undefined : nearMatch(name, scope);
        if (stopped) stoppedNames++;
        found = near ? { near, typo, stopped } : stopped ? stoppedShort : nothing;
        scope.looked.set(name, found);
      }
      return found;
    };
    // A workload's references to one name: one result.
    const seen = new Set<Looked>();
    // Where each result is: a workload's PodSpec walked once or twice for its first, and once for
    // all the others, not once per result.
    const places = new Places();
    // forEach: a for…of over the map allocates an entry per workload.
    unresolved.forEach((refs, resource) => {
      // Cleared only when used: clear() makes the set a new table, and most workloads add nothing.
      if (seen.size > 0) seen.clear();
      // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
      // reference.
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i] as UnresolvedRef;
        if (ref.name.length > longest) continue;
        const found = lookUp(resource.namespace, ref.kind, ref.name);
        if (found.stopped && firstStopped === undefined && !silenced(resource)) {
          firstStopped = { resource, ref };
        }
        // Most reads have no near name: nothing to report, nor to remember.
        if (found === nothing || seen.has(found)) continue;
        seen.add(found);
        const { near } = found;
        if (near)
          (found.typo ? report : note)(
            resource,
            message(resource, ref, near),
            fieldPath(places.named(resource, ref.podSpec, ref.use)),
          );
      }
    });
    if (firstStopped) {
      const { resource, ref } = firstStopped;
      report(
        resource,
        stoppedMessage(resource, ref, stoppedNames),
        fieldPath(places.named(resource, ref.podSpec, ref.use)),
      );
    }

    /** The near name: within the allowed edits first, else a prefix or suffix; undefined if none. */
    function nearMatch(name: string, index: Scope) {
      const max = maxEdits(name.length);
      let best: Made | undefined;
      let bestEdits = max + 1;
      // The name's characters, found at its first comparison: most look-ups find no name of a
      // near length (fan-in at 10k items: 7,891 look-ups, none compared).
      let nameLetters = -1;
      let nameOthers = -1;
      // The budget in a local: the loop runs 80 times a look-up, and `cells` lives in the check's
      // context.
      let left = cells;
      for (let length = name.length - max; length <= name.length + max && max > 0; length++) {
        const alike = index.length.get(length) ?? none;
        for (let i = 0; i < alike.length; i++) {
          if (left <= 0) {
            stopped = true;
            break;
          }
          const m = alike[i] as Made;
          left--;
          if (nameLetters === -1) {
            nameLetters = letters(name);
            nameOthers = others(name);
          }
          if (m.letters === -1) {
            m.letters = letters(m.name);
            m.others = others(m.name);
          }
          const apart = bitCount(nameLetters ^ m.letters) + bitCount(nameOthers ^ m.others);
          if (apart > 2 * max) continue;
          left -= name.length + m.name.length;
          if (countsApart(name, m.name, max)) continue;
          left -= name.length * m.name.length;
          const edits = distance(name, m.name, max);
          if (edits < bestEdits) {
            best = m;
            bestEdits = edits;
          }
        }
      }
      cells = left;
      typo = best !== undefined && digitsOf(name) === digitsOf(best.name);
      if (best) return best;
      return (
        affixedIn(name, index.last.get(last(name)) ?? none) ??
        affixedIn(name, index.first.get(first(name)) ?? none)
      );
    }

    /** The first name of a bucket that is `name` with an affix, or `name` is its; paid in cells. */
    function affixedIn(name: string, shared: readonly Made[]): Made | undefined {
      for (let i = 0; i < shared.length; i++) {
        if (cells <= 0) {
          stopped = true;
          return undefined;
        }
        cells -= 1 + name.length;
        const m = shared[i] as Made;
        if (affixed(name, m.name)) return m;
      }
      return undefined;
    }
  },
};

const none: readonly Made[] = [];

/**
 * Character counts of two names, by the low 7 bits of each code, shared by every call and zeroed
 * after each: an edit changes at most two counts by one (characters sharing a count only lower
 * the difference), so half the counts' difference never exceeds the edit distance.
 */
const counts = new Int32Array(128);

/**
 * Whether the characters' counts alone put two names more than `max` edits apart, for names whose
 * sets of characters are near (`letters`): this reads each character twice where the distance
 * reads a row of the other name per character before it stops.
 */
function countsApart(a: string, b: string, max: number): boolean {
  for (let i = 0; i < a.length; i++) (counts[a.charCodeAt(i) & 127] as number)++;
  for (let i = 0; i < b.length; i++) (counts[b.charCodeAt(i) & 127] as number)--;
  return drained(a) + drained(b) > 2 * max;
}

/** The counts' difference over a name's characters, each count read once and zeroed. */
function drained(word: string): number {
  let sum = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) & 127;
    sum += Math.abs(counts[c] as number);
    counts[c] = 0;
  }
  return sum;
}

/**
 * A missing name, looked up: the near name the namespace makes, if any, whether it is a typo's, and whether the budget
 * ran out before it was compared with every name it would have been.
 */
interface Looked {
  near: Made | undefined;
  /** The near name is within the allowed edits, with the same digits: a warning (the rule's severity). */
  typo: boolean;
  stopped: boolean;
}
/** A missing name with no near one (most of them): one object for all. */
const nothing: Looked = { near: undefined, typo: false, stopped: false };
/** One with none found before the budget ran out. */
const stoppedShort: Looked = { near: undefined, typo: false, stopped: true };

/**
 * What a namespace makes of one kind: its names, and those compared (at most `longest`
 * characters) by first `-` segment, last segment and length.
 */
interface Scope {
  names: Set<string>;
  /** The missing names looked up in it, and what each found. */
  looked: Map<string, Looked>;
  first: Map<string, Made[]>;
  last: Map<string, Made[]>;
  length: Map<number, Made[]>;
}

function message(resource: Resource, { kind, name }: UnresolvedRef, near: Made): string {
  const has = near.by ? `${describe(near.by)} makes` : 'the input has';
  return (
    `${describe(resource)} reads ${kind} ${name}, which nothing in the input makes, while ` +
    `${has} ${kind} ${near.name} in its namespace: if that is the one meant, fix the name; if ` +
    `${name} comes from elsewhere (the cluster, a chart not in the input), silence near-name ` +
    'for this workload (secret-rollout/silence) or set it off'
  );
}

/** Where the budget ran out: one result for the run, at the first read it stopped. */
function stoppedMessage(resource: Resource, { kind, name }: UnresolvedRef, count: number): string {
  const others = count > 1 ? ` and ${count - 1} other missing names` : '';
  return (
    `${describe(resource)} reads ${kind} ${name}, which nothing in the input makes; near-name ` +
    `compared it${others} with only some of the names its namespace makes: the names of this ` +
    'input take more comparing than one run does (many, long and alike), so a misspelt one ' +
    'among them may go unreported. Check the names these workloads read; if they come from ' +
    'elsewhere, silence near-name for this workload (secret-rollout/silence) or set it off'
  );
}
