// Reading values: js-yaml, because it is the fastest YAML parser on npm here (≈8× the `yaml`
// library's Document parse on a 10k-item list). YAML 1.2 core schema plus merge keys (`<<`),
// which Kubernetes' parser honours; timestamps stay strings, as the API server sees them.
// Validity is not js-yaml's to decide: it accepts some invalid YAML (tabs as indentation, two
// anchors on a node, bad directives) and refuses some valid YAML. The `yaml` library's composer,
// which follows the YAML test suite, decides (yamlProblem) before a value js-yaml read is used;
// only a merge-key bomb, refused whatever else the text holds, is refused without asking it.

import { CORE_SCHEMA, load, Type, YAMLException } from 'js-yaml';
import type { Document, Node, Parser } from 'yaml';
import { isObject, type Json } from '../../model/json.js';
import { grouped } from '../../model/numbers.js';
import { maxNodes } from '../../model/resource.js';
import { columnAt, lineNumberAt } from './lines.js';
import loadYaml from './load-yaml.cjs';
import { beforeColon, yamlMessage } from './messages.js';
import { maxDepth } from './nesting.js';
import { stop, walkNodes } from './walk-nodes.js';

// js-yaml's loader merges any key resolved to this tag; same definition as its built-in one.
export const merge = new Type('tag:yaml.org,2002:merge', {
  kind: 'scalar',
  resolve: (data: unknown) => data === '<<' || data === null,
});

// Tags the conforming reader resolves beyond the core schema (the `yaml` library's knownTags: a
// Date for a timestamp, bytes for binary, …): items with them keep going to its value.
const knownTags = new Set(
  ['binary', 'merge', 'omap', 'pairs', 'set', 'timestamp'].map((t) => `tag:yaml.org,2002:${t}`),
);
/**
 * Any other tag js-yaml has no type for (`!custom`, `!!foo`, a core tag on the wrong kind of
 * node): read as if absent, a scalar as its text, which is what the conforming reader makes of
 * it (with a warning) and what Kubernetes' go-yaml reads. js-yaml refused them, which sent the
 * item to the conforming reader's value: ≈1 s and ≈100 bytes of memory per byte of text.
 */
const untagged = (['scalar', 'sequence', 'mapping'] as const).map(
  (kind) =>
    new Type('', {
      kind,
      multi: true,
      resolve: (_data: unknown, tag?: string) => !knownTags.has(tag ?? ''),
      // A tagged empty node is an empty string to the conforming reader, not null.
      construct: (data: unknown) => data ?? '',
    }),
);
export const schema = CORE_SCHEMA.extend({ implicit: [merge], explicit: untagged });

// Each mapping of a chain `b: &b {<<: *a, …}` copies every key of the one before: the copies grow
// as the square of the chain's length (2·10⁸ for 20k links in 1 MB). js-yaml counts the keys its
// merges copy; past the bound that alias expansion has too (maxNodes, see toResource) the item is
// refused (parseYaml), where js-yaml's own bound (10k) handed it to the conforming reader, whose
// alias resolution is itself quadratic. The bound is lower when the run's expansion budget has less
// left (parseYaml).

/**
 * The run's budget of alias-expanded nodes: `expansionPerChar` per character of the input plus
 * `expansionBase`. maxNodes bounds one item; without a bound per input, thousands of items each
 * just under it (≈250 bytes of nested aliases stand for 900k nodes) cost a walk of 900k nodes
 * each in the alias-bomb check and in every rule after it, and more when a checksum hashes them
 * (≈0.5 µs and ≈40 bytes of memory a node). The examples, testdata/reach and bench/generate.mjs's
 * packages hold 0.04–0.09 nodes per character with no aliases at all, and only items with
 * aliases are charged: 1 per character leaves them a margin of 10 and bounds an 8 MiB input to
 * ≈9.4M nodes (bench family many-alias-items; at 2 per character, 8 MiB of aliased ExternalSecrets
 * read by Deployments peaked at 450 MiB, at 1 at 290 MiB). The base lets any one item under maxNodes pass
 * whatever the input's size, as before this budget.
 */
export const expansionPerChar = 1;
export const expansionBase = maxNodes;
let expansion = { text: '', left: 0 };

