// One checksum per pod template over every secret source it consumes, independent of item order.

import { canonicalJson, sha256Hex } from '../model/hash.js';
import type { Json } from '../model/resource.js';
import type { SecretSource } from './sources/source.js';
import type { KeySet } from './workloads/references.js';

export interface Consumption {
  source: SecretSource;
  keys: KeySet;
}

/**
 * sha256 of the canonical JSON list of `{"secret": <Secret name>, "content": <source content>}`,
 * one entry per consumed source, sorted by their canonical JSON.
 */
export function templateChecksum(consumed: readonly Consumption[]): string {
  const entries = consumed
    .map(({ source, keys }) => {
      // Keys in canonical order: "content" < "secret".
      const content = canonicalOf(source.content(keys));
      return `{"content":${content},"secret":${JSON.stringify(source.secretName)}}`;
    })
    .sort();
  return sha256Hex(`[${entries.join(',')}]`);
}

/** Sources return the same object for all their consumers that read every key: serialise once. */
const canonicalCache = new WeakMap<object, string>();
function canonicalOf(content: Json): string {
  if (typeof content !== 'object' || content === null) return canonicalJson(content);
  let text = canonicalCache.get(content);
  if (text === undefined) {
    text = canonicalJson(content);
    canonicalCache.set(content, text);
  }
  return text;
}

export function unionKeys(a: KeySet, b: KeySet): KeySet {
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}
