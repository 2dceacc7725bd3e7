// How deep a YAML text nests, as the readers will see it, found before any of them reads it: the
// readers (js-yaml, the `yaml` library's composer, the CST walks) and the walks of the value
// recurse once per level, and past a few thousand levels overflow the stack after seconds of work
// (a `{a: {a: …` line of 1 MB took 3.8 s and 267 MiB to fail).
//
// One pass over the characters with a small YAML lexer: the open flow collections (`[`/`{` minus
// `]`/`}`) and a stack of the block collections' columns (a `- ` or `? ` entry, a `key:`), whose
// sum is the depth. A bracket counts only where the readers see one: not in a comment (` #` to
// the end of the line), a quoted scalar, a block scalar, or a block plain scalar (`a: it's [x`).
//
// Why it is sound. An opening is missed only if the scan takes for text what a reader takes for
// structure, so it takes the narrower view wherever it can tell: a `"`/`'` starts a quoted scalar
// only where a node starts (after `[`, `{`, `,`, `: `, `- `, `? `, an anchor or a tag, or at a
// line's start in block context); a block scalar's text is the lines indented more than its
// collection; a block plain scalar goes on only on lines indented more than its collection; a
// flow collection is never taken for ended by indentation. Where the two readers read invalid
// text differently, the scan is made twice, once per view: js-yaml ends a quoted scalar at its
// closing quote, the `yaml` library also at a line indented no more than the collection around it
// (its "strict" view here). A closing bracket the readers would not see could hide openings, so
// brackets in quotes are never counted either way. Any stack overflow left (text the two views
// still do not cover) is reported as this limit by the readers' callers, never as invalid YAML.
//
// Where it runs: on a text before a reader that recurses per level reads it, or by part (read.ts:
// the text around a ResourceList's items, then each item the quick reader declines, which under
// its own bound of 40 levels proves the others shallow); a part that may not leave the scan as
// the whole scan would (shallowPart) sends it to the whole text, so the verdict is the same.
//
// What it may refuse that is valid: only counting is approximate, towards more: a block plain
// scalar or quoted key that the scan takes for a mapping's key (`a: b: c`, invalid anyway), and
// in the strict view, brackets on the lines of a multi-line quoted scalar indented no more than
// its collection (invalid YAML too). Valid YAML nested at most maxDepth levels is never refused.

/**
 * Levels of nesting read at most (README "Limits"): the `yaml` library's composer overflows the
 * default stack at ≈810 flow or ≈940 block levels when the CLI calls it, less under deeper callers.
 */
export const maxDepth = 500;

/** Where nesting first goes deeper than maxDepth, and what opened the level. */
export interface TooDeep {
  offset: number;
  flow: boolean;
}

/** The first opening beyond maxDepth in either reader's view, or undefined. */
export function tooDeep(text: string): TooDeep | undefined {
  const lax = scan(text, false, 0);
  // The strict view differs only where a quoted scalar goes on at a dedented line: rare.
  return lax.deep ?? (lax.divergent ? scan(text, true, 0).deep : undefined);
}

/**
 * Whether a part of a text, read on its own under `base` open levels, is proven within maxDepth
 * the way tooDeep would see it inside the whole: no opening beyond it, and the part leaves the
 * scan as it found it (no flow collection or quoted scalar open at its end, and no quoted scalar
 * the two views end apart), so the scan of the next part starts where the whole one would. The
 * part starts at a line start; false (then scan the whole text) is never wrong, only slower.
 */
export function shallowPart(part: string, base: number): boolean {
  const lax = scan(part, false, base);
  return lax.deep === undefined && lax.clean === true && !lax.divergent;
}

enum State {
  /** Where a node may start. */
  Start,
  /** In a plain scalar. */
  Plain,
  /** After a quoted scalar, an alias or a flow collection: a `:` right after it is a key's. */
  After,
}

