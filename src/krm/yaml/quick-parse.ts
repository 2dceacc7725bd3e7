// A reader for the YAML manifests are made of: block mappings and lists, one-line plain and flow
// values, quoted scalars (escapes, and over several lines in block context: CRD descriptions),
// block scalars, comments. It takes half the time js-yaml takes on them, and parsing workloads
// and ExternalSecrets is most of a run. It reads exactly what js-yaml reads (the same values, the
// same key order) and answers `undefined` for anything else: tabs, CR, control characters,
// anchors, aliases, tags, merge keys, multi-line plain or flow values, explicit keys, duplicate
// keys, unusual indentation, document markers, and every error. The caller then parses with
// js-yaml, which reports the errors. Each rule below mirrors a js-yaml 4 code path;
// test/quick-parse.test.ts compares both readers on varied and mutated text.
import type { Type } from 'js-yaml';
import type { Json, JsonObject } from '../../model/json.js';
import type { Projection } from '../../model/resource.js';
import { merge, schema } from './parse.js';

/** The schema's implicit types for plain scalars, in js-yaml's resolution order. */
const implicitTypes = (schema as unknown as { compiledImplicit: readonly Type[] }).compiledImplicit;

/** Thrown (one instance, no stack to build) when the text is beyond this reader. */
const unsupported = new Error('layout beyond the quick reader');

/** Characters js-yaml rejects or reads specially, and tabs and CR, which change indentation. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const unusual = /[\t\r\x00-\x08\x0B-\x1F\x7F-\x9F\u2028\u2029\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/;

/**
 * Whether `text` holds a character the quick reader declines: one scan for a whole input instead
 * of one per item. They include every character YAML does not allow.
 */
export function hasUnusualCharacters(text: string): boolean {
  return unusual.test(text);
}

/**
 * YAML caps an implicit key at 1024 characters (js-yaml does not); counted here in UTF-16 units,
 * which never undercount.
 */
const maxKeyLength = 1024;

/** Far below js-yaml's maxDepth (100), which counts one level per node. */
const maxDepth = 40;

// The text being read (the whole input: a flat string reads faster than a slice of it) and the
// end of the item in it, module-level so that the hot paths pass only numbers. `pos` is a line
// start after a node is read; `after` is the offset after a one-line value; `indent` is the
// indentation of the line nextContent found. A function that reads `s` more than once reads it
// into a local first (`const t = s`): each read of the module's variable is a load and a check
// that it holds a string, each time, where a local's check is made once (Turbofan; 1.5 % of
// fan-out's instructions).
let s = '';
let limit = 0;
let cache: ScalarCache | undefined;
/** Between calls, none: an input's shapes and guesses hold its keys, slices of its text. */
const idle = newShapes();
let shapes = idle;
const noGuesses = newGuesses();
let guesses = noGuesses;
let depth = 0;
let pos = 0;
let after = 0;
let indent = 0;

/**
 * What to build below a node: a Projection, or null for nothing (the node is read and checked
 * all the same, so that the verdict on the text does not depend on what is built).
 */
type Want = Projection | null;

/**
 * The keys read so far of the mappings being read, built or not (a mapping is built at its end,
 * popMapping), one list per depth and reused: duplicate keys must be refused in every mapping. A
 * list, searched, because most mappings have a few keys (clearing a Set allocates); past
 * `fewKeys` a Set takes over. The list is reused up to a count, never truncated: `length = 0`
 * frees an array's storage, and a push then allocates it again, for every mapping of the input
 * (≈48 MB on the fan-in shape at 10k).
 */
interface SeenKeys {
  keys: string[];
  count: number;
  set: Set<string> | undefined;
}
const seenAt: SeenKeys[] = [];
const fewKeys = 16;
function seenKeys(): SeenKeys {
  let seen = seenAt[depth];
  if (seen === undefined) {
    seen = { keys: [], count: 0, set: undefined };
    seenAt[depth] = seen;
  }
  seen.count = 0;
  seen.set = undefined;
  return seen;
}
/** Adds a key to a list from seenKeys; a duplicate is beyond this reader. */
function addKey(seen: SeenKeys, key: string): void {
  const { keys, count } = seen;
  if (count < fewKeys) {
    for (let i = 0; i < count; i++) if (keys[i] === key) throw unsupported;
  } else {
    seen.set ??= new Set(keys.slice(0, count));
    if (seen.set.has(key)) throw unsupported;
    seen.set.add(key);
  }
  keys[count] = key;
  seen.count = count + 1;
}

/**
 * Slots of ScalarCache's tables (a power of two: a slot is the hash's low bits): manifests repeat
 * a few dozen keys, and thousands of values (a Secret's name in each of its consumers: 4,096 slots
 * held a fifth fewer of fan-in's repeats).
 */
const keySlots = 4096;
const valueSlots = 16384;

/**
 * Bytes per slot of a value table's copies of its strings' texts: the length + 1 (0 for none),
 * then the characters, where all are below 256 and fit (up to 30). Compared with the string
 * itself, a hit made three loads each waiting for the one before (the slot, the string, then its
 * characters, somewhere in the input text), most of them cache misses on a large input: a sixth
 * of the reader's time on fan-in at 10k (perf profile). The copy is one load away, and the slot
 * is loaded beside it, not after.
 */
const copySize = 32;

/**
 * Whether `s.slice(p, p + n)` is the text of `known`, the string in `slot` of a table whose
 * copies are `copies` (keep). The caller loads `known` first: the load goes on while the copy is
 * compared.
 */
function cached(
  known: string | undefined,
  copies: Uint8Array,
  slot: number,
  p: number,
  n: number,
): boolean {
  const t = s;
  const at = slot * copySize;
  const size = copies[at];
  // No copy: a long text, one beyond Latin-1, or none. A copy's text is shorter than copySize.
  if (size === 0) return known !== undefined && known.length === n && t.startsWith(known, p);
  if (size !== n + 1) return false;
  for (let i = 0; i < n; i++) if (copies[at + 1 + i] !== t.charCodeAt(p + i)) return false;
  return true;
}

