// The checksum is SHA-256 over canonical JSON: object keys sorted by UTF-16 code units (what
// `jq -cS` and RFC 8785 do for our data: strings, integers, booleans), no insignificant
// whitespace. Chosen over object-hash, whose encoding is its own and changed across majors, so a
// user could not recompute a value with standard tools.

import type { Hash } from 'node:crypto';
import { isObject, type Json } from './json.js';
import loadCrypto from './load-crypto.cjs';

export function canonicalJson(value: Json, keysSorted = false): string {
  // Every object's keys already in order (canonicalSize saw them, `KeyOrder`): the replacer would
  // hand each object back as it is, and without one JSON.stringify takes V8's fast path (a
  // replacer is a call per key and value, ≈half of writing a source's content).
  if (keysSorted) return JSON.stringify(value);
  // JSON.stringify writes one flat string natively (a string built by `+` is a tree of pieces,
  // which stays as large as it was built while a cache or a plan holds it); the replacer hands
  // it a sorted copy of each object whose keys are out of order.
  try {
    return JSON.stringify(value, sortedKeys);
  } catch (error) {
    if (error !== unorderable) throw error;
    return byHand(value);
  }
}

/** Thrown by sortedKeys for an object JSON.stringify cannot write with its keys sorted. */
const unorderable = new Error('keys JSON.stringify cannot write in sorted order');

function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (inOrder(keys)) return value;
  sortValues(keys);
  // No prototype: a "__proto__" key is then an own property like any other.
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of keys) copy[key] = (value as Record<string, unknown>)[key];
  // Array-index keys ("2", "10") come first in every object, in numeric order, not as text.
  if (!inOrder(Object.keys(copy))) throw unorderable;
  return copy;
}

/**
 * Sorts `array` in place as `Array.prototype.sort` does (stable), by binary insertion when it is
 * short: V8's sort allocates a work array and its state per call, which on the few keys of an
 * object or the entries of a checksum is most of the cost (≈8×, per object of every hashed
 * content). About the comparisons V8 makes at these lengths (it sorts them by binary insertion
 * too); the moves are pointer copies.
 */
export function sortShort<T>(array: T[], compare: (a: T, b: T) => number): T[] {
  if (array.length > shortArray) return array.sort(compare);
  for (let i = 1; i < array.length; i++) {
    const item = array[i] as T;
    // After every item that is not greater: equal items keep their order.
    let low = 0;
    let high = i;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(array[mid] as T, item) > 0) high = mid;
      else low = mid + 1;
    }
    for (let j = i; j > low; j--) array[j] = array[j - 1] as T;
    array[low] = item;
  }
  return array;
}

/** Up to this length a sort costs fewer pointer moves than V8's sort allocates. */
const shortArray = 64;

/** UTF-16 code unit order, `Array.prototype.sort`'s default for strings; numeric for numbers. */
export const textOrder = <T extends string | number>(a: T, b: T): number =>
  a < b ? -1 : a > b ? 1 : 0;

/**
 * Sorts texts in place in UTF-16 code unit order (`textOrder`), or numbers in numeric order (the
 * first `count` of them), by insertion when short: an object's keys, a few each, or a checksum's pair numbers (twenty on
 * fan-in). Compared inline, not through a comparator: sortShort is called with several, and a
 * call per comparison was most of normalize's time once it sorted its copies.
 */
export function sortValues<T extends string | number>(values: T[], count = values.length): T[] {
  if (count > shortArray) {
    if (count === values.length) return values.sort(textOrder);
    // The first `count` of a longer list (a caller's list written over): a copy of them sorted.
    const sorted = values.slice(0, count).sort(textOrder);
    for (let i = 0; i < count; i++) values[i] = sorted[i] as T;
    return values;
  }
  for (let i = 1; i < count; i++) {
    const value = values[i] as T;
    // In place after the last: one comparison (an object's keys, nearly in order).
    if (!((values[i - 1] as T) > value)) continue;
    // Else found by halving, after every value that is not greater (equal ones keep their
    // order): about log2(i) comparisons, not i/2. A checksum's entries share long prefixes,
    // so each comparison reads far into both texts: on fan-in's lists of twenty (in random
    // order) 66 comparisons a list, where scanning back made 101.
    let low = 0;
    let high = i - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((values[mid] as T) > value) high = mid;
      else low = mid + 1;
    }
    for (let j = i; j > low; j--) values[j] = values[j - 1] as T;
    values[low] = value;
  }
  return values;
}

function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++)
    if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