/** Starts the budget of a run over `text`; only parses of spans of that text are charged. */
export function startExpansionBudget(text: string): void {
  expansion = { text, left: expansionPerChar * text.length + expansionBase };
}

export class ParseError extends Error {
  constructor(
    message: string,
    /** The text refers to an anchor it does not define (it may be in another item). */
    readonly aliased = false,
    /** Not read: past maxTokens (no verdict on validity; an edit's proof cannot be made). */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** The first thing that makes `text` (one or more YAML documents) invalid, and its offset. */
export interface YamlProblem {
  message: string;
  offset: number;
  /** Valid YAML that no JSON holds (a collection key): said as such, not as invalid YAML. */
  valid?: true;
  /** Not read at all (past maxTokens): no verdict on validity. */
  unread?: true;
}

/** The problem as an error names it: `invalid YAML: … at line L, column C`. */
export function problemAt(
  problem: YamlProblem,
  text: string,
  spanStart: number,
  fullText: string,
): string {
  const where = located(problem.message, text, problem.offset, spanStart, fullText);
  return problem.valid || problem.unread ? where : `invalid YAML: ${where}`;
}

/**
 * The conforming reader's verdict: the first error of the `yaml` library's composer (the CST
 * parser's error tokens included), or undefined for valid YAML. One rule it does not enforce is
 * added: at most one %YAML directive per document (YAML 1.2 §6.8.1; the suite's SF5V).
 */
export function yamlProblem(text: string): YamlProblem | undefined {
  return judged(text).problem;
}

/**
 * Tokens of one text (an item, a document, a run of contentless documents) the conforming reader
 * is given at most (docs/limits.md). Its parser keeps every token of a document and its composer a
 * node per scalar: 150–300 bytes of memory and 1–2 µs per token, whatever the text's size. Text
 * made of tokens holds up to 1.5 per byte (`a,a,…`; `- - …` in a flow mapping, fuzz finding
 * 54a9d0f9a29bc557): 3 MiB of it (maxItemLength) cost 8–25 s and 0.9–1.5 GiB before. Bounds of
 * 1M and 750k let 8 MiB of such documents (bench family flow-dash-runs) peak at 694 and 585 MiB
 * (memory the garbage collector had not yet taken back between documents), 500k at 425 MiB.
 * Manifests hold 0.1–0.33 tokens per byte (examples/, testdata/reach/): 500k is 1.5–5 MiB of
 * them, 1 MiB of short `kN: vN` lines (bench family wide-anchored-mapping, which main read at
 * 2 MB in 2.5 s and 232 MiB).
 */
export const maxTokens = 500_000;
const tooManyTokens = `not read: more than ${grouped(maxTokens)} YAML tokens (scalars, indicators, runs of spaces) for the conforming reader, which keeps about 300 bytes of memory per token; the first token past the bound is`;

/** The lexer's tokens handed to `parser` one by one; past maxTokens, the offset it reached. */
function* bounded(text: string, parser: Parser) {
  let tokens = 0;
  for (const lexeme of new (loadYaml().Lexer)().lex(text)) {
    if (++tokens > maxTokens) throw new TooManyTokens(parser.offset);
    yield* parser.next(lexeme);
  }
  yield* parser.end();
}

class TooManyTokens extends Error {
  constructor(readonly offset: number) {
    super(tooManyTokens);
  }
}

/**
 * Told once, when the `yaml` library has judged more than a number of characters in this process
 * (whenJudgingMuch): main.ts then lets the young generation grow, as that library's tokens, CST
 * and documents are garbage within the item, where the quick reader's values stay.
 */
let muchJudged: { left: number; then: () => void } | undefined;

/** Calls `then` once, when judged() has read more than `characters` from now on. */
export function whenJudgingMuch(characters: number, then: () => void): void {
  muchJudged = { left: characters, then };
}

/** yamlProblem's verdict, with the documents the composer built for it. */
function judged(text: string): { problem?: YamlProblem; docs: Document.Parsed[] } {
  if (muchJudged) {
    muchJudged.left -= text.length;
    if (muchJudged.left < 0) {
      const { then } = muchJudged;
      muchJudged = undefined;
      then();
    }
  }
  const { Composer, Parser } = loadYaml();
  let problem: YamlProblem | undefined;
  const docs: Document.Parsed[] = [];
  // The composer's own duplicate-key check compares each key with every key before it in its
  // mapping: 2·10⁸ comparisons for one mapping of 20k keys. The same check is made here with a
  // set per mapping (firstBadKey).
  const composer = new Composer({ uniqueKeys: false });
  const note = (doc: Document.Parsed) => {
    if (problem) return;
    const error = doc.errors[0];
    const key = firstBadKey(doc);
    if (key !== undefined && !(error && error.pos[0] <= key.offset)) {
      problem = key;
    } else if (error) {
      problem = { message: yamlMessage(error.code, oneLine(error.message)), offset: error.pos[0] };
    }
  };
  // The composer makes an error object per problem, thousands in a broken text, and their stack
  // traces, which nothing reads, are most of their cost (3.5 s on a 0.5 MB fuzz finding).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const doc of composer.compose(bounded(text, new Parser()), true)) {
      note(doc);
      docs.push(doc);
    }
  } catch (error) {
    if (!(error instanceof TooManyTokens)) throw error;
    // A problem in a document before the bound (a run of documents) is still the first.
    return {
      problem: problem ?? { message: tooManyTokens, offset: error.offset, unread: true },
      docs,
    };
  } finally {
    Error.stackTraceLimit = limit;
  }
  if (problem) return { problem, docs };
  const offset = secondYamlDirective(text);
  if (offset === undefined) return { docs };
  return { problem: { message: 'a document can have only one %YAML directive', offset }, docs };
}