/** Puts `text`, read at `p`, in `slot` of `strings` and its copy in `copies` where it fits. */
function keep(
  strings: (string | undefined)[],
  copies: Uint8Array,
  slot: number,
  text: string,
  p: number,
): void {
  const t = s;
  strings[slot] = text;
  const at = slot * copySize;
  const n = text.length;
  copies[at] = 0;
  if (n >= copySize - 1) return;
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(p + i);
    if (c > 255) return;
    copies[at + 1 + i] = c;
  }
  copies[at] = n + 1;
}

/**
 * Items read from which a ScalarCache is made (the reader's, items.ts, and the proofs',
 * apply-edits.ts): its tables (1.3 MB, a third of a millisecond to fill) pay off across many
 * items, not a few.
 */
export const cachedFrom = 128;

/**
 * Strings already read, by a hash of their text, so that the same text again costs no slice and
 * no new string: manifests repeat a few dozen keys thousands of times, and values too (`password`,
 * `apps/v1`, an annotation's `'compact'`, a Secret's name in each of its consumers), and every
 * string of a built value lives to the end of the run (≈400k strings of ≈20k texts on the fan-in
 * shape at 10k). A table per kind of scalar, each slot holding the last string whose text hashed
 * there (a slot is an array index: a Map's lookup cost more than the slice it saves), each hit
 * checked against the text (a short value's against a copy of it: copySize), so a collision
 * only costs a miss. A string is only kept where it reads as its own text: plain keys (which
 * js-yaml stringifies: a key `true` is "true"), plain values (where `true` is no string) and
 * quoted scalars. One per input text, or per applyEdits call for its proofs' re-reads of the edited
 * items' texts: it holds slices of those.
 */
export class ScalarCache {
  readonly keys: (string | undefined)[] = new Array(keySlots).fill(undefined);
  readonly plain: (string | undefined)[] = new Array(valueSlots).fill(undefined);
  readonly quoted: (string | undefined)[] = new Array(valueSlots).fill(undefined);
  /** The texts of the strings of `plain` and `quoted` where they fit, compared on a hit (copySize). */
  readonly plainCopies = new Uint8Array(valueSlots * copySize);
  readonly quotedCopies = new Uint8Array(valueSlots * copySize);
  /** The key sequences of the mappings built from this input (popMapping). */
  readonly shapes: Shapes = newShapes();
  /** The keys read from this input, where they were read (Guess). */
  readonly guesses: Guesses = newGuesses();
}

/**
 * The value of the YAML item `text.slice(start, end)`: a whole document, or with `entry` the
 * single `- ` entry of a block sequence (a ResourceList item). `undefined` when the text is beyond
 * this reader.
 */
export function quickParse(
  text: string,
  start: number,
  end: number,
  entry: boolean,
  scalarCache?: ScalarCache,
  /** The caller found no unusual character in all of `text` (see hasUnusualCharacters). */
  checked = false,
  /**
   * What of the value to build (the rest is read and checked, not built: keys outside it are left
   * out); null builds nothing and answers null for text this reader reads.
   */
  projection: Projection | null = true,
): Json | undefined {
  // js-yaml appends a line break to a text without one; requiring it keeps the ends simple: every
  // line of the item ends with a line break before `end`.
  if (end <= start || text.charCodeAt(end - 1) !== 10) return undefined;
  if (!checked && unusual.test(text.slice(start, end))) return undefined;
  s = text;
  limit = end;
  cache = scalarCache;
  shapes = scalarCache?.shapes ?? newShapes();
  guesses = scalarCache?.guesses ?? noGuesses;
  depth = 0;
  try {
    return entry ? readEntry(start, projection) : readDocument(start, projection);
  } catch (error) {
    if (error === unsupported) return undefined;
    throw error;
  } finally {
    s = '';
    cache = undefined;
    shapes = idle;
    guesses = noGuesses;
    // Lists left unfinished by a text beyond this reader: no value of theirs is kept.
    elements.fill(null, 0, top);
    top = 0;
  }
}

function readEntry(start: number, w: Want): Json {
  const first = nextContent(start);
  if (first < 0 || !isEntry(first + indent)) throw unsupported;
  // A sequence of exactly that entry, read without building a list of one per item.
  const col = indent;
  enter();
  const value = entryValue(col, first, first + col + 1, w, rootGuess());
  depth--;
  if (nextContent(pos) >= 0) throw unsupported;
  return w === null ? null : value;
}

function readDocument(start: number, w: Want): Json {
  const t = s;
  // Comments and blank lines, then an optional `---` line with nothing but a comment after it.
  let p = start;
  while (p < limit) {
    let i = p;
    while (t.charCodeAt(i) === 32) i++;
    const c = t.charCodeAt(i);
    if (c !== 10 && c !== 35) break;
    p = t.indexOf('\n', i) + 1;
  }
  if (p < limit && t.startsWith('---', p)) {
    let i = p + 3;
    if (t.charCodeAt(i) !== 32 && t.charCodeAt(i) !== 10) throw unsupported;
    while (t.charCodeAt(i) === 32) i++;
    if (t.charCodeAt(i) !== 10 && t.charCodeAt(i) !== 35) throw unsupported;
    p = t.indexOf('\n', i) + 1;
  }
  const first = nextContent(p);
  if (first < 0) throw unsupported;
  const col = indent;
  const key = firstKey(first + col, rootGuess());
  if (key === undefined) throw unsupported;
  const map = blockMapping(col, key, w, guessed);
  if (nextContent(pos) >= 0) throw unsupported;
  return map;
}

/**
 * The start of the next line from line start `p` that is not blank or a comment (its indentation
 * in `indent`), or -1. Document markers are beyond this reader.
 */
