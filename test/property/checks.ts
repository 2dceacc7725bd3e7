// The line-level checks of invariants (b) and (f), and the ResourceList output split it needs.
import { load } from 'js-yaml';
import { dependenciesKey, waveKey } from './model.js';

/** (b): the output is the input with lines (or flow entries) inserted, nothing else changed. */
export function lineDiff(
  input: string,
  output: string,
  keys: { checksum: string },
): string | undefined {
  const [a, b] = ourPatchesAside(input, output);
  const aligned = align(a, b, keys);
  return typeof aligned === 'string' ? aligned : undefined;
}

/**
 * (f): every comment line of the input is followed, in the output, by the same next content line
 * as in the input: no inserted line lands between a comment and the key it describes. Assumes (b).
 */
export function commentDiff(
  input: string,
  output: string,
  keys: { checksum: string },
): string | undefined {
  const [inputText, ours] = ourPatchesAside(input, output);
  const aligned = align(inputText, ours, keys);
  if (typeof aligned === 'string') return aligned;
  const a = inputText.split('\n').map((l) => l.replace(/\r$/, ''));
  const b = ours.split('\n').map((l) => l.replace(/\r$/, ''));
  const isContent = (l: string) => l.trim() !== '' && !l.trimStart().startsWith('#');
  for (let i = 0; i < a.length; i++) {
    const at = aligned[i];
    if (at === undefined || !(a[i] as string).trimStart().startsWith('#')) continue;
    let k = i + 1;
    while (k < a.length && !isContent(a[k] as string)) k++;
    let l = at + 1;
    while (l < b.length && !isContent(b[l] as string)) l++;
    const want = k < a.length ? aligned[k] : undefined;
    if (k < a.length && want === undefined) continue; // content of a replaced block value
    if (l < b.length ? l !== want : want !== undefined) {
      return `input line ${i + 1} ${JSON.stringify(a[i])} is followed by ${JSON.stringify(b[l])}, not ${JSON.stringify(a[k])}`;
    }
  }
  return undefined;
}

/** Output line index of each input line (undefined for lines that went with a replaced value),
 * or what differs beyond inserted lines. */
