// Reloader's `reload` annotations (`secret.reloader.stakater.com/reload` and its siblings) are
// comma-separated lists. Reloader trims each entry (Go's strings.TrimSpace), compiles
// `"^" + entry + "$"` with Go's regexp and reloads when it matches the changed resource's name; an
// entry that does not compile is logged and skipped (docs/operators.md §10). Go's regexp is RE2:
// its own syntax (`(?i)`, `\pL`, `\z`; no lookaround, no backreferences) and time linear in the
// name. re2js is a port of it (through RE2/J), so the same entries compile and the same names
// match; a JavaScript RegExp refuses `(?i)` and backtracks for seconds on `(a+)+` and a long name.
import loadRe2js from './load-re2js.cjs';

type Pattern = ReturnType<ReturnType<typeof loadRe2js>['compile']>;

/** One `reload` value, read once however many names and workloads ask about it. */
export interface ReloadList {
  /** Entries with no character RE2 reads specially: each matches exactly its own text. */
  literals: ReadonlySet<string>;
  patterns: readonly Pattern[];
  /** Positions (from 1) of the entries that are not valid RE2, which Reloader skips. */
  invalid: readonly number[];
  /** The position from which entries were not compiled: the run's budget (below) ran out. */
  cut: number | undefined;
  /** What `answer` said for each name asked. */
  answers: Map<string, boolean | undefined>;
}

/** What RE2 reads specially outside a character class; an entry without them is plain text. */
const special = /[\\.+*?()|[\]{}^$]/;

/** Go's unicode.IsSpace, which strings.TrimSpace trims: not String.trim's (U+0085 in, U+FEFF out). */
const goSpace = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Go's strings.TrimSpace, by a scan from each end (a `\s+$` search is quadratic on spaces). */
export function goTrimSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && goSpace.test(text.charAt(start))) start++;
  while (end > start && goSpace.test(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * The longest name a Kubernetes object can have (a DNS subdomain). Reloader is never asked about
 * a longer one, and RE2's time is linear in the name times the pattern: such names try no entry.
 */
const maxName = 253;

/**
 * Work one run spends on regular expressions, in steps of RE2's matcher: a match costs at most the
 * program's size times the name's length (+1), a compile about 8192 per character of the entry
 * (measured: 5–35 µs per character with re2js, `\pL` the dearest). 2^28 is a second or two
 * here and far above any real input (hundreds of thousands of matches of short entries; 32 KiB of
 * distinct regular expressions); past it a list is not evaluated further, and the lint says so.
 */
const budget = 2 ** 28;
const compileCost = 8192;

/** The lists of one run: each distinct value is read once, each distinct entry compiled once. */
export class ReloadLists {
  private readonly lists = new Map<string, ReloadList>();
  private readonly compiled = new Map<string, Pattern | undefined>();
  private spent = 0;

  list(value: string): ReloadList {
    let list = this.lists.get(value);
    if (list === undefined) {
      list = this.read(value);
      this.lists.set(value, list);
    }
    return list;
  }

  /**
   * Whether Reloader's list names `name` (an entry equal to it, or one whose `^entry$` matches),
   * or undefined when the budget ran out before that was known.
   */
  named(list: ReloadList, name: string): boolean | undefined {
    if (name.length > maxName) return false;
    if (list.literals.has(name)) return true;
    if (list.answers.has(name)) return list.answers.get(name);
    let answer: boolean | undefined = list.cut === undefined ? false : undefined;
    for (const pattern of list.patterns) {
      if (!this.spend(pattern.programSize() * (name.length + 1))) {
        answer = undefined;
        break;
      }
      // Go's Match is a search; the anchors the entry was compiled with make it whole-name.
      if (pattern.test(name)) {
        answer = true;
        break;
      }
    }
    list.answers.set(name, answer);
    return answer;
  }

  private spend(work: number): boolean {
    if (this.spent + work > budget) return false;
    this.spent += work;
    return true;
  }

  private read(value: string): ReloadList {
    const literals = new Set<string>();
    const patterns: Pattern[] = [];
    const invalid: number[] = [];
    let cut: number | undefined;
    for (const [index, raw] of value.split(',').entries()) {
      const entry = goTrimSpace(raw);
      if (!special.test(entry)) {
        literals.add(entry);
        continue;
      }
      if (cut !== undefined) continue;
      if (!this.compiled.has(entry) && !this.spend(entry.length * compileCost)) {
        cut = index + 1;
        continue;
      }
      const pattern = this.compile(entry);
      if (pattern) patterns.push(pattern);
      else invalid.push(index + 1);
    }
    return { literals, patterns, invalid, cut, answers: new Map() };
  }

  private compile(entry: string): Pattern | undefined {
    if (this.compiled.has(entry)) return this.compiled.get(entry);
    let pattern: Pattern | undefined;
    try {
      pattern = loadRe2js().compile(`^${entry}$`);
    } catch {
      pattern = undefined;
    }
    this.compiled.set(entry, pattern);
    return pattern;
  }
}