function nextContent(p: number): number {
  const t = s;
  while (p < limit) {
    let i = p;
    while (t.charCodeAt(i) === 32) i++;
    const c = t.charCodeAt(i);
    if (c !== 10 && c !== 35) {
      // `---` or `...` at the line's start, compared in place: a call each cost more (an item's
      // `- ` line is one).
      if (i === p && (c === 45 || c === 46) && t.charCodeAt(p + 1) === c) {
        if (t.charCodeAt(p + 2) === c) throw unsupported;
      }
      indent = i - p;
      return p;
    }
    // A blank line ends where it starts; a comment's end is searched for.
    p = c === 10 ? i + 1 : t.indexOf('\n', i) + 1;
  }
  return -1;
}

/** `-` followed by a space or the line end: a block sequence entry. */
function isEntry(at: number): boolean {
  if (s.charCodeAt(at) !== 45) return false;
  const c = s.charCodeAt(at + 1);
  return c === 32 || c === 10;
}

function enter(): void {
  if (++depth > maxDepth) throw unsupported;
}

/**
 * The elements of the lists being read, innermost last, from `top` down: a list is copied out at
 * its end at its exact length. Pushed to, a list's storage grows to 17 slots at its first element
 * and by half again after (most lists of a manifest hold one to three elements: ≈1.5 MB of the
 * dense shape's 10k items). Never shortened (that frees its storage).
 */
const elements: Json[] = [];
let top = 0;
function pushElement(value: Json): void {
  if (top === elements.length) elements.push(value);
  else elements[top] = value;
  top++;
}
/** A mapping's key and value: one call (the run does not inline calls, main.ts), not two. */
function pushEntry(key: string, value: Json): void {
  if (top + 1 >= elements.length) {
    pushElement(key);
    pushElement(value);
    return;
  }
  elements[top] = key;
  elements[top + 1] = value;
  top += 2;
}
/** The list of the elements pushed since `base`, which it pops. */
function popList(base: number): Json[] {
  const list = elements.slice(base, top);
  elements.fill(null, base, top);
  top = base;
  return list;
}

/**
 * The mapping of the keys and values pushed since `base` (key, value, key, …), which it pops,
 * made by the constructor of its keys (`shape`, the trie's node for them, which the reader of the
 * mapping steps to key by key as it reads them). Built from `{}`, an object keeps room for four properties
 * whatever it holds (56 bytes for one or two; past four, the rest out of line); V8 sizes the
 * objects of a constructor to the properties they get (slack tracking: 32 bytes for one key, 40
 * for two), and the parsed items are most of what a run keeps alive (ARCHITECTURE.md, Memory).
 */
function popMapping(base: number, shape: Shape | undefined): JsonObject {
  const map = shape === undefined ? {} : new shape.make();
  // Each slot emptied as it is read: a fill() call per mapping cost more than the stores.
  for (let i = base; i < top; i += 2) {
    map[elements[i] as string] = elements[i + 1] as Json;
    elements[i] = null;
    elements[i + 1] = null;
  }
  top = base;
  return map;
}

/**
 * The key sequences of the mappings built, a trie: a node's constructor makes the mappings of
 * those keys. One per ScalarCache (an input, or one applyEdits' proofs), as many nodes as
 * `maxShapes`; past it, or past `maxShapeKeys` keys, a mapping is built from `{}`.
 */
interface Shape {
  /**
   * The first key seen after this node's and its node, compared before the others' Map: most
   * nodes have one (a manifest's mappings of one kind list their keys in one order).
   */
  key: string | undefined;
  after: Shape | undefined;
  /** How many keys lead here: none past `maxShapeKeys`. */
  keys: number;
  next: Map<string, Shape> | undefined;
  make: new () => JsonObject;
}
interface Shapes {
  root: Shape;
  count: number;
}
const maxShapes = 4096;
const maxShapeKeys = 32;
function newShape(keys: number): Shape {
  return {
    key: undefined,
    after: undefined,
    keys,
    next: undefined,
    make: plainObjects(),
  };
}
function newShapes(): Shapes {
  return { root: newShape(0), count: 0 };
}
/** The node after `shape` for `key`, other than its first (its readers compare that one). */
function shapeAfter(shape: Shape, key: string): Shape | undefined {
  let next = shape.next?.get(key);
  if (next === undefined) {
    if (shapes.count >= maxShapes || shape.keys >= maxShapeKeys) return undefined;
    shapes.count++;
    next = newShape(shape.keys + 1);
    if (shape.key === undefined) {
      shape.key = key;
      shape.after = next;
    } else {
      shape.next ??= new Map();
      shape.next.set(key, next);
    }
  }
  return next;
}
/**
 * The keys read of an input, each where it was read, a trie: a node is a key after the keys
 * before it in its mapping, in the mappings at one place of an item (its path of keys from the
 * item's top; a list's entries share their list's place). A manifest's mappings at one place list
 * their keys in one order (a pod template's, a container's), so the key read after a node's the
 * first time is the one to compare the next line with, in place (`likely`): readKey walks and
 * hashes a key's characters, then compares them with the string it looks up, where this compares
 * once. The Shape trie cannot tell it: its nodes follow the keys built (a projection leaves most
 * out) and not the place, and the first key of a mapping has none before it. Read or not, every
 * key is read as before: a guess only spares readKey where the line holds the key guessed. One
 * per ScalarCache (an input, or one applyEdits' proofs), as many nodes as `maxGuesses`; past it,
 * no new guess.
 */