function align(
  input: string,
  output: string,
  keys: { checksum: string },
): (number | undefined)[] | string {
  const a = input.split('\n');
  const b = output.split('\n');
  const cr = (l: string) => l.replace(/\r$/, '');
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const ours = `${esc(keys.checksum)}|${esc(waveKey)}|${esc(dependenciesKey)}`;
  const parents = 'metadata|annotations|externalSecretMetadata';
  // YAML block lines, or a JSON document's (`"annotations": {`, `"k": "v",`, `},`).
  const inserted = new RegExp(
    `^ *((${parents}):|(${ours}): "[^"]*"|"(${parents})": ?\\{|"(${ours})": ?"[^"]*",?|\\},?)$`,
  );
  // `key: value` pairs whose key (plain, quoted, or with escapes) is the checksum annotation
  // (after a quoted key, as in compact JSON, the value may follow the colon directly).
  const pair =
    /("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s{},:#"'][^{},:#]*?)(\s*:\s*(?:[&!]\S+\s+)*)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s,{}[\]#][^\s,}#]*)/g;
  const decode = (k: string) =>
    k.startsWith('"')
      ? doubleQuoted(k)
      : k.startsWith("'")
        ? k.slice(1, -1).replaceAll("''", "'")
        : k.trim();
  const blank = (line: string) =>
    line.replace(pair, (m, k: string, sep: string) =>
      decode(k) === keys.checksum ? `${k}${sep}V` : m,
    );
  const valueChanged = (x: string, y: string): boolean => blank(x) !== x && blank(x) === blank(y);
  const indentOf = (line: string) => (line.match(/^ */) as RegExpMatchArray)[0].length;
  const blockHeader = new RegExp(
    `^( *)(["']?)${esc(keys.checksum)}\\2:\\s+[|>][-+0-9]*\\s*(#.*)?$`,
  );
  const blockValueReplaced = (x: string, y: string): boolean => {
    const m = blockHeader.exec(x);
    return (
      m !== null &&
      new RegExp(`^${m[1]}${m[2]}${esc(keys.checksum)}${m[2]}:\\s+"[0-9a-f]{64}"`).test(y)
    );
  };
  // Entries inserted into a flow mapping on an existing line, with any missing parents:
  // `{name: a}` → `{annotations: {k: "v"}, name: a}`, `{}` → `{k: "v"}`, `~` → `{k: "v"}`; in a
  // JSON document `{"name": "a"}` → `{"annotations": {"k": "v"}, "name": "a"}` (or without spaces);
  // several into one mapping (`{}` → `{wave: "-1", checksum/dependencies: "…"}`): each is taken
  // out in turn until the input line is left.
  const keyAlternatives = `${esc(keys.checksum)}|${esc(waveKey)}|${esc(dependenciesKey)}`;
  const entry = new RegExp(`(?:${keyAlternatives}|"(?:${keyAlternatives})"): ?"[^"]*"`, 'g');
  const modified = (x: string, y: string, depth = 0): boolean => {
    if (depth > 8) return false;
    for (const m of y.matchAll(entry)) {
      let start = m.index;
      for (let opened = 0; ; opened++) {
        let end = m.index + m[0].length;
        if (y.slice(end, end + opened) === '}'.repeat(opened)) {
          end += opened;
          const before = y.slice(0, start);
          const rests = [before + y.slice(end)];
          if (y.startsWith(', ', end)) rests.push(before + y.slice(end + 2));
          if (y.startsWith(',', end)) rests.push(before + y.slice(end + 1));
          // The entry after others: `{a: "1", k: "v"}` → `{a: "1"}`.
          if (before.endsWith(', ')) rests.push(before.slice(0, -2) + y.slice(end));
          for (const rest of rests) {
            if (rest === x || modified(x, rest, depth + 1)) return true;
          }
          if (before.endsWith('{') && y[end] === '}') {
            const outside = [before.slice(0, -1), y.slice(end + 1)];
            if (['~', 'null', 'Null', 'NULL', ''].some((n) => outside.join(n) === x)) return true;
          }
        }
        const parent =
          /(?:metadata|annotations|externalSecretMetadata|"(?:metadata|annotations|externalSecretMetadata)"): ?\{$/.exec(
            y.slice(0, start),
          );
        if (!parent) break;
        start -= parent[0].length;
      }
    }
    return false;
  };
  const opened = (x: string, y: string): boolean => {
    const m = /^(.*?)(?:\{\s*\}|null)(,?)$/.exec(x);
    return m !== null && y === `${m[1]}{`;
  };
  // Whether the input's line break at line i is CRLF. The last element of `a` has no break of
  // its own (the empty string after a final break, or a last line without one): lines inserted
  // before it take the break of the line before.
  const crBreak = (i: number) =>
    (a[i === a.length - 1 && i > 0 ? i - 1 : i] as string).endsWith('\r');
  const at: (number | undefined)[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length) {
    at[i] = j;
    const x = cr(a[i] as string);
    const y = b[j] === undefined ? undefined : cr(b[j] as string);
    if (y === undefined)
      return `input line ${i + 1} ${JSON.stringify(x)} is missing from the output`;
    // The last line, if it had no line break, gets one when lines are inserted after it.
    const lastGainsBreak = i === a.length - 1 && x === y;
    if (a[i] === b[j] || lastGainsBreak || valueChanged(x, y)) {
      i++;
      j++;
    } else if (y !== undefined && blockValueReplaced(x, y)) {
      // A checksum written as a block scalar (`key: |-` + content lines) is updated to a
      // one-line value: its content lines are the annotation's own, and go with it.
      const indent = (x.match(/^ */) as RegExpMatchArray)[0].length;
      i++;
      j++;
      while (
        i < a.length &&
        (cr(a[i] as string).trim() === '' || indentOf(cr(a[i] as string)) > indent)
      )
        i++;
    } else if (opened(x, y)) {
      // A JSON document's `{}` or `null` filled on lines: `"a": {` + inserted lines + `},`.
      const close = `${' '.repeat(indentOf(y))}}${x.endsWith(',') ? ',' : ''}`;
      j++;
      while (j < b.length && cr(b[j] as string) !== close && inserted.test(cr(b[j] as string))) j++;
      if (cr(b[j] ?? '') !== close)
        return `input line ${i + 1} ${JSON.stringify(a[i])} is not closed`;
      i++;
      j++;
    } else if (inserted.test(y) && (b[j] as string).endsWith('\r') === crBreak(i)) {
      j++;
    } else if (modified(x, y)) {
      i++;
      j++;
    } else {
      return `input line ${i + 1} ${JSON.stringify(a[i])} became ${JSON.stringify(b[j])}`;
    }
  }
  for (; j < b.length; j++) {
    if (!inserted.test(cr(b[j] as string))) return `extra output line ${JSON.stringify(b[j])}`;
  }
  return at;
}

/** The items part of a ResourceList output: without the appended `results:`. */
export function withoutResults(input: string, output: string): string {
  const at = output.startsWith('results:') ? 0 : output.lastIndexOf('\nresults:') + 1;
  if (at <= 0 && !output.startsWith('results:')) return output;
  let body = output.slice(0, at);
  // Results go before a closing `...` marker: keep the marker and what follows it.
  const marker = /(?:^|\n)\.\.\.(?=[ \t\r\n#]|$)/.exec(output.slice(at));
  if (marker) return body + output.slice(at + marker.index + (marker[0].startsWith('\n') ? 1 : 0));
  if (!input.endsWith('\n')) body = body.replace(/\r?\n$/, '');
  return body;
}

/** The first line of the patches of the post-renderer entry a HelmRelease gets (helm-release.md). */
const marker = '# secret-rollout: checksums of what this release reads';

/**
 * The output without the post-renderer entries appended to HelmReleases: block entries
 * (`- kustomize:` and the lines deeper) holding the marker that are not text of the input, flow
 * and JSON entries holding it, and the `postRenderers` key itself when the input has no such
 * key anywhere (then it is ours).
 */
export function withoutOurPostRenderers(input: string, output: string): string {
  // An appended entry adds a `kustomize` key; one updated in place does not.
  const count = (text: string) => text.split(/"?kustomize"?:/).length - 1;
  if (!output.includes(marker) || count(output) <= count(input)) return output;
  // How many `postRenderers` keys are ours: keys, not the word in other text (a mutated line
  // `postRenderers   - kustomize:` is a key of its own: FUZZ_SEED=777001), and counted, not looked
  // for (another item's `postRenderers:` is no HelmRelease's: FUZZ_SEED=32261126 and 42261126).
  const keys = (text: string) => text.match(/(?:^|[\s{,[])"?postRenderers"?[ \t]*:/gm)?.length ?? 0;
  const created = keys(output) - keys(input);
  const lines = output.split('\n');
  const indentOf = (line: string) => (/^ */.exec(line) as RegExpExecArray)[0].length;
  const kept: string[] = [];
  // Kept block `postRenderers:` keys an entry of ours was dropped from: the ones we may have written.
  const emptied = new Set<number>();
  // Created keys whose entry was not yet found (an entry under one is ours whatever its text).
  let unclaimed = created;
  for (let i = 0; i < lines.length; i++) {
    const line = withoutFlowEntries(lines[i] as string, created > 0);
    const entry = /^( *)- "?kustomize"?:/.exec(line);
    const json = /^( *)"postRenderers": ?\[\r?$/.exec(line);
    let end = i;
    if (entry) {
      const indent = (entry[1] as string).length;
      const deeper = (l: string) => l.trim() !== '' && indentOf(l) > indent;
      while (end + 1 < lines.length && deeper(lines[end + 1] as string)) end++;
      const block = lines.slice(i, end + 1);
      // Ours, appended: it holds the marker and is not text of the input, or it is the entry under
      // a postRenderers key we wrote (with checksums blanked, it can read as another item's
      // entry of the input: FUZZ_SEED=92261126, a Deployment's list holding such entries).
      const above = kept.at(-1) ?? '';
      const lineCount = (text: string) => text.split('\n').filter((l) => l === above).length;
      const underOurKey =
        unclaimed > 0 &&
        /^ *postRenderers:\r?$/.test(above) &&
        lineCount(output) > lineCount(input);
      const appended = !input.includes(block.join('\n')) || underOurKey;
      if (!block.some((l) => l.includes(marker)) || !appended) end = i - 1;
      else if (underOurKey) unclaimed--;
    } else if (json && created > 0) {
      const close = new RegExp(`^${json[1]}\\],?\\r?$`);
      while (end + 1 < lines.length && !close.test(lines[end] as string)) end++;
    } else end = i - 1;
    if (end < i) kept.push(line);
    else {
      if (entry && /^ *postRenderers:\r?$/.test(kept.at(-1) ?? '')) emptied.add(kept.length - 1);
      i = end;
    }
  }
  // Such a key left without entries was written with them, up to the number of keys we added.
  let left = created;
  return kept
    .filter((line, i) => {
      const next = kept[i + 1];
      if (left <= 0 || !emptied.has(i) || next === undefined) return true;
      const indent = indentOf(line);
      const entries =
        indentOf(next) > indent || (indentOf(next) === indent && next.trimStart().startsWith('- '));
      if (!entries) left--;
      return entries;
    })
    .join('\n');
}

/**
 * Input and output with our post-renderer entries aside: appended ones dropped from the output
 * and, where the input holds the marker (an entry a render updates in place), every `patch:`
 * value on both sides written as `~`, its block scalar lines dropped: those values are ours to set.
 */
function ourPatchesAside(input: string, output: string): [string, string] {
  const appended = withoutOurPostRenderers(input, output);
  if (!input.includes(marker)) return [input, appended];
  return [withoutPatchValues(input), withoutPatchValues(appended)];
}

function withoutPatchValues(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = /^( *)(- )?"?patch"?: ?(.*?)(\r?)$/.exec(line);
    if (!m) {
      kept.push(line);
      continue;
    }
    const [, indent = '', dash = '', value = '', cr = ''] = m;
    kept.push(`${indent}${dash}patch: ~${cr}`);
    if (!/^[|>]/.test(value)) continue;
    const column = indent.length + dash.length;
    const inside = (l: string) =>
      l.trim() === '' || (/^ */.exec(l) as RegExpExecArray)[0].length > column;
    while (i + 1 < lines.length && inside(lines[i + 1] as string)) i++;
  }
  return kept.join('\n');
}

/** A line without the flow (or JSON) entries holding the marker, and an emptied list we created. */
function withoutFlowEntries(line: string, created: boolean): string {
  let text = line;
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker)) {
    const start = Math.max(
      text.lastIndexOf('{"kustomize"', at),
      text.lastIndexOf('{kustomize', at),
    );
    const end = start < 0 ? -1 : balancedEnd(text, start);
    if (end < 0) return text;
    const before = text.slice(0, start).replace(/, ?$/, '');
    const after = text.slice(end + 1);
    text = before.length < start ? before + after : before + after.replace(/^, ?/, '');
  }
  return created ? text.replace(/"?postRenderers"?: ?\[\], ?/, '') : text;
}

/** Where the bracket opened at `start` closes, double-quoted strings skipped whole; -1 if never. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && --depth === 0) return i;
  }
  return -1;
}

/**
 * A YAML double-quoted key's text: as JSON where it is JSON, else as YAML reads it (a literal tab
 * or a YAML-only escape such as `\x2F`: FUZZ_SEED=1 in CI found JSON.parse throwing on one), else
 * as written (no key of ours).
 */
function doubleQuoted(k: string): string {
  try {
    return JSON.parse(k) as string;
  } catch {
    try {
      const read = load(`${k}: 0`);
      const [key] = Object.keys(read !== null && typeof read === 'object' ? read : {});
      return key ?? k;
    } catch {
      return k;
    }
  }
}
