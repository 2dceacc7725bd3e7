// Reads stdin text into items: a ResourceList (YAML or JSON) or a plain YAML stream (what
// `kustomize build` and `helm template` print). Items keep their spans in the original text so
// the writer can splice edits in and copy every other byte.
import { isDeepStrictEqual } from 'node:util';
import { isObject, type Json, type JsonObject } from '../model/json.js';
import { fileOfItem, type Projection, type Resource } from '../model/resource.js';
import { jsonErrorOffset } from './json-error.js';
import { everyLine, lineNumberAt, type ScanMeter } from './yaml/lines.js';
import { maxDepth, shallowPart, tooDeep } from './yaml/nesting.js';
import {
  located,
  ParseError,
  parseYaml,
  problemAt,
  startExpansionBudget,
  yamlProblem,
} from './yaml/parse.js';
import { hasUnusualCharacters, quickParse, type ScalarCache } from './yaml/quick-parse.js';
import {
  type DocumentSpan,
  type ItemSpan,
  type Span,
  SpanError,
  sequenceItems,
  splitDocuments,
  type TopLevelEntry,
  topLevelEntries,
} from './yaml/spans.js';

/**
 * Items or documents read from one input. Each costs a parse, tens of microseconds for the
 * smallest where the quick reader declines it (a one-line JSON document), so 8 MB of them would
 * take half a minute; 10× the largest input measured (README "Performance").
 */
export const maxItems = 100_000;
const tooMany = (n: number, what: string) =>
  `the input has ${n} ${what}, more than the ${maxItems} read at most`;

export const resourceListApiVersions = ['config.kubernetes.io/v1', 'config.kubernetes.io/v1beta1'];

/** An item: its span in the text (YAML, parsed on demand with parseItem) or its value (JSON). */
export interface InputItem {
  span?: ItemSpan;
  value?: Json;
  /** Why the item cannot be read at all (a stream document without content but bad directives). */
  error?: string;
  /**
   * What messages call it, where its index does not say (a stream with a List's entries among
   * its documents: `document 2 item 0`).
   */
  where?: string;
  /**
   * The file of the List it is an entry of, in a kpt package: kpt's path annotations are on the
   * List, and a result about the entry names that file.
   */
  listFile?: Resource['file'];
}

export type Input =
  | {
      format: 'yaml-list';
      text: string;
      /** No character the quick reader declines anywhere in the text (see parseItem). */
      usualCharacters: boolean;
      /** The ResourceList document, for aliases across items (see parseItem). */
      document: Span;
      items: InputItem[];
      functionConfig: Json | undefined;
      /** The `results` entry of the input, replaced on output. */
      results?: TopLevelEntry;
      /** Envelope problems (no `items`, …): reported, everything written back unchanged. */
      listError?: string;
    }
  | { format: 'yaml-stream'; text: string; usualCharacters: boolean; items: InputItem[] }
  | { format: 'json-list' | 'json-object'; text: string; value: JsonObject; items: InputItem[] };

/** Input that cannot be read as a ResourceList or stream at all: one line on stderr. */
export class InputError extends Error {}

/**
 * `meter` counts the characters the line scans step over (tests bound it; see ScanMeter).
 * `printable`: the text is known to be printable ASCII and line feeds only (stdio.ts
 * printableAscii), which holds no character checkYamlText looks for.
 */