interface Guess {
  readonly key: string;
  /**
   * `key` where a plain `key:` line reads as it (readsAsItself), else undefined: compared with
   * the line where this node is the guess.
   */
  readonly likely: string | undefined;
  /**
   * The characters of `likely`, compared with the line's: a key string made from the input is
   * a slice of it, and turned into a thin string once an object has it as a key, which
   * startsWith reads through V8's runtime (twice the time of a key's walk and hash).
   */
  readonly codes: Uint8Array | undefined;
  /** The node of the key first read after this one, compared before the others' Map. */
  next: Guess | undefined;
  others: Map<string, Guess> | undefined;
  /** The start of the mappings read as this key's value (and its list's entries): no key yet. */
  inner: Guess | undefined;
}
interface Guesses {
  root: Guess;
  count: number;
}
const maxGuesses = 4096;
function newGuess(key: string): Guess {
  // A mapping's start has no key ('': also made before selfKey, at the module's top).
  const likely = key !== '' && readsAsItself(key) ? key : undefined;
  let codes: Uint8Array | undefined;
  if (likely !== undefined) {
    // ASCII only (selfKey).
    codes = new Uint8Array(likely.length);
    for (let i = 0; i < likely.length; i++) codes[i] = likely.charCodeAt(i);
  }
  return {
    key,
    likely,
    codes,
    next: undefined,
    others: undefined,
    inner: undefined,
  };
}
function newGuesses(): Guesses {
  return { root: newGuess(''), count: 0 };
}
/**
 * The item's top for the guesses, none without a ScalarCache: an item read alone (a short input)
 * would learn its own keys at a cost and drop them.
 */
function rootGuess(): Guess | undefined {
  return guesses === noGuesses ? undefined : guesses.root;
}
/** The node after `guess` for `key` (read by readKey), made where new; undefined past the bound. */
function guessAfter(guess: Guess, key: string): Guess | undefined {
  const first = guess.next;
  if (first !== undefined && first.key === key) return first;
  let next = guess.others?.get(key);
  if (next === undefined) {
    if (guesses.count >= maxGuesses) return undefined;
    guesses.count++;
    next = newGuess(key);
    if (first === undefined) guess.next = next;
    else {
      guess.others ??= new Map();
      guess.others.set(key, next);
    }
  }
  return next;
}
/** The start of the mappings read as the value of `guess`'s key, made where new. */
function innerOf(guess: Guess): Guess | undefined {
  if (guess.inner === undefined && guesses.count < maxGuesses) {
    guesses.count++;
    guess.inner = newGuess('');
  }
  return guess.inner;
}

/** The node of the key that firstKey or nextKey read last: undefined for none. */
let guessed: Guess | undefined;

/**
 * The key of a mapping's line at `at`, as readKey answers it, where the mapping is the value of
 * `outer`'s key (or an item); its node in `guessed`.
 */
function firstKey(at: number, outer: Guess | undefined): string | undefined {
  return nextKey(at, outer === undefined ? undefined : innerOf(outer));
}

/** The key at `at` as readKey answers it, read after the key of `guess`; its node in `guessed`. */
function nextKey(at: number, guess: Guess | undefined): string | undefined {
  const t = s;
  const next = guess?.next;
  const codes = next?.codes;
  if (codes !== undefined) {
    const n = codes.length;
    const colon = at + n;
    if (t.charCodeAt(colon) === 58) {
      const f = t.charCodeAt(colon + 1);
      let i = 0;
      if (f === 32 || f === 10) while (i < n && codes[i] === t.charCodeAt(at + i)) i++;
      if (i === n) {
        after = colon + 1;
        guessed = next;
        return (next as Guess).likely;
      }
    }
  }
  const key = readKey(at);
  guessed = key === undefined || guess === undefined ? undefined : guessAfter(guess, key);
  return key;
}

/** A key made of these characters reads as itself on a plain `key:` line, unless resolved. */
const selfKey = /^[0-9A-Za-z][\w./-]*$/;
/**
 * Whether readKey, given `key` followed by `: ` or `:` and a line break, answers `key`: a letter
 * or digit first (plainStart), no `:`, `#` or space in it, and no implicit type resolving it.
 */
function readsAsItself(key: string): boolean {
  return key.length <= maxKeyLength && selfKey.test(key) && resolvePlain(key) === key;
}

/** A constructor of plain objects (their prototype is Object.prototype) with a map of its own. */
function plainObjects(): new () => JsonObject {
  // biome-ignore lint/complexity/useArrowFunction: an arrow function is no constructor.
  const make = function () {} as unknown as new () => JsonObject;
  make.prototype = Object.prototype;
  return make;
}

/**
 * A block sequence at column `col` whose first `-` is at `at`; null where none is built. `g`: the
 * node of the key whose value it is (Guess), for its entries' keys.
 */
function blockSequence(col: number, at: number, w: Want, g: Guess | undefined): Json[] | null {
  enter();
  const base = top;
  for (;;) {
    // `at` is in column `col`: its line starts `col` before it. Entries share the list's `w`.
    const value = entryValue(col, at - col, at + 1, w, g);
    if (w !== null) pushElement(value);
    const next = nextContent(pos);
    if (next < 0) {
      pos = limit;
      break;
    }
    if (indent > col) throw unsupported;
    if (indent < col || !isEntry(next + col)) {
      pos = next;
      break;
    }
    at = next + col;
  }
  depth--;
  return w === null ? null : popList(base);
}

/** The value of a `- ` entry of a sequence at column `col`, read from `p` (after the `-`). */
function entryValue(
  col: number,
  lineStart: number,
  p: number,
  w: Want,
  g: Guess | undefined,
): Json {
  const t = s;
  while (t.charCodeAt(p) === 32) p++;
  const c = t.charCodeAt(p);
  if (c === 10 || c === 35) {
    // Nothing after the `-`: the value is on the next lines, or null.
    const end = c === 10 ? p : t.indexOf('\n', p);
    const next = nextContent(end + 1);
    if (next < 0 || indent <= col) {
      // js-yaml then reads a less indented `- ` line as the next entry of this sequence.
      if (next >= 0 && indent < col && isEntry(next + indent)) throw unsupported;
      pos = end + 1;
      return null;
    }
    return blockNode(next, indent, w, g);
  }
  // A compact nested sequence (`- - a`) or mapping (`- key: value`) starts on this line.
  const column = p - lineStart;
  if (isEntry(p)) return blockSequence(column, p, w, g);
  if (c !== 91 && c !== 123) {
    const key = firstKey(p, g);
    if (key !== undefined) return blockMapping(column, key, w, guessed);
  }
  return inlineValue(p, col, w);
}

