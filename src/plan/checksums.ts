// One checksum per pod template over every secret source it consumes, independent of item order.
import type { Json } from '../resource.js';
import type { KeySet, SecretSource } from '../sources/source.js';
import { canonicalJson, sha256Hex } from './canonical.js';

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
    .map(({ source, keys }): Json => ({ secret: source.secretName, content: source.content(keys) }))
    .map(canonicalJson)
    .sort();
  return sha256Hex(`[${entries.join(',')}]`);
}

export function unionKeys(a: KeySet, b: KeySet): KeySet {
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}
