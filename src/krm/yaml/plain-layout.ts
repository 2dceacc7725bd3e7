// When the line locator's reading of an item can be trusted without re-parsing it.
//
// For strict YAML, a block mapping ends at the first content line indented less than its keys,
// and a line at its indentation is one of its keys: exactly what locate-lines.ts assumes. js-yaml
// (our parser) is strict about plain scalars but lenient with multi-line quoted scalars and flow
// collections, whose continuation lines it accepts at any indentation; anchors, aliases and merge
// keys change what a mapping holds without showing it in its lines; tabs change indentation;
// characters JavaScript takes for white space or a line end but YAML for text (U+2028, NBSP, …)
// would mislead a line reader. An item without any of those is "plain layout"; other items get
// their edits proven by a re-parse.
//
// Only the lines up to the last one the locator read are judged (Site's `reach`): text is read
// in order, so the lines after cannot change how those read, and what there could change the
// edited node stands above it (the anchor an alias below names) or in the mapping it goes into
// (a merge key: the locator reads a mapping to its end to find a key missing; below a key that
// is there, a merge key does not override it).

/**
 * Characters JavaScript reads as white space or a line end (`\s`, `trim`, `$` in a multi-line
 * pattern) and YAML as text (or not at all): a line reader built on those would take
 * `annotations\u2028:` for the key `annotations`. A line holding one is not plain: the edit is
 * proven by a re-parse (FUZZ_SEED=12261126 found an edit placed under such a key).
 */
const jsOnlySpaces =
  '\\v\\f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const jsOnlySpace = new RegExp(`[${jsOnlySpaces}]`);

/**
 * The longest run of text from lastIndex (sticky) that needs no look at its lines: characters
 * that open nothing, and the one-line quoted values kpt writes (`key: '0'`, `key: "x"`: a quote
 * after `: ` closed with nothing but spaces after it on its line, no `''` or escape inside). One
 * call passes over most items' lines up to the locator's reach; it stops at a character the line
 * check below must judge (where the search for the next special character stopped at each of
 * those quotes: ≈5 checks an item, each a search, a line start found and a line read). A `:` is
 * text like any other: the quoted value's `: ` is looked for behind its quote, so the run goes on
 * through every `key: value` line, where a `:` that ended it made one more turn of the
 * alternation per line (≈40 % of the search's time on the bench's items). Where a quote after
 * `: ` does not close so, the search stops at the quote rather than at the `:`: only plain text
 * stands between the two, so the line check reads that line the same. Made once, not per call (a
 * literal is a new object each time).
 */
const settled = new RegExp(
  `(?:[^"'[{&*!<\\t${jsOnlySpaces}]+|(?<=: )'[^'\\n${jsOnlySpaces}]*'(?= *(?:\\r?\\n|$))|(?<=: )"[^"\\\\\\n${jsOnlySpaces}]*"(?= *(?:\\r?\\n|$)))*`,
  'y',
);

/**
 * True when no line opens a quote or bracket it does not close, and nothing aliases: among the
 * lines that start before `end` (the locator's reach: what follows them cannot change what they
 * are, and an edit there leaves it as it was).
 */
export const isPlainLayout = plainLayoutWith(settled);

/**
 * isPlainLayout with `search` as its sticky run of settled text: the verdict's one part that was
 * ever tuned for speed, so test/plain-layout-verdict.test.ts gives it a former search to compare.
 */
export function plainLayoutWith(search: RegExp): (text: string, end?: number) => boolean {
  return (text, end = text.length) => plainLayout(search, text, end);
}

function plainLayout(search: RegExp, text: string, end: number): boolean {
  // A lone carriage return is a line break to YAML, not to the line reader.
  // (Looked for first with indexOf: most items hold no carriage return at all.)
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return false;
  // Searched no further than the line `end` is on (`end` is a line start where the locator set
  // it): the search would otherwise pass over the rest of the item, which needs no judging.
  const last = end < text.length ? text.indexOf('\n', Math.max(end - 1, 0)) : -1;
  const judged = last < 0 ? text : text.slice(0, last + 1);
  for (let from = 0; ; ) {
    search.lastIndex = from;
    search.test(judged);
    // Only plain text stands before `at` on its line: `at` is a special character.
    const at = search.lastIndex;
    if (at >= judged.length) return true;
    let start = at;
    while (start > 0 && text.charCodeAt(start - 1) !== 10) start--;
    if (start >= end) return true;
    const lineBreak = text.indexOf('\n', at);
    const lineEnd = lineBreak < 0 ? text.length : lineBreak;
    from = lineEnd;
    if (jsOnlySpace.test(text[at] as string)) return false;
    if (!commentBefore(text, start, at) && !isPlainLine(text, start, at, lineEnd)) return false;
  }
}

/** Whether a comment starts on the line before `at`: the rest of the line is comment. */
function commentBefore(text: string, start: number, at: number): boolean {
  for (let i = start; i < at; i++) {
    if (text.charCodeAt(i) === 35 && (i === start || text.charCodeAt(i - 1) === 32)) return true;
  }
  return false;
}

/**
 * Whether the line `start`..`end` closes what it opens. `from` is its first special character,
 * with no comment before it: before it stand only spaces and plain text (a key, a plain scalar),
 * not read again character by character.
 */
function isPlainLine(text: string, start: number, from: number, end: number): boolean {
  let indent = start;
  while (indent < from && text.charCodeAt(indent) === 32) indent++;
  // Only spaces before it: it starts the line's content, where a tab is indentation.
  if (indent === from && text.charCodeAt(from) === 9) return false;
  // At the start of a node: at the line's content, after `- `, `key: `, `[`, `,` …
  let valueStart = indent === from || nodeStart[text.charCodeAt(from - 1)] === 1;
  let i = from;
  let quote = 0; // 34 ", 39 '
  let depth = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    // Inside a quoted value as anywhere (most characters are below 128: no test).
    if ((c > 127 || c === 11 || c === 12) && jsOnlySpace.test(text[i] as string)) return false;
    if (quote === 34) {
      if (c === 92)
        i++; // backslash escape
      else if (c === 34) quote = 0;
      continue;
    }
    if (quote === 39) {
      if (c === 39) {
        if (text.charCodeAt(i + 1) === 39) i++;
        else quote = 0;
      }
      continue;
    }
    if (c === 35 && (i === start || text.charCodeAt(i - 1) === 32)) break; // comment
    // Quotes and brackets open a scalar or collection only where a node starts; inside a plain
    // scalar (`don't`) they are text, for js-yaml as for YAML.
    if (valueStart && (c === 34 || c === 39)) quote = c;
    else if (valueStart && (c === 91 || c === 123)) depth++;
    else if (depth > 0 && (c === 93 || c === 125)) depth--;
    else if (valueStart && (c === 38 || c === 42 || c === 33))
      return false; // & * ! at a node
    else if (c === 60 && text.charCodeAt(i + 1) === 60) return false; // << merge key
    valueStart = nodeStart[c] === 1;
  }
  return quote === 0 && depth === 0;
}

/**
 * Whether a node may start after a character: ` `, `-`, `:`, `[`, `{`, `,`, `?`. A table read in
 * place, not a function: isPlainLine asks it per character, and the optimising compiler does not
 * inline a call there (main.ts).
 */
const nodeStart = new Uint8Array(128);
for (const c of ' -:[{,?') nodeStart[c.charCodeAt(0)] = 1;