/**
 * A block sequence or mapping whose first line starts at `lineStart`, indented `col`, the value
 * of the key of `g`.
 */
function blockNode(lineStart: number, col: number, w: Want, g: Guess | undefined): Json {
  const at = lineStart + col;
  if (isEntry(at)) return blockSequence(col, at, w, g);
  const key = firstKey(at, g);
  if (key === undefined) throw unsupported;
  return blockMapping(col, key, w, guessed);
}

/**
 * A block mapping at column `col` whose first key `first` was just read (see readKey); `g`: that
 * key's node (Guess). No line's end is looked for before it is read: a key line's end is where
 * its value's read stops (the scans stop at a line break), not a search of its own (a call per
 * line: ≈1 % of a run's instructions).
 */
function blockMapping(
  col: number,
  first: string,
  w: Want,
  g: Guess | undefined,
): JsonObject | null {
  enter();
  // Built at its end from its keys and values on the stack (popMapping); every key read, built
  // or not, is in `seen`.
  const base = top;
  const seen = seenKeys();
  // The trie's node for the keys built so far (popMapping).
  let shape = w === null ? undefined : shapes.root;
  let key = first;
  for (;;) {
    // js-yaml refuses duplicate keys; `__proto__` it stores with defineProperty.
    if (key === '__proto__') throw unsupported;
    addKey(seen, key);
    const child: Want = w === true || w === null ? w : (w.get(key) ?? null);
    const value = mappingValue(col, after, child, g);
    if (child !== null) {
      pushEntry(key, value);
      if (shape !== undefined) shape = shape.key === key ? shape.after : shapeAfter(shape, key);
    }
    const next = nextContent(pos);
    if (next < 0) {
      pos = limit;
      break;
    }
    if (indent < col) {
      pos = next;
      break;
    }
    if (indent > col) throw unsupported;
    const at = next + col;
    const read = s.charCodeAt(at) === 45 && isEntry(at) ? undefined : nextKey(at, g);
    if (read === undefined) throw unsupported;
    key = read;
    g = guessed;
  }
  depth--;
  return w === null ? null : popMapping(base, shape);
}

/**
 * The value of a key of a mapping at column `col`, read from `p` (after the `:`); `g`: the key's
 * node (Guess).
 */
function mappingValue(col: number, p: number, w: Want, g: Guess | undefined): Json {
  const t = s;
  while (t.charCodeAt(p) === 32) p++;
  const c = t.charCodeAt(p);
  if (c === 10 || c === 35) {
    // Nothing after the `:`: a block collection on the next lines, or null.
    const end = c === 10 ? p : t.indexOf('\n', p);
    const next = nextContent(end + 1);
    if (next >= 0 && indent > col) return blockNode(next, indent, w, g);
    // A sequence may sit at the key's own indentation.
    if (next >= 0 && indent === col && isEntry(next + col)) {
      return blockSequence(col, next + col, w, g);
    }
    pos = end + 1;
    return null;
  }
  return inlineValue(p, col, w);
}

/**
 * A value that starts on its key's or `-`'s line at `p`, in a collection at column `col`: a block
 * scalar, or a one-line quoted, flow or plain value that nothing follows but a comment. Its line's
 * end is where the value's read stops or, after a comment, searched for.
 */
function inlineValue(p: number, col: number, w: Want): Json {
  const t = s;
  const c = t.charCodeAt(p);
  const build = w !== null;
  if (c === 124 || c === 62) return blockScalar(p, t.indexOf('\n', p), col, build);
  let value: Json = null;
  if (c === 34 || c === 39) value = quoted(p, build, col);
  else if (c === 91 || c === 123) value = flowCollection(p, w);
  else {
    const e = plainInBlock(p);
    if (build) value = plainValue(p, e);
    else refuseMerge(p, e);
    after = plainEnd;
  }
  let i = after;
  while (t.charCodeAt(i) === 32) i++;
  let end = i;
  if (t.charCodeAt(i) !== 10) {
    // A comment needs a space before its `#` (`"a"#b` is an error; js-yaml accepts it).
    if (t.charCodeAt(i) !== 35 || i === after) throw unsupported;
    end = t.indexOf('\n', i);
  }
  // A more indented content line next would continue a plain scalar or be an error: the
  // collection's loop refuses it. (A more indented comment line ends a plain scalar, in js-yaml
  // too: its `#` follows a space or a line break.)
  pos = end + 1;
  return value;
}

/**
 * A block mapping key at `p`: its string (js-yaml resolves plain keys like values, then
 * stringifies them), with `after` set past the `:`; `undefined` when the line is not `key:`
 * followed by a space or its end.
 */