/** The same text, written key by key: for objects with array-index keys out of text order. */
function byHand(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(byHand).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${byHand(value[key] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What canonicalSize saw on its way: every object's keys in canonical order already. */
export interface KeyOrder {
  sorted: boolean;
}

/**
 * The UTF-8 length of `canonicalJson(value)`, counted without writing it; once the count passes
 * `limit`, a number above `limit` (the walk stops there). A value can expand through YAML aliases
 * to far more text than the input holds: this says what writing it would cost before it is
 * written, at a cost bounded by `limit` (each node visited adds at least one byte). With `order`,
 * also whether `canonicalJson(value, true)` may be written (the keys it lists anyway, compared).
 */
export function canonicalSize(value: Json, limit: number, order?: KeyOrder): number {
  let size = 0;
  let sorted = true;
  // The nodes to visit: one list for the run, its first `top` (a list per content was ≈0.7 MB
  // of the sampling heap profile of fan-in's checksums).
  let top = 0;
  walk[top++] = value;
  while (top > 0 && size <= limit) {
    const node = walk[--top] as Json;
    walk[top] = null;
    if (Array.isArray(node)) {
      // Brackets and commas.
      size += node.length === 0 ? 2 : node.length + 1;
      for (let i = 0; i < node.length; i++) walk[top++] = node[i] as Json;
    } else if (isObject(node)) {
      // for…in reads the keys where Object.keys copied them into a list per object (≈1.5 MB of
      // the same profile). In the same order: a content has no inherited enumerable keys.
      let keys = 0;
      let previous: string | undefined;
      for (const key in node) {
        if (previous !== undefined && previous > key) sorted = false;
        previous = key;
        keys++;
        size += stringSize(key);
        walk[top++] = node[key] as Json;
      }
      // Braces, commas and colons.
      size += keys === 0 ? 2 : 2 * keys + 1;
    } else {
      size += typeof node === 'string' ? stringSize(node) : (JSON.stringify(node) as string).length;
    }
  }
  // Stopped at the limit: some objects were not seen.
  if (order) order.sorted = sorted && top === 0;
  // Nothing of the value kept past the call.
  walk.fill(null, 0, top);
  return size;
}

const walk: Json[] = [];

/** Printable ASCII but the quote and the backslash: written as it is, between two quotes. */
const plain = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const stringSize = (text: string): number =>
  plain.test(text) ? text.length + 2 : Buffer.byteLength(JSON.stringify(text));

/** SHA-256 of `data` (a string as UTF-8), in hex. */
export function sha256Hex(data: string | Buffer): string {
  const { createHash, hash } = loadCrypto();
  // crypto.hash (Node 20.12+) is the same digest without a Hash object: half the time.
  return typeof hash === 'function'
    ? hash('sha256', data, 'hex')
    : createHash('sha256').update(data).digest('hex');
}

/**
 * Where the pieces of a list are written as UTF-8 before they are hashed: one buffer for the run,
 * reused. A call into the digest per piece, four an entry, cost more than hashing the list (94 of
 * the 281 ms of the checksums on the fan-in bench); joining the pieces instead wrote 54 MB of
 * strings there, each dropped at once (≈50 more scavenges).
 */
let chunk: Buffer | undefined;
const chunkBytes = 64 * 1024;

/**
 * sha256Hex of the pieces' concatenation, which is never written out (a piece can be megabytes):
 * the first `count` pieces (a caller may write over one list for many hashes).
 */
export function sha256HexOfPieces(pieces: readonly string[], count = pieces.length): string {
  const { createHash } = loadCrypto();
  chunk ??= Buffer.allocUnsafe(chunkBytes);
  // Made only when the list does not fit the buffer.
  let hash: Hash | undefined;
  let used = 0;
  for (let i = 0; i < count; i++) {
    const piece = pieces[i] as string;
    // A UTF-16 code unit is at most three bytes of UTF-8: the piece fits in what is left.
    if (used + 3 * piece.length > chunkBytes) {
      hash ??= createHash('sha256');
      if (used > 0) hash.update(chunk.subarray(0, used));
      used = 0;
      // Larger than the buffer: hashed as it is, not copied.
      if (3 * piece.length > chunkBytes) {
        hash.update(piece, 'utf8');
        continue;
      }
    }
    // A bracket or comma between entries: its byte stored, not a call to the encoder (a call
    // per piece was most of the time of hashing: 600k on the fan-in bench at four an entry).
    if (piece.length === 1 && piece.charCodeAt(0) < 0x80) chunk[used++] = piece.charCodeAt(0);
    else used += chunk.write(piece, used);
  }
  const rest = chunk.subarray(0, used);
  return hash === undefined ? sha256Hex(rest) : hash.update(rest).digest('hex');
}

/**
 * HMAC-SHA-256 of `value` under `key`, in hex: a Secret value's digest under the
 * `secretChecksumKey` option. Here, beside the other digests: the rules then reach node:crypto's
 * loader through this module, never import it themselves (build.mjs refuses a module that is not
 * TypeScript imported from both files of dist/: each would get a copy, with its own state).
 */
export function hmacSha256Hex(key: string, value: Buffer): string {
  return loadCrypto().createHmac('sha256', key).update(value).digest('hex');
}