export function readInput(text: string, meter?: ScanMeter, printable = false): Input {
  startExpansionBudget(text);
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '')
    throw new InputError('no input: expected a ResourceList or YAML on stdin');
  if (/^\s*[[{]/.test(body)) {
    if (looksLikeJson(body)) return readJson(text);
    // Pretty-printed objects one after another (`jq '.items[]'`) are neither JSON nor YAML.
    const at = jsonErrorOffset(text);
    if (startsSecondValue(text, at)) throw new InputError(jsonValuesInARow(text, at));
  }
  const usualCharacters = printable || checkYamlText(text);
  try {
    const input = readYaml(text, usualCharacters, meter);
    // No item is read: the nesting verdict is the whole text's.
    if (input.format === 'yaml-list' && input.listError) checkNesting(text, meter);
    return input;
  } catch (error) {
    // The nesting verdict comes before every other (README "Limits"): the items are not read yet.
    checkNesting(text, meter);
    throw error;
  }
}

/**
 * A YAML input, whose nesting is judged by part (see checkItemNesting): the text around the items
 * here, each item where it is read.
 */
function readYaml(text: string, usualCharacters: boolean, meter: ScanMeter | undefined): Input {
  const all = splitDocuments(text, meter);
  // Empty ones too: a run of them costs a parse per document where one holds a directive.
  if (all.length > maxItems) throw new InputError(tooMany(all.length, 'documents'));
  const docs = all.filter((d) => d.hasContent);
  const problems = contentlessProblems(text, all, meter);
  if (docs.length === 0 && problems.size > 0) {
    throw new InputError(`document 0: ${problems.get(0)}`);
  }
  if (docs.length === 0) {
    throw new InputError(
      'no input: only comments or empty documents, expected a ResourceList or YAML',
    );
  }
  const read = docs.map((doc) => ({ doc, entries: topLevelEntries(text, doc, meter) }));
  const lists = read.filter(({ entries }) => kindOf(text, entries) === 'ResourceList');
  if (lists.length > 0) {
    if (docs.length > 1) {
      throw new InputError(
        `a ResourceList must be the only document on stdin, found ${docs.length} documents`,
      );
    }
    const [list] = lists as [(typeof lists)[number]];
    const read = readYamlList(text, usualCharacters, list.doc, list.entries, meter);
    // A document before or after it (comments, markers, directives) is part of the input too.
    const [problem] = problems.values();
    if (problem && read.format === 'yaml-list' && !read.listError) {
      return { ...read, items: [], listError: `ResourceList: ${problem}` };
    }
    return read;
  }
  const items: InputItem[] = docs.map((doc) => ({ span: { ...doc, entry: false } }));
  for (const [index, error] of problems) {
    const item = items[index];
    if (item) item.error = error;
    else items.push({ error });
  }
  return {
    format: 'yaml-stream',
    text,
    usualCharacters,
    items: streamItems(text, read, items, meter),
  };
}

/**
 * A kind that holds a collection of objects in its `items` (`v1 List`, as `kubectl get -o json`
 * prints several objects; `ConfigMapList`, …): kustomize reads the items as items of their own
 * (docs/format.md says where).
 */
export const isListKind = (kind: unknown): kind is string =>
  typeof kind === 'string' && kind.endsWith('List');

/**
 * A stream's items: its documents, but for a List document whose `items:` is a block sequence,
 * its `- ` entries, each read and edited in place as a ResourceList's are, and the rest of the
 * document read once as the List's envelope. Any other List is read whole, as before: items.ts
 * says that its items are not read, or that they are no list of objects.
 */
function streamItems(
  text: string,
  docs: readonly { doc: Span; entries: readonly TopLevelEntry[] }[],
  items: InputItem[],
  meter: ScanMeter | undefined,
): InputItem[] {
  // Without a List, as before: no label nor copy per item.
  if (!docs.some(({ entries }) => isListKind(kindOf(text, entries)))) return items;
  const out: InputItem[] = [];
  items.forEach((item, index) => {
    const where = `document ${index}`;
    const doc = docs[index];
    const entries = !item.error && doc ? listEntries(text, doc.doc, doc.entries, meter) : undefined;
    if (!entries) out.push({ ...item, where });
    else
      for (let k = 0; k < entries.length; k++)
        out.push({ span: entries[k], where: `${where} item ${k}` });
  });
  if (out.length > maxItems) throw new InputError(tooMany(out.length, 'items'));
  return out;
}

/**
 * An `&` where an anchor may start: after white space, a flow indicator, a flow key's `:`
 * (`{"name":&n x}`) or nothing, before a name.
 */
const mayAnchor = /(?:^|[\s[{,:])&[^\s,[\]{}&>]/;

/**
 * The `- ` entries of a List document, or undefined where it is read whole: no List, its items no
 * block sequence of entries, or its envelope not valid YAML (the whole document's read reports
 * that).
 */
function listEntries(
  text: string,
  doc: Span,
  entries: readonly TopLevelEntry[],
  meter: ScanMeter | undefined,
): ItemSpan[] | undefined {
  if (!isListKind(kindOf(text, entries))) return undefined;
  // An entry aliasing another's anchor reads only in its document (see items.ts readOne), which
  // a stream's items are not proven in: a List with an anchor is read whole. Any `&` that may
  // start one counts (in a quoted or plain scalar too): too many is a List read whole, said so;
  // a `*` starts none (a cron schedule), nor a shell's `&&` or `&>`.
  if (mayAnchor.test(text.slice(doc.start, doc.end))) return undefined;
  const itemsEntry = entries.find((e) => e.key === 'items');
  const split = splitItems(text, itemsEntry, meter);
  if (!Array.isArray(split) || split.length === 0) return undefined;
  try {
    const parts = { itemsEntry, split, resultsEntry: undefined };
    const header = parseEnvelope(text, doc, entries, parts, meter);
    // The kind as its line reads must be the kind the document holds.
    return isObject(header) && isListKind(header.kind) ? split : undefined;
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return undefined;
  }
}

/**
 * Blank lines, comment lines and bare `---` and `...` markers (with a comment): valid YAML in any
 * order (checked against the conforming reader on generated runs), so a run of them needs no parse.
 * A CR inside a comment would be a line break: none is taken.
 */
const plainLine = /(?:(?:---|\.\.\.)(?: +#[^\r\n]*)?|[ \t]*| *#[^\r\n]*)\r?(?:\n|$)/y;

/**
 * Documents without content (comments, markers, directives) are no items, but their directives
 * and markers must be valid YAML too: the conforming reader checks each run of them between two
 * documents with content in one parse (one parse per document cost microseconds each, a lot for a
 * stream of a million `---` lines). A problem is reported as the next document's, by its index.
 */
function contentlessProblems(
  text: string,
  all: readonly DocumentSpan[],
  meter: ScanMeter | undefined,
): Map<number, string> {
  const problems = new Map<number, string>();
  let seen = 0;
  for (let i = 0; i < all.length; ) {
    const first = all[i] as DocumentSpan;
    if (first.hasContent) {
      seen++;
      i++;
      continue;
    }
    let end = first.end;
    for (i++; i < all.length && !(all[i] as DocumentSpan).hasContent; i++) {
      end = (all[i] as DocumentSpan).end;
    }
    const runText = text.slice(first.start, end);
    if (meter) meter.visited += runText.length;
    const problem = everyLine(runText, plainLine) ? undefined : yamlProblem(runText);
    if (problem) {
      problems.set(seen, problemAt(problem, runText, first.start, text));
    }
  }
  return problems;
}

function looksLikeJson(text: string): boolean {
  // A YAML flow mapping also starts with `{`; JSON is what JSON.parse accepts.
  try {
    JSON.parse(text);
    return true;
  } catch {
    // JSON documents between `---` lines are a YAML stream (JSON is YAML): read as one.
    if (/^(?:---|\.\.\.)(?:[ \t]|\r?$)/m.test(text)) return false;
    return text.trimStart().startsWith('{"') || text.trimStart().startsWith('[');
  }
}

/**
 * Whether JSON.parse's error at `at` (jsonErrorOffset) is a second JSON value right after a first
 * one, no `---` between them: what `jq` prints for a list's items, neither one JSON value nor a
 * YAML stream.
 */
function startsSecondValue(text: string, at: number): boolean {
  if (text[at] !== '{' && text[at] !== '[') return false;
  try {
    JSON.parse(text.slice(0, at));
    return true;
  } catch {
    return false;
  }
}

const jsonValuesInARow = (text: string, at: number) =>
  `JSON values one after another (line ${lineNumberAt(text, at)} starts the second): put a \`---\` line between them (a YAML stream), or give one List (\`jq -s '{apiVersion: "v1", kind: "List", items: .}'\`)`;

function readJson(text: string): Input {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const at = jsonErrorOffset(text);
    if (startsSecondValue(text, at)) throw new InputError(jsonValuesInARow(text, at));
    throw new InputError(located('invalid JSON', text, at, 0, text));
  }
  if (!isObject(value))
    throw new InputError('JSON input must be an object (a ResourceList or a resource)');
  checkJsonTokens(text);
  if (value.kind !== 'ResourceList') {
    return { format: 'json-object', text, value, items: jsonListItems(value) ?? [{ value }] };
  }
  const items = value.items;
  if (!Array.isArray(items)) throw new InputError('ResourceList items must be a list');
  if (items.length > maxItems) throw new InputError(tooMany(items.length, 'items'));
  return { format: 'json-list', text, value, items: items.map((item) => ({ value: item })) };
}

/**
 * A List's items, each edited in place in the value the output is written from; undefined for an
 * object that is no List (kustomize reads one without `items` as an object too).
 */
function jsonListItems(value: JsonObject): InputItem[] | undefined {
  if (!isListKind(value.kind) || !('items' in value)) return undefined;
  const { items } = value;
  // A null list has no items (kustomize's reading too).
  if (items === null) return [];
  if (!Array.isArray(items)) throw new InputError('the items of a JSON List must be a list');
  if (items.length > maxItems) throw new InputError(tooMany(items.length, 'items'));
  return items.map((item) => ({ value: item }));
}

/**
 * What JSON.parse would silently change, refused instead: integers beyond 2^53 (rounded),
 * numbers beyond double range (written back as null), and a key given twice in one object (the
 * last kept, the first dropped from the output; YAML input refuses it too). Also bounds nesting,
 * which the rest of the function walks. A scan of the source text, so the message says where.
 */
function checkJsonTokens(text: string): void {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[[{]|[\]}]/g;
  const colon = /\s*:/y;
  let depth = 0;
  // The keys of each object open around the token (undefined for an array).
  const keys: (Set<string> | undefined)[] = [];
  for (let m = token.exec(text); m; m = token.exec(text)) {
    const t = m[0];
    if (t === '[' || t === '{') {
      if (++depth > maxDepth) throw new InputError(`JSON nests deeper than ${maxDepth} levels`);
      keys.push(t === '{' ? new Set() : undefined);
    } else if (t === ']' || t === '}') {
      depth--;
      keys.pop();
    } else if (t[0] === '"') {
      colon.lastIndex = token.lastIndex;
      const own = keys.at(-1);
      if (!own || !colon.test(text)) continue;
      // Decoded: `"tier"` and `"t\u0069er"` are one key.
      const key = JSON.parse(t) as string;
      if (own.has(key)) {
        throw new InputError(
          located(
            'a key twice in one JSON object (JSON.parse would drop the first)',
            text,
            m.index,
            0,
            text,
          ),
        );
      }
      own.add(key);
    } else {
      const n = Number(t);
      if (!Number.isFinite(n) || (/^-?\d+$/.test(t) && !Number.isSafeInteger(n))) {
        throw new InputError(
          located('a JSON number too large to be kept exactly (quote it)', text, m.index, 0, text),
        );
      }
    }
  }
}

/** The kind on a document's `kind:` line, unquoted; a guess, checked where it matters. */
function kindOf(text: string, entries: readonly TopLevelEntry[]): string | undefined {
  const kind = entries.find((e) => e.key === 'kind');
  return kind && inlineValue(text, kind).replace(/^(["'])(.*)\1$/, '$2');
}

function readYamlList(
  text: string,
  usualCharacters: boolean,
  doc: Span,
  entries: readonly TopLevelEntry[],
  meter: ScanMeter | undefined,
): Input {
  const itemsEntry = entries.find((e) => e.key === 'items');
  const resultsEntry = entries.find((e) => e.key === 'results');
  // The items, where `items:` opens a block sequence; a wrong one is reported after the envelope.
  const split = splitItems(text, itemsEntry, meter);
  let header: Json;
  try {
    header = parseEnvelope(text, doc, entries, { itemsEntry, split, resultsEntry }, meter);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    // An alias to an anchor inside the items: only the whole document resolves it.
    const whole = error.aliased ? wholeDocument(text, doc) : undefined;
    if (isObject(whole))
      return readEnvelope(text, usualCharacters, doc, whole, itemsEntry, split, resultsEntry);
    // The list exists but its envelope does not parse: report it (naming the functionConfig
    // when the problem is there), write everything back.
    const line = Number(/ at line (\d+)/.exec(error.message)?.[1] ?? 0);
    // Entries are in order, so their line numbers are counted in one pass (see lineNumberAt).
    const at = entries.filter((e) => lineNumberAt(text, e.start, meter) <= line).pop();
    const owner = at?.key === 'functionConfig' ? 'functionConfig' : 'ResourceList';
    const list: Input = {
      format: 'yaml-list',
      text,
      usualCharacters,
      document: doc,
      items: [],
      functionConfig: undefined,
      listError: `${owner}: ${error.message}`,
    };
    // The input's results are still replaced by ours: two `results:` keys would be invalid.
    if (resultsEntry) list.results = resultsEntry;
    return list;
  }
  if (!isObject(header)) throw new InputError('the ResourceList is not a mapping');
  return readEnvelope(text, usualCharacters, doc, header, itemsEntry, split, resultsEntry);
}

/** The `- ` entries where `items:` opens a block sequence, a SpanError where that is wrong. */
function splitItems(
  text: string,
  itemsEntry: TopLevelEntry | undefined,
  meter: ScanMeter | undefined,
): ItemSpan[] | SpanError | undefined {
  if (!itemsEntry || inlineValue(text, itemsEntry) !== '') return undefined;
  try {
    return sequenceItems(text, itemsEntry, meter);
  } catch (error) {
    if (!(error instanceof SpanError)) throw error;
    return error;
  }
}

/**
 * The value of a list's document without its items (each read on its own) and without `results`
 * (replaced, never read for their value); a ParseError where it is not valid YAML.
 */
function parseEnvelope(
  text: string,
  doc: Span,
  entries: readonly TopLevelEntry[],
  parts: {
    itemsEntry: TopLevelEntry | undefined;
    split: ItemSpan[] | SpanError | undefined;
    resultsEntry: TopLevelEntry | undefined;
  },
  meter: ScanMeter | undefined,
): Json {
  const { itemsEntry, split, resultsEntry } = parts;
  // The envelope is the document as written with the items and the input's results blanked to
  // empty lines, so that every other byte, from the document's first line to its last, is judged
  // by the conforming reader in one parse, and error line numbers stay those of the input. Each
  // item is parsed on its own (items.ts), the results alone below. A `- {}` stands for the items:
  // the `yaml` library refuses the next key after an empty `-` and 1024 blank characters.
  // `lines`: the blank keeps its line count for the quick reader too. The items' lines need not:
  // after `- {}` blank lines change no value or verdict of the quick reader (no block scalar is
  // open there), and their count (the items' length) took a walk of every item line, a string
  // of as many line breaks, and the quick reader's walk over them.
  const blanks: { from: number; to: number; stand: string; lines: boolean }[] = [];
  if (Array.isArray(split) && split.length > 0) {
    const first = split[0] as ItemSpan;
    const dash = text.indexOf('-', first.start) + 1;
    blanks.push({
      from: first.start,
      to: (split[split.length - 1] as ItemSpan).end,
      stand: `${text.slice(first.start, dash)} {}`,
      lines: false,
    });
  } else if (split instanceof SpanError && itemsEntry) {
    blanks.push({ from: itemsEntry.start, to: itemsEntry.end, stand: '', lines: true });
  }
  if (resultsEntry) {
    // Kept: a `|+` block scalar before them would keep their blank lines in its value.
    blanks.push({ from: resultsEntry.start, to: resultsEntry.end, stand: '', lines: true });
  }
  blanks.sort((x, y) => x.from - y.from);
  /** The envelope; `quick`: for the quick reader, whose value and verdict it keeps. */
  const envelopeText = (quick: boolean): string => {
    const pieces: string[] = [];
    let pos = doc.start;
    for (const { from, to, stand, lines } of blanks) {
      let breaks = 0;
      if (quick && !lines) {
        const lf = text.indexOf('\n', from);
        breaks = lf >= 0 && lf < to ? 1 : 0;
      } else {
        for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1))
          breaks++;
        if (meter) meter.visited += to - from;
      }
      pieces.push(text.slice(pos, from), stand, '\n'.repeat(breaks));
      pos = to;
    }
    pieces.push(text.slice(pos, doc.end));
    return pieces.join('');
  };
  // Blanked entries escape the envelope's parse: check what it would have found.
  for (const blanked of [itemsEntry, resultsEntry]) {
    const twice = blanked && entries.find((e) => e !== blanked && e.key === blanked.key);
    if (twice) {
      throw new ParseError(
        `invalid YAML at line ${lineNumberAt(text, twice.start)}: duplicated mapping key`,
      );
    }
  }
  const quick = envelopeText(true);
  // The envelope holds all the text but the items and the results, judged where they are read;
  // the items' stand-in `- {}` closes what it opens.
  checkPartNesting(text, quick, 0, meter);
  // The input's results are replaced, never parsed for their value; parsing them alone proves
  // that they end where the line scan says (a multi-line quoted value can hide a `key:` line).
  if (resultsEntry) {
    const results = text.slice(resultsEntry.start, resultsEntry.end);
    checkPartNesting(text, results, 0, meter);
    const parsed = parseYaml(results, resultsEntry.start, text);
    // Another key among them would be replaced with them, in silence.
    if (!isObject(parsed) || Object.keys(parsed).length !== 1) {
      throw new ParseError(
        `unsupported YAML at line ${lineNumberAt(text, resultsEntry.start)}: a top-level key within the results that this reader does not read as one`,
      );
    }
  }
  return (
    quickParse(quick, 0, quick.length, false) ?? parseYaml(envelopeText(false), doc.start, text)
  );
}

/** What follows `key:` on its line, without a comment. */
function inlineValue(text: string, entry: TopLevelEntry): string {
  return text
    .slice(entry.valueStart, entry.lineEnd)
    .replace(/\s#.*$/, '')
    .trim();
}

function readEnvelope(
  text: string,
  usualCharacters: boolean,
  doc: Span,
  header: JsonObject,
  itemsEntry: TopLevelEntry | undefined,
  split: ItemSpan[] | SpanError | undefined,
  resultsEntry: TopLevelEntry | undefined,
): Input {
  const list: Input & { format: 'yaml-list' } = {
    format: 'yaml-list',
    text,
    usualCharacters,
    document: doc,
    items: [],
    functionConfig: header.functionConfig,
  };
  if (resultsEntry) list.results = resultsEntry;
  if (
    typeof header.apiVersion !== 'string' ||
    !resourceListApiVersions.includes(header.apiVersion)
  ) {
    list.listError = `unsupported ResourceList apiVersion (expected ${resourceListApiVersions.join(' or ')})`;
    return list;
  }
  if (!itemsEntry) {
    list.listError = 'the ResourceList has no items';
    return list;
  }
  if (split instanceof SpanError) list.listError = `ResourceList ${split.message}`;
  else if (split && split.length > maxItems) list.listError = tooMany(split.length, 'items');
  else if (split) {
    list.items = resourceListItems(text, doc, split, usualCharacters);
    if (list.items.length > maxItems) list.listError = tooMany(list.items.length, 'items');
  } else if (!['[]', '~', 'null'].includes(inlineValue(text, itemsEntry))) {
    list.listError = 'ResourceList items must be a block sequence (`items:` then `- ` entries)';
  }
  return list;
}

/**
 * The longest item read, in characters: the Kubernetes API server takes no request body over
 * 3 MiB (kubernetes/apiserver pkg/server/config.go, MaxRequestBodyBytes: twice the 1.5 MiB etcd
 * stores), so no object it could apply is longer. Past a few MiB an item the quick reader declines
 * costs the conforming reader ≈100 bytes of memory per byte (an 8 MB anchored mapping: 714 MiB).
 */
export const maxItemLength = 3 << 20;

/**
 * A ResourceList's items, but for an item that is a List (a kpt package's List file, which kpt
 * passes as one item): its `- ` entries, each an item read and edited in place as a stream List's
 * are, the List's other lines copied as they came. Every item is then named by its place in the
 * input (`item 1`, `item 0 item 1`). Where a List cannot be read so, it stays one item (items.ts
 * says that its items are not read).
 */
function resourceListItems(
  text: string,
  doc: Span,
  split: readonly ItemSpan[],
  usualCharacters: boolean,
): InputItem[] {
  const items: InputItem[] = split.map((span) => ({ span }));
  // No List among the items (most inputs, where only the ResourceList's kind says it): one search.
  const first = split[0];
  let list = first ? nextListKind(text, first.start) : -1;
  if (list < 0) return items;
  // An item aliasing another's anchor is read from the whole document by its index (items.ts),
  // which entries in place of their List would shift.
  if (mayAnchor.test(text.slice(doc.start, doc.end))) return items;
  const out: InputItem[] = [];
  let expanded = false;
  items.forEach((item, index) => {
    const span = item.span as ItemSpan;
    // The next List kind line from this item on: one walk of the text for all the items.
    if (list >= 0 && list < span.start) list = nextListKind(text, span.start);
    const entries =
      list >= 0 && list < span.end ? listItemEntries(text, span, usualCharacters) : undefined;
    if (!entries) out.push({ span, where: `item ${index}` });
    else {
      expanded = true;
      const { spans, file } = entries;
      for (let k = 0; k < spans.length; k++) {
        const entry: InputItem = { span: spans[k], where: `item ${index} item ${k}` };
        if (file) entry.listFile = file;
        out.push(entry);
      }
    }
  });
  return expanded ? out : items;
}

/** A `kind:` line (of an item or deeper) whose kind ends in List. */
const listKindLine = /^[ -]*kind:[ \t]*(["']?)[\w.-]*List\1[ \t]*(?:#.*)?\r?$/;

/**
 * Where the next List kind line from `from` (a line's start) on starts, or -1. Only the lines with
 * a `List` in them are looked at, each once: linear in the text.
 */
function nextListKind(text: string, from: number): number {
  for (let at = text.indexOf('List', from); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const lf = text.indexOf('\n', at);
    const end = lf < 0 ? text.length : lf;
    if (listKindLine.test(text.slice(start, end))) return start;
    at = text.indexOf('List', end);
  }
  return -1;
}

/**
 * A List item's `items:` key line, and the line of the key after it, at its mapping's indentation
 * (`n` spaces): at that column, no `- ` entry (its items' sequence may sit there) nor comment.
 */
const listKeysAt = (n: number) => ({
  itemsKey: new RegExp(`^ {${n}}items:[ \\t]*(?:#[^\\n]*)?\\r?$`, 'm'),
  nextKey: new RegExp(`^ {${n}}(?=[^\\s#])(?!-(?:[ \\t]|\\r?$))`, 'gm'),
});

/**
 * The `- ` entries of a ResourceList item that is a List with a block sequence of mappings as its
 * `items`, and the List's file, or undefined. Found by their lines, then proven: the item parsed
 * whole must be that List, and each entry parsed alone the List's item in its place.
 */
function listItemEntries(
  text: string,
  span: ItemSpan,
  usualCharacters: boolean,
): { spans: ItemSpan[]; file: Resource['file'] } | undefined {
  // Longer ones are reported as too long where they are read (items.ts).
  if (span.end - span.start > maxItemLength) return undefined;
  const parsed = parseItem(text, span, undefined, usualCharacters);
  if (!('value' in parsed)) return undefined;
  const { value } = parsed;
  if (!isObject(value) || !isListKind(value.kind)) return undefined;
  const { items } = value;
  if (!Array.isArray(items) || items.length === 0 || !items.every(isObject)) return undefined;
  // The item's mapping starts on its `- ` line (`- apiVersion: v1`), the span's first: the column
  // of its first key is its keys' indentation. kpt writes a file's leading comment on that line
  // (`- # exported …`): the keys then start on the first line that is no comment.
  const dash = text.indexOf('-', span.start);
  let key = dash + 1;
  while (text.charCodeAt(key) === 32) key++;
  const column = /[\r\n#]/.test(text[key] ?? '\n')
    ? firstKeyColumn(text, text.indexOf('\n', key) + 1, span.end)
    : key === dash + 1
      ? undefined
      : key - span.start;
  if (column === undefined) return undefined;
  // Searched in the item alone: a List without such a line costs its own length.
  const itemText = text.slice(span.start, span.end);
  const { itemsKey, nextKey } = listKeysAt(column);
  const line = itemsKey.exec(itemText);
  if (!line) return undefined;
  const start = span.start + line.index;
  // The List's next key, where one follows its items (kubectl writes `metadata` after them).
  nextKey.lastIndex = line.index + line[0].length;
  const next = nextKey.exec(itemText);
  const entry: TopLevelEntry = {
    key: 'items',
    start,
    end: next ? span.start + next.index : span.end,
    valueStart: start + column + 'items:'.length,
    lineEnd: start + line[0].length,
  };
  let entries: ItemSpan[];
  try {
    entries = sequenceItems(text, entry);
  } catch (error) {
    if (!(error instanceof SpanError)) throw error;
    return undefined;
  }
  if (entries.length !== items.length) return undefined;
  for (let k = 0; k < entries.length; k++) {
    // Under the ResourceList's mapping, its items' sequence and the List's mapping.
    const one = { ...(entries[k] as ItemSpan), depth: 3 };
    const read = parseItem(text, one, undefined, usualCharacters);
    if (!('value' in read) || !isDeepStrictEqual(read.value, items[k])) return undefined;
    entries[k] = one;
  }
  return { spans: entries, file: fileOfItem(value) };
}

/** The indentation of the first line from `line` (a line's start) that is no comment nor blank. */
function firstKeyColumn(text: string, line: number, end: number): number | undefined {
  while (line > 0 && line < end) {
    let i = line;
    while (text.charCodeAt(i) === 32) i++;
    if (!/[\r\n#]/.test(text[i] ?? '\n')) return i - line;
    line = text.indexOf('\n', i) + 1;
  }
  return undefined;
}

/** Parses a YAML item's span; JSON items come parsed. */
export function parseItem(
  text: string,
  span: ItemSpan,
  scalarCache?: ScalarCache,
  /** `text` has usual characters only (Input.usualCharacters). */
  usualCharacters = false,
  /** What to build of the value (the quick reader's; the fallback builds it all). */
  projection: Projection = true,
): { value: Json; nodeBound?: number } | { error: string; aliased: boolean } {
  const quick = quickRead(text, span, scalarCache, usualCharacters, projection);
  // Without aliases a value has fewer nodes than its text has characters (see toResource).
  if (quick !== undefined) return { value: quick, nodeBound: span.end - span.start };
  checkItemNesting(text, span);
  try {
    const value = parseYaml(text.slice(span.start, span.end), span.start, text);
    if (!span.entry) return { value };
    // An entry span holds exactly one `- ` entry; anything else means the split was wrong.
    if (Array.isArray(value) && value.length === 1) return { value: value[0] as Json };
    return { error: 'the item could not be separated from its neighbours', aliased: false };
  } catch (error) {
    if (error instanceof ParseError) return { error: error.message, aliased: error.aliased };
    throw error;
  }
}

/**
 * The quick reader's value, also for CRLF text (Windows checkouts), which it declines: a CRLF is a
 * line break like LF in YAML, in scalars too, so the LF form has the same validity and value.
 * Without this every item of a CRLF input would pay for the conforming reader (3× the run time).
 */
export function quickRead(
  text: string,
  span: ItemSpan,
  scalarCache: ScalarCache | undefined,
  usualCharacters: boolean,
  projection: Projection | null,
): Json | undefined {
  const quick = quickParse(
    text,
    span.start,
    span.end,
    span.entry,
    scalarCache,
    usualCharacters,
    projection,
  );
  if (quick !== undefined || usualCharacters) return quick;
  const itemText = text.slice(span.start, span.end);
  if (!itemText.includes('\r\n') || /\r(?!\n)/.test(itemText)) return undefined;
  const lf = itemText.replaceAll('\r\n', '\n');
  const value = quickParse(lf, 0, lf.length, span.entry, undefined, false, projection);
  // What proves an item shallow is the quick reader's reading of the text as written.
  if (value !== undefined) checkItemNesting(text, span);
  return value;
}

/**
 * The whole ResourceList document parsed at once: only for YAML aliases that refer to an anchor
 * in another item (valid YAML, but each item is otherwise parsed on its own). Cached per text.
 */
const wholeDocuments = new WeakMap<Span, Json>();
export function wholeDocument(text: string, doc: Span): Json | undefined {
  if (!wholeDocuments.has(doc)) {
    checkNesting(text);
    try {
      wholeDocuments.set(doc, parseYaml(text.slice(doc.start, doc.end), doc.start, text));
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      return undefined;
    }
  }
  return wholeDocuments.get(doc);
}

/** Characters YAML does not allow anywhere (js-yaml's rule). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const nonPrintable = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]/;

/**
 * Checks the whole text once, so items copied through unparsed (pass-through.ts) cannot carry
 * what every parser downstream would reject. Whether it has usual characters only: then, as those
 * exclude every non-printable one, that one scan is all.
 */
function checkYamlText(text: string): boolean {
  const usual = !hasUnusualCharacters(text);
  const bad = usual ? null : nonPrintable.exec(text);
  if (bad) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    const what = code === '0000' ? 'a null byte' : `the non-printable character U+${code}`;
    throw new InputError(
      `line ${lineNumberAt(text, bad.index)} has ${what}, which YAML does not allow`,
    );
  }
  return usual;
}

/**
 * Refuses nesting deeper than the readers may recurse (yaml/nesting.ts says how it is counted and
 * why no deeper text reaches them), named by the line where the level too many opens. Every text
 * given to a YAML reader passes it first: a `--fn-config` file in options.ts (src/), and the input
 * by part (checkPartNesting), or whole where a part cannot be judged alone.
 */
export function checkNesting(text: string, meter?: ScanMeter): void {
  if (text !== judged) {
    const deep = tooDeep(text);
    // At most two passes, one per reader's view of quoted scalars.
    if (meter) meter.visited += 2 * text.length;
    judged = text;
    verdict = deep
      ? `line ${lineNumberAt(text, deep.offset)} nests YAML ${deep.flow ? 'flow' : 'block'} collections deeper than ${maxDepth} levels`
      : undefined;
  }
  if (verdict !== undefined) throw new InputError(verdict);
}

/**
 * The last text checkNesting scanned, and its verdict: a part that cannot be judged alone scans
 * the whole text once, not once per part (a list of items each leaving a bracket open would be
 * quadratic), nor again where an error gives way to the verdict (readInput).
 */
let judged: string | undefined;
let verdict: string | undefined;

/**
 * Judges `part` of `text` alone, as if `base` levels were open around it (shallowPart); where it
 * cannot be, the whole text, whose verdict (the first level too many in it) is the message.
 */
function checkPartNesting(
  text: string,
  part: string,
  base: number,
  meter: ScanMeter | undefined,
): void {
  if (text !== judged) {
    if (meter) meter.visited += part.length;
    if (shallowPart(part, base)) return;
  }
  checkNesting(text, meter);
}

/**
 * Judges the nesting of an item the quick reader did not read as it stands: declined, or read
 * through the LF copy of a CRLF item (quickRead). The quick reader reads none deeper than its
 * own bound, far below maxDepth, and leaves no bracket or quote open. A ResourceList entry sits
 * under the list's mapping (one level: its sequence is the entry's own `- `); a stream document
 * under none. Items are read in order, the text around them before them (readYaml), and each
 * part proven leaves the scan as the whole scan would find the next: every level of the text is
 * judged once the items are read, and the first too many in the text is the one reported.
 */
export function checkItemNesting(text: string, span: ItemSpan, meter?: ScanMeter): void {
  if (span.start > 0 && text.charCodeAt(span.start - 1) !== 10) checkNesting(text, meter);
  else
    checkPartNesting(
      text,
      text.slice(span.start, span.end),
      span.depth ?? (span.entry ? 1 : 0),
      meter,
    );
}