/**
 * The offset of a %YAML directive that follows another with only directives, blank lines and
 * comments between them (one document's prefix), or undefined. One line at a time: a regular
 * expression over the prefix keeps a backtracking entry per line, and overflowed the stack on
 * 3 million comment lines.
 */
export function secondYamlDirective(text: string): number | undefined {
  const isYaml = (at: number) => text.startsWith('%YAML', at) && /[ \t]/.test(text[at + 5] ?? '');
  let afterYaml = false;
  for (let pos = 0; pos < text.length; ) {
    if (afterYaml && isYaml(pos)) return pos;
    const lf = text.indexOf('\n', pos);
    if (lf < 0) return undefined;
    if (isYaml(pos)) afterYaml = true;
    else if (afterYaml && text[pos] !== '%') afterYaml = blankOrComment(text, pos, lf);
    pos = lf + 1;
  }
  return undefined;
}

/** Whether the line from `start` to the line feed at `lf` holds white space or a comment only. */
function blankOrComment(text: string, start: number, lf: number): boolean {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i === lf || text[i] === '#' || (text[i] === '\r' && i + 1 === lf);
}

/**
 * The first key in `doc` that JSON, and so a Kubernetes object, cannot hold, whatever reader then
 * reads the value: a duplicate (found with a set per mapping: the library's own check compares
 * each key with every key before it) or a collection (`? [a, b]`, which js-yaml would turn into
 * the string "a,b").
 */
export function firstBadKey(doc: Document.Parsed): YamlProblem | undefined {
  const { isCollection, isScalar } = loadYaml();
  let first: YamlProblem | undefined;
  const found = (problem: YamlProblem) => {
    if (first === undefined || problem.offset < first.offset) first = problem;
  };
  walkNodes(doc, {
    Map(map) {
      const keys = new Set<unknown>();
      for (const { key } of map.items) {
        if (isCollection(key)) {
          found({ message: collectionKey, offset: key.range?.[0] ?? 0, valid: true });
          continue;
        }
        if (!isScalar(key) || Number.isNaN(key.value)) continue;
        if (keys.has(key.value))
          found({ message: 'Map keys must be unique', offset: key.range?.[0] ?? 0 });
        else keys.add(key.value);
      }
      return undefined;
    },
  });
  return first;
}

const collectionKey = 'valid YAML, but a mapping key is a collection, which JSON cannot hold';

function oneLine(message: string): string {
  return (message.split('\n')[0] as string).replace(/ at line \d+, column \d+:?$/, '');
}