const isBlank = (c: number) => c === 32 || c === 9;
/** A blank, a line break or the end of the text: what ends an indicator (`- `, `: `, `? `). */
const endsIndicator = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || Number.isNaN(c);
const isFlowIndicator = (c: number) =>
  c === 44 /* , */ ||
  c === 91 /* [ */ ||
  c === 93 /* ] */ ||
  c === 123 /* { */ ||
  c === 125; /* } */

function isDocumentMarker(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return (
    (c === 45 /* - */ || c === 46) /* . */ &&
    text.charCodeAt(at + 1) === c &&
    text.charCodeAt(at + 2) === c &&
    endsIndicator(text.charCodeAt(at + 3))
  );
}

/** `base`: levels open around the text; `clean`: it ends outside flow collections and quotes. */
function scan(
  text: string,
  strict: boolean,
  base: number,
): { deep?: TooDeep; divergent: boolean; clean?: boolean } {
  const n = text.length;
  /** Columns of the open block collections, innermost last, and whether each is a sequence. */
  const columns: number[] = [];
  const sequences: boolean[] = [];
  let flow = 0;
  let state = State.Start;
  let lineStart = 0;
  /** Column of the token that could be a key on this line (-1: none). */
  let keyColumn = -1;
  /** A quoted scalar went on at a line the strict view ends it at. */
  let divergent = false;
  /** A quoted scalar was still open at the end of the text. */
  let unclosed = false;
  const inner = () => (columns.length > 0 ? (columns[columns.length - 1] as number) : -1);

  /** A block collection entry at `column`; true when it opens a level too many. */
  const block = (column: number, sequence: boolean): boolean => {
    while (columns.length > 0 && inner() > column) {
      columns.pop();
      sequences.pop();
    }
    if (columns.length > 0 && inner() === column) {
      const top = sequences[sequences.length - 1];
      if (top === sequence) return false;
      // A mapping's key after the entries of a sequence at its column (its value): back to it.
      if (top && !sequence) {
        columns.pop();
        sequences.pop();
        if (columns.length > 0 && inner() === column) return false;
      }
    }
    columns.push(column);
    sequences.push(sequence);
    return base + columns.length > maxDepth;
  };

  /** The end of the quoted scalar opening at `at` (past its closing quote, or where it stops). */
  const quoted = (at: number): number => {
    const quote = text.charCodeAt(at);
    for (let i = at + 1; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === quote) {
        // `''` is a quote inside a single-quoted scalar.
        if (quote === 39 && text.charCodeAt(i + 1) === 39) i++;
        else return i + 1;
      } else if (c === 92 /* \ */ && quote === 34) i++;
      else if (c === 10) {
        if (isDocumentMarker(text, i + 1)) return i;
        let j = i + 1;
        while (text.charCodeAt(j) === 32) j++;
        const next = text.charCodeAt(j);
        if (j - i - 1 <= inner() && next !== 10 && next !== 13 && j < n) {
          if (strict) return i;
          divergent = true;
        }
      }
    }
    unclosed = true;
    return n;
  };

  /** Past the indentation of the line at `at` (or a document marker, which ends everything). */
  const startLine = (at: number): number => {
    lineStart = at;
    keyColumn = -1;
    if (isDocumentMarker(text, at)) {
      columns.length = 0;
      sequences.length = 0;
      flow = 0;
      state = State.Start;
      return at + 3;
    }
    let j = at;
    while (text.charCodeAt(j) === 32) j++;
    const c = text.charCodeAt(j);
    const blank = j >= n || c === 10 || c === 13 || c === 35; /* # */
    // A block plain scalar goes on over lines indented more than its collection.
    if (flow === 0 && !blank && !(state === State.Plain && j - at > inner())) state = State.Start;
    return j;
  };

  let i = startLine(0);
  while (i < n) {
    // In a block plain scalar only a line break, a comment's `#` or a key's `:` can change the
    // state: every other character is passed in this loop rather than the one below (most of a
    // manifest's characters are in keys and plain values).
    if (state === State.Plain && flow === 0) {
      let c = text.charCodeAt(i);
      while (c !== 10 && c !== 35 && c !== 58 && i < n) c = text.charCodeAt(++i);
      if (i >= n) break;
    }
    const c = text.charCodeAt(i);
    if (c === 10) {
      i = startLine(i + 1);
      continue;
    }
    if (isBlank(c) || c === 13) {
      i++;
      continue;
    }
    const column = i - lineStart;
    if (c === 35 /* # */ && (column === 0 || isBlank(text.charCodeAt(i - 1)))) {
      // A comment, to the end of the line; it also ends a plain scalar.
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      if (state === State.Plain) state = State.After;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    if (flow > 0) {
      if (c === 91 || c === 123) {
        if (base + ++flow + columns.length > maxDepth)
          return { deep: { offset: i, flow: true }, divergent };
        state = State.Start;
      } else if (c === 93 || c === 125) {
        flow--;
        state = State.After;
      } else if (c === 44 /* , */) state = State.Start;
      else if ((c === 34 || c === 39) && state === State.Start) {
        i = quoted(i);
        state = State.After;
        continue;
      } else if (c === 58 /* : */) {
        state =
          state === State.After || endsIndicator(next) || isFlowIndicator(next)
            ? State.Start
            : State.Plain;
      } else if ((c === 63 /* ? */ || c === 45) /* - */ && state === State.Start) {
        if (!endsIndicator(next)) state = State.Plain;
      } else if ((c === 38 /* & */ || c === 33) /* ! */ && state === State.Start) {
        while (i < n && !endsIndicator(text.charCodeAt(i)) && !isFlowIndicator(text.charCodeAt(i)))
          i++;
        continue;
      } else state = State.Plain;
      i++;
      continue;
    }
    if (state === State.Start) {
      if ((c === 45 || c === 63) && endsIndicator(next)) {
        if (block(column, c === 45)) return { deep: { offset: i, flow: false }, divergent };
        i++;
        continue;
      }
      if (c === 58 && endsIndicator(next)) {
        i++;
        continue;
      }
      if (keyColumn < 0) keyColumn = column;
      if (c === 91 || c === 123) {
        flow = 1;
        if (base + 1 + columns.length > maxDepth)
          return { deep: { offset: i, flow: true }, divergent };
      } else if (c === 34 || c === 39) {
        i = quoted(i);
        state = State.After;
        continue;
      } else if (c === 124 /* | */ || c === 62 /* > */) {
        i = startLine(blockScalarEnd(text, i, inner()));
        continue;
      } else if (c === 38 || c === 33) {
        while (i < n && !endsIndicator(text.charCodeAt(i))) i++;
        continue;
      } else state = c === 42 /* * */ ? State.After : State.Plain;
      i++;
      continue;
    }
    if (c === 58 && endsIndicator(next)) {
      // A key's `:`: the mapping is at the key's column.
      if (keyColumn >= 0 && block(keyColumn, false))
        return { deep: { offset: i, flow: false }, divergent };
      keyColumn = -1;
      state = State.Start;
    } else if (state === State.After) state = State.Plain;
    i++;
  }
  return { divergent, clean: flow === 0 && !unclosed };
}

/**
 * The start of the first line after the block scalar whose header is at `at`: its text is the
 * lines indented more than `column` (its collection's) and blank lines, up to a document marker.
 */
function blockScalarEnd(text: string, at: number, column: number): number {
  let end = text.indexOf('\n', at);
  while (end >= 0) {
    const start = end + 1;
    let j = start;
    while (text.charCodeAt(j) === 32) j++;
    const c = text.charCodeAt(j);
    const blank = c === 10 || c === 13 || j >= text.length;
    if (!blank && (j - start <= column || isDocumentMarker(text, start))) return start;
    end = text.indexOf('\n', start);
  }
  return text.length;
}