function readKey(p: number): string | undefined {
  const t = s;
  const c = t.charCodeAt(p);
  if (c === 34 || c === 39) {
    let key: string;
    try {
      key = quoted(p);
    } catch (error) {
      // Not closed on its line: no key, maybe a multi-line value (`- "…`), which inlineValue reads.
      if (error === unsupported) return undefined;
      throw error;
    }
    if (after - p > maxKeyLength) throw unsupported;
    let i = after;
    while (t.charCodeAt(i) === 32) i++;
    if (t.charCodeAt(i) !== 58) return undefined;
    const f = t.charCodeAt(i + 1);
    if (f !== 32 && f !== 10) throw unsupported;
    after = i + 1;
    return key;
  }
  if (alnum[t.charCodeAt(p)] !== 1 && !plainStart(p, false)) throw unsupported;
  let colon = p;
  let hash = 0;
  for (;;) {
    const ch = t.charCodeAt(colon);
    if (ch === 10) return undefined;
    // A comment before any `: `: the line is a plain scalar.
    if (ch === 35 && t.charCodeAt(colon - 1) === 32) return undefined;
    if (ch === 58) {
      const f = t.charCodeAt(colon + 1);
      if (f === 32 || f === 10) break;
    }
    hash = (Math.imul(hash, 31) + ch) | 0;
    colon++;
  }
  if (colon - p > maxKeyLength) throw unsupported;
  after = colon + 1;
  if (cache === undefined || t.charCodeAt(colon - 1) === 32) {
    let e = colon;
    while (t.charCodeAt(e - 1) === 32) e--;
    return String(resolvePlain(t.slice(p, e)));
  }
  const { keys } = cache;
  const slot = hash & (keySlots - 1);
  const known = keys[slot];
  if (known !== undefined && known.length === colon - p && t.startsWith(known, p)) return known;
  const raw = t.slice(p, colon);
  const key = String(resolvePlain(raw));
  if (key === raw) keys[slot] = key;
  return key;
}

/**
 * Letters and digits by character code: where plainStart has nothing to check, its callers skip
 * the call (most keys and values start with one).
 */
const alnum = new Uint8Array(128);
for (let c = 0; c < 128; c++) alnum[c] = /[0-9A-Za-z]/.test(String.fromCharCode(c)) ? 1 : 0;

/** Where js-yaml can start a plain scalar (in a flow collection, or in block context). */
function plainStart(p: number, inFlow: boolean): boolean {
  const c = s.charCodeAt(p);
  switch (c) {
    case 10:
    case 32:
    case 33: // !
    case 34: // "
    case 35: // #
    case 37: // %
    case 38: // &
    case 39: // '
    case 42: // *
    case 44: // ,
    case 62: // >
    case 64: // @
    case 91: // [
    case 93: // ]
    case 96: // `
    case 123: // {
    case 124: // |
    case 125: // }
      return false;
    case 45: // -
    case 58: // :
    case 63: {
      // ?
      const f = s.charCodeAt(p + 1);
      return !(f === 32 || f === 10 || (inFlow && isFlowIndicator(f)));
    }
    default:
      return true;
  }
}

/** `,`, `[`, `]`, `{` and `}` by character code: one load per character of a flow scalar. */
const flowIndicators = new Uint8Array(126);
for (const c of ',[]{}') flowIndicators[c.charCodeAt(0)] = 1;
function isFlowIndicator(c: number): boolean {
  return flowIndicators[c] === 1;
}

/**
 * Where a one-line plain scalar in block context at `p` ends, before its line's end, a comment or
 * spaces; its text's hash in `plainHash`, its line's end in `plainEnd`.
 */
function plainInBlock(p: number): number {
  const t = s;
  if (alnum[t.charCodeAt(p)] !== 1 && !plainStart(p, false)) throw unsupported;
  let e = p;
  let hash = 0;
  for (let i = p; ; i++) {
    const ch = t.charCodeAt(i);
    if (ch === 10) {
      plainEnd = i;
      break;
    }
    hash = (Math.imul(hash, 31) + ch) | 0;
    if (ch === 32) continue;
    if (ch === 35 && t.charCodeAt(i - 1) === 32) {
      plainEnd = t.indexOf('\n', i);
      break;
    }
    // `: ` would end the scalar and make the rest of the line an error.
    if (ch === 58) {
      const f = t.charCodeAt(i + 1);
      if (f === 32 || f === 10) throw unsupported;
    }
    e = i + 1;
    plainHash = hash;
  }
  return e;
}

/** The hash (as readKey's) of the text of the plain scalar plainInBlock or plainInFlow read last. */
let plainHash = 0;

/** The end of the line of the plain scalar plainInBlock read last. */
let plainEnd = 0;

/** The value of the plain scalar `s.slice(p, e)` plainInBlock or plainInFlow just read. */
function plainValue(p: number, e: number): Json {
  if (cache === undefined) return resolvePlain(s.slice(p, e));
  const { plain, plainCopies } = cache;
  const slot = plainHash & (valueSlots - 1);
  const known = plain[slot];
  if (cached(known, plainCopies, slot, p, e - p)) return known as string;
  const raw = s.slice(p, e);
  const value = resolvePlain(raw);
  if (value === raw) keep(plain, plainCopies, slot, raw, p);
  return value;
}

/**
 * A quoted scalar at `p`; `after` is set past its closing quote. With `col` (the column of the
 * block collection it is a value in), it may go on over lines indented past `col` (YAML 1.2 §7.3:
 * a line break and the white space around it fold to a space, n breaks to n−1 newlines); else
 * (keys, flow collections) it must close on its line. Without `build`, only read: ''.
 */
function quoted(p: number, build = true, col = -1): string {
  const t = s;
  const double = t.charCodeAt(p) === 34;
  let value = '';
  let from = p + 1; // the start of the text not yet added to value
  let i = p + 1;
  // Of the text from `p + 1` while nothing was escaped or folded (`from` is still there).
  let hash = 0;
  for (;;) {
    const c = t.charCodeAt(i);
    // A line break: the item's text ends with one, so every scan here meets one before its end.
    if (c === 10) {
      if (col < 0) throw unsupported;
      // White space before a line break is not content (escaped white space was added).
      let e = i;
      while (e > from && t.charCodeAt(e - 1) === 32) e--;
      if (build) value += t.slice(from, e);
      let breaks = 1;
      i = continuation(i + 1, col);
      while (t.charCodeAt(i) === 10) {
        breaks++;
        i = continuation(i + 1, col);
      }
      if (build) value += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
      from = i;
      continue;
    }
    if (double) {
      if (c === 34) break;
      if (c === 92) {
        if (build) value += t.slice(from, i);
        i = escapeSequence(i, col, build);
        if (build) value += escaped;
        from = i;
        continue;
      }
    } else if (c === 39) {
      if (t.charCodeAt(i + 1) !== 39) break;
      if (build) value += t.slice(from, i + 1);
      i += 2;
      from = i;
      continue;
    }
    hash = (Math.imul(hash, 31) + c) | 0;
    i++;
  }
  after = i + 1;
  if (!build) return '';
  if (from !== p + 1 || cache === undefined) return value + t.slice(from, i);
  // Nothing escaped or folded: the value is the text between the quotes.
  const { quoted, quotedCopies } = cache;
  const slot = hash & (valueSlots - 1);
  const known = quoted[slot];
  if (cached(known, quotedCopies, slot, from, i - from)) return known as string;
  const text = t.slice(from, i);
  keep(quoted, quotedCopies, slot, text, from);
  return text;
}