/** `problem at line L, column C` for an offset in `text`, which starts at `spanStart` of `fullText`. */
export function located(
  problem: string,
  text: string,
  offset: number,
  spanStart: number,
  fullText: string,
): string {
  const before = text.slice(0, offset);
  const line = lineNumberAt(fullText, spanStart) + (before.match(/\n/g)?.length ?? 0);
  return `${problem} at line ${line}, column ${columnAt(text, offset)}`;
}

/** Parses one span; errors name the line and column in the whole input. */
export function parseYaml(text: string, spanStart: number, fullText: string): Json {
  // Without an alias nothing expands: the value has fewer nodes than the text has characters.
  const charged = fullText === expansion.text && text.includes('*');
  return parseSpan(text, spanStart, fullText, charged);
}

/** Charges the run's budget with the expansion of `value`, read from `text`; throws past it. */
function charge(value: Json, text: string, spanStart: number, fullText: string): void {
  const nodes = expandedNodes(value, expansion.left);
  if (nodes <= expansion.left) {
    expansion.left -= nodes;
    return;
  }
  // Past maxNodes on its own, an item is left to toResource, which names it in its refusal after
  // a walk of maxNodes + 1 nodes (charged here). Not a ResourceList read whole for an alias
  // between items (wholeDocument): toResource would walk each of its items.
  const list = isObject(value) && Array.isArray(value.items);
  if (expansion.left < maxNodes || list) throw overBudget(text, 0, spanStart, fullText);
  expansion.left -= maxNodes + 1;
}

function overBudget(text: string, offset: number, spanStart: number, fullText: string) {
  const bound = expansionPerChar * fullText.length + expansionBase;
  const problem = `YAML aliases expand this input to more than ${grouped(bound)} nodes (${expansionPerChar} per character of input + ${grouped(expansionBase)}; a YAML alias bomb?)`;
  return new ParseError(located(problem, text, offset, spanStart, fullText));
}

/**
 * The nodes of `value` as walks see it (aliases expanded), or Infinity past `limit` or for a
 * cycle (js-yaml registers an anchor before reading its content). Each distinct node is visited
 * once, its size memoised: linear in the text, where a walk of the expansion is not. A stack, not
 * recursion: a chain of aliases nests as deep as it is long.
 */
export function expandedNodes(value: Json, limit: number): number {
  const sizes = new Map<object, number>();
  const stack: [Json, boolean][] = [[value, false]];
  let total = 1;
  while (stack.length > 0) {
    const [node, done] = stack.pop() as [Json, boolean];
    if (node === null || typeof node !== 'object') continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (done) {
      let size = 1;
      for (const child of children) {
        size += child !== null && typeof child === 'object' ? (sizes.get(child) as number) : 1;
      }
      if (size > limit) return Number.POSITIVE_INFINITY;
      sizes.set(node, size);
      total = size;
      continue;
    }
    const known = sizes.get(node);
    if (known === -1) return Number.POSITIVE_INFINITY; // on the path to itself
    if (known !== undefined) continue;
    sizes.set(node, -1);
    stack.push([node, true]);
    for (const child of children) stack.push([child, false]);
  }
  return total;
}