/**
 * The first character after the indentation of the line starting at `p`, inside a quoted scalar
 * in a collection at column `col`: its line break for an empty line, else content, which must be
 * indented past `col` (js-yaml only warns; YAML refuses). The scalar must close in the item.
 */
function continuation(p: number, col: number): number {
  const t = s;
  let i = p;
  while (i < limit && t.charCodeAt(i) === 32) i++;
  if (i >= limit) throw unsupported;
  if (t.charCodeAt(i) !== 10 && i - p <= col) throw unsupported;
  return i;
}

/** What the escape sequence escapeSequence() read stands for. */
let escaped = '';

/** The escapes of double-quoted scalars that stand for one character, by the character after `\`. */
const simpleEscapes = new Map<number, string>(
  (
    [
      ['0', '\x00'],
      ['a', '\x07'],
      ['b', '\b'],
      ['t', '\t'],
      ['n', '\n'],
      ['v', '\v'],
      ['f', '\f'],
      ['r', '\r'],
      ['e', '\x1B'],
      [' ', ' '],
      ['"', '"'],
      ['/', '/'],
      ['\\', '\\'],
      ['N', '\x85'],
      ['_', '\xA0'],
      ['L', '\u2028'],
      ['P', '\u2029'],
    ] as const
  ).map(([c, value]) => [c.charCodeAt(0), value]),
);

/**
 * The escape sequence at `i` (a `\`) in a double-quoted scalar: its value in `escaped`; returns
 * where the scalar goes on.
 */
function escapeSequence(i: number, col: number, build: boolean): number {
  const t = s;
  const c = t.charCodeAt(i + 1);
  if (c === 10) {
    // An escaped line break: neither it nor the next line's indentation is content. Empty lines
    // after it are line feeds to YAML and dropped by js-yaml: beyond this reader.
    if (col < 0) throw unsupported;
    const next = continuation(i + 2, col);
    if (t.charCodeAt(next) === 10) throw unsupported;
    escaped = '';
    return next;
  }
  const simple = simpleEscapes.get(c);
  if (simple !== undefined) {
    escaped = simple;
    return i + 2;
  }
  const digits = c === 120 ? 2 : c === 117 ? 4 : c === 85 ? 8 : 0;
  // A digit short before the line's end meets its line break, no hex digit.
  if (digits === 0) throw unsupported;
  let code = 0;
  for (let k = i + 2; k < i + 2 + digits; k++) {
    const h = t.charCodeAt(k);
    const d = h >= 48 && h <= 57 ? h - 48 : (h | 32) >= 97 && (h | 32) <= 102 ? (h | 32) - 87 : -1;
    if (d < 0) throw unsupported;
    code = code * 16 + d;
  }
  // A lone surrogate or no code point at all: the readers differ, or refuse.
  if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) throw unsupported;
  escaped = build ? String.fromCodePoint(code) : '';
  return i + 2 + digits;
}

/** A flow mapping or sequence at `p` closed on its own line; `after` is set past its bracket. */
function flowCollection(p: number, w: Want): Json {
  const t = s;
  enter();
  const isMapping = t.charCodeAt(p) === 123;
  const close = isMapping ? 125 : 93;
  const base = top;
  const seen = isMapping ? seenKeys() : undefined;
  // The trie's node for the keys built so far (popMapping).
  let shape = w === null || !isMapping ? undefined : shapes.root;
  p = skipSpaces(p + 1);
  while (t.charCodeAt(p) !== close) {
    if (isMapping) {
      const key = flowKey(p);
      p = skipSpaces(after);
      if (t.charCodeAt(p) !== 58) throw unsupported; // a key without a value
      if (key === '__proto__') throw unsupported;
      addKey(seen as SeenKeys, key);
      const child: Want = w === true || w === null ? w : (w.get(key) ?? null);
      const value = flowNode(skipSpaces(p + 1), child);
      if (child !== null) {
        pushEntry(key, value);
        if (shape !== undefined) shape = shape.key === key ? shape.after : shapeAfter(shape, key);
      }
    } else {
      const value = flowNode(p, w);
      if (w !== null) pushElement(value);
    }
    p = skipSpaces(after);
    const c = t.charCodeAt(p);
    if (c === 44) p = skipSpaces(p + 1);
    else if (c !== close) throw unsupported; // `key: value` in a sequence, a comment, a line end
  }
  after = p + 1;
  depth--;
  return w === null ? null : isMapping ? popMapping(base, shape) : popList(base);
}

function skipSpaces(p: number): number {
  const t = s;
  while (t.charCodeAt(p) === 32) p++;
  return p;
}

function flowKey(p: number): string {
  const c = s.charCodeAt(p);
  const key = c === 34 || c === 39 ? quoted(p) : String(plainValue(p, plainInFlow(p)));
  if (after - p > maxKeyLength) throw unsupported;
  return key;
}

function flowNode(p: number, w: Want): Json {
  const c = s.charCodeAt(p);
  if (c === 91 || c === 123) return flowCollection(p, w);
  if (c === 34 || c === 39) return quoted(p, w !== null);
  const e = plainInFlow(p);
  if (w !== null) return plainValue(p, e);
  refuseMerge(p, e);
  return null;
}

/**
 * Where a plain scalar in a flow collection at `p` ends (also set in `after`): at a flow
 * indicator or `: `, on one line. Its text's hash in `plainHash`.
 */
function plainInFlow(p: number): number {
  const t = s;
  if (alnum[t.charCodeAt(p)] !== 1 && !plainStart(p, true)) throw unsupported;
  let e = p;
  let hash = 0;
  for (let i = p; ; i++) {
    const ch = t.charCodeAt(i);
    hash = (Math.imul(hash, 31) + ch) | 0;
    if (ch === 10) throw unsupported;
    if (flowIndicators[ch] === 1) break;
    if (ch === 58) {
      const f = t.charCodeAt(i + 1);
      if (f === 32 || f === 10 || isFlowIndicator(f)) break;
    }
    if (ch === 35 && t.charCodeAt(i - 1) === 32) throw unsupported;
    if (ch !== 32) {
      e = i + 1;
      plainHash = hash;
    }
  }
  after = e;
  return e;
}

/**
 * A literal (`|`) or folded (`>`) block scalar, ported from js-yaml's readBlockScalar. Without
 * `build`, only read: ''.
 */
function blockScalar(p: number, end: number, col: number, build: boolean): string {
  const t = s;
  const folding = t.charCodeAt(p) === 62;
  let chomping: 'clip' | 'strip' | 'keep' = 'clip';
  let textIndent = col + 1;
  let detected = false;
  for (p++; ; p++) {
    const ch = t.charCodeAt(p);
    if (ch === 43 || ch === 45) {
      if (chomping !== 'clip') throw unsupported;
      chomping = ch === 43 ? 'keep' : 'strip';
    } else if (ch >= 49 && ch <= 57 && !detected) {
      textIndent = col + ch - 48;
      detected = true;
    } else {
      break;
    }
  }
  if (t.charCodeAt(p) === 32) {
    p = skipSpaces(p);
    if (t.charCodeAt(p) === 35) p = end;
  }
  if (p !== end) throw unsupported;

  let result = '';
  let emptyLines = 0;
  let didReadContent = false;
  let atMoreIndented = false;
  let lineStart = end + 1;
  /** Most spaces on an empty line before the first content line (YAML caps them, js-yaml not). */
  let leading = 0;
  for (;;) {
    let i = lineStart;
    let lineIndent = 0;
    // At the item's end, js-yaml sees the end of its text: indentation 0, no line break.
    while ((!detected || lineIndent < textIndent) && i < limit && t.charCodeAt(i) === 32) {
      lineIndent++;
      i++;
    }
    if (!detected && lineIndent > textIndent) textIndent = lineIndent;
    const ch = i < limit ? t.charCodeAt(i) : -1;
    if (ch === 10) {
      if (!didReadContent && lineIndent > leading) leading = lineIndent;
      emptyLines++;
      lineStart = i + 1;
      continue;
    }
    // Leading empty lines with more spaces than the first non-empty line are an error.
    if (!didReadContent && leading > 0 && ch !== -1 && lineIndent < leading) throw unsupported;
    // The end of the scalar (the end of the text too: its indentation is 0).
    if (lineIndent < textIndent) {
      if (!build) {
        pos = lineStart;
        return '';
      }
      if (chomping === 'keep') {
        result += '\n'.repeat(didReadContent ? 1 + emptyLines : emptyLines);
      } else if (chomping === 'clip' && didReadContent) {
        result += '\n';
      }
      pos = lineStart;
      return result;
    }
    if (!build) {
      // The same line walk, without the text: nothing below throws.
    } else if (!folding) {
      result += '\n'.repeat(didReadContent ? 1 + emptyLines : emptyLines);
    } else if (ch === 32) {
      // More-indented lines are not folded.
      atMoreIndented = true;
      result += '\n'.repeat(didReadContent ? 1 + emptyLines : emptyLines);
    } else if (atMoreIndented) {
      atMoreIndented = false;
      result += '\n'.repeat(emptyLines + 1);
    } else if (emptyLines === 0) {
      if (didReadContent) result += ' ';
    } else {
      result += '\n'.repeat(emptyLines);
    }
    didReadContent = true;
    detected = true;
    emptyLines = 0;
    const lineEnd = t.indexOf('\n', i);
    if (build) result += t.slice(i, lineEnd);
    lineStart = lineEnd + 1;
  }
}

/**
 * What resolvePlain refuses of the plain scalar `s.slice(p, e)`, checked without reading its
 * value: a merge key, the only implicit type that resolves `<<`.
 */
function refuseMerge(p: number, e: number): void {
  if (e - p === 2 && s.charCodeAt(p) === 60 && s.charCodeAt(p + 1) === 60) throw unsupported;
}

/** A plain scalar's value: the first implicit type that resolves it, else the string. */
function resolvePlain(raw: string): Json {
  if (!mayResolve[raw.charCodeAt(0)]) return raw;
  for (const type of implicitTypes) {
    if (type.resolve(raw)) {
      if (type === merge) throw unsupported;
      return type.construct(raw) as Json;
    }
  }
  return raw;
}

/**
 * First characters of the plain scalars js-yaml 4's implicit types resolve: null (`~`, `null`),
 * bool (`true`, `false`, capitalised or upper case), int and float (a sign, a digit or `.`),
 * merge (`<<`). Every other plain scalar is a string; test/quick-parse.test.ts checks the table
 * against the resolvers.
 */
const mayResolve: boolean[] = [];
for (const c of '~nNtTfF+-.0123456789<') mayResolve[c.charCodeAt(0)] = true;