function parseSpan(text: string, spanStart: number, fullText: string, charged: boolean): Json {
  let value: Json = null;
  let failure: YAMLException | undefined;
  const mergeBound = charged ? Math.min(maxNodes, expansion.left) : maxNodes;
  try {
    // maxTotalMergeKeys and maxDepth are not in js-yaml's types: hence no object literal in the
    // call. js-yaml's own depth bound (100 nodes) sent valid text nested deeper to the conforming
    // reader's value, which costs the `yaml` library's nodes (≈5× js-yaml's time; bench family
    // values-annotations, 300 flow levels); the text is proven within maxDepth levels before
    // any reader recurses on it (nesting.ts), which js-yaml counts up to twice (`- a:`).
    const options = { schema, maxTotalMergeKeys: mergeBound, maxDepth: 2 * maxDepth };
    value = load(text, options) as Json;
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    failure = error;
  }
  const reason = failure?.reason ?? '';
  const offset = failure?.mark?.position ?? 0;
  // Refused before the conforming reader looks: its document of a large item costs ≈2 s and
  // ≈100 bytes of memory per byte of text, and the refusal would stand whatever it found.
  if (/maxTotalMergeKeys/.test(reason)) {
    if (mergeBound < maxNodes) throw overBudget(text, offset, spanStart, fullText);
    const bomb = `merge keys (<<) copy more than ${grouped(maxNodes)} keys (a YAML merge-key bomb?)`;
    throw new ParseError(located(bomb, text, offset, spanStart, fullText));
  }
  // Also refused before the conforming reader judges the item, as a merge-key bomb is: past the
  // budget every item with aliases is, and judging costs ≈1 s per MB.
  if (charged && failure === undefined) charge(value, text, spanStart, fullText);
  const { problem, docs } = judged(text);
  if (problem) {
    throw new ParseError(problemAt(problem, text, spanStart, fullText), false, problem.unread);
  }
  if (failure === undefined) return value;
  if (/unidentified alias/.test(reason)) {
    throw new ParseError(
      // js-yaml's reason quotes the alias's name.
      `invalid YAML: ${located('unidentified alias', text, offset, spanStart, fullText)}`,
      true,
    );
  }
  // Valid YAML js-yaml does not read (a multi-line flow key, …): the conforming reader's value.
  const conforming = conformingValue(text, docs, spanStart, fullText);
  if (charged) charge(conforming, text, spanStart, fullText);
  return conforming;
}

/** What makes the verdict's document read other than conformingValue's: see there. */
const mergeOrDirective = /<<|!|(?:^\uFEFF?|\n)%/;

/** Aliases in an item read by the conforming reader (conformingValue). */
const maxAliases = 100;

/** The value of `text`, which js-yaml does not read; `judged`: the documents yamlProblem read. */
function conformingValue(
  text: string,
  judged: readonly Document.Parsed[],
  spanStart: number,
  fullText: string,
): Json {
  const { parseDocument } = loadYaml();
  const refuse = (problem: string, node: Node | null | undefined) => {
    const offset = node?.range?.[0] ?? 0;
    return new ParseError(located(problem, text, offset, spanStart, fullText));
  };
  // Collection keys were refused by yamlProblem (firstBadKey).
  let bad: ParseError | undefined;
  let aliases = 0;
  // Checked on the document yamlProblem read, so an item refused here costs the library one read
  // of it, not two. A span holds one document; the value below is the first's too.
  for (const judgedDoc of judged.slice(0, 1))
    walkNodes(judgedDoc, {
      // The library resolves each alias by a walk of the anchors and aliases before it: quadratic
      // in the aliases (8.7k anchors each aliased once in 0.25 MB: 3.6 s). Items that need this
      // reader and hold more are refused; js-yaml, which reads every other item, resolves aliases
      // in constant time.
      Alias(alias) {
        if (++aliases <= maxAliases) return undefined;
        bad = refuse(
          `valid YAML, but more than ${maxAliases} aliases in an item that needs the conforming reader (a YAML 1.1 tag such as !!timestamp, a multi-line flow key)`,
          alias,
        );
        return stop;
      },
    });
  if (bad) throw bad;
  // Read again for the value, with merge keys, which the verdict's read leaves as plain keys.
  // Duplicate keys were looked for by yamlProblem, in linear time; the composer's check is not.
  // Where the text can hold no merge key (no `<<`, no tag: `!!merge`) and no directive (`%YAML
  // 1.1` changes the verdict's schema, not this read's), the verdict's document is the same as
  // that read's: its value is taken, one parse of the text by the library, not two (deep flow
  // values, bench family values-annotations, read and proven with this reader).
  const opts = { schema: 'core', merge: true, prettyErrors: false, uniqueKeys: false } as const;
  const [verdict] = judged;
  const doc = verdict && !mergeOrDirective.test(text) ? verdict : parseDocument(text, opts);
  // Warnings (a tag no schema here resolves, `!foo`) leave the value as if untagged: what
  // Kubernetes' go-yaml reads too.
  try {
    // The library's own alias bound counts what each anchor holds with a walk of the whole
    // document per alias; the aliases are bounded above and the expansion by toResource.
    return doc.toJS({ maxAliasCount: -1 }) as Json;
  } catch (error) {
    throw new ParseError(`invalid YAML: ${beforeColon((error as Error).message)}`);
  }
}
