// What narrowing a source's content to the keys a reader reads costs, counted (never timed): the
// entries (or keys) of the source are indexed once, then each read looks its own keys up; a pass
// over all of them per read cost readers × keys (many Deployments each reading another key of one
// ExternalSecret, ConfigMap or Secret).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { listContent, pickKeys, pickList } from '../../src/rules/sources/fields.js';

const size = 1_000;
const reads = 100;
const keys = Array.from({ length: size }, (_, i) => `k${i}`);
/** The key sets of `reads` readers, each reading one key of its own. */
const readSets = Array.from({ length: reads }, (_, i) => new Set([`k${i * 7}`]));

/** `target`, counting the reads of its elements (by index) or its own keys in `counted`. */
function counting<T extends object>(target: T, counted: { gets: number; listings: number }): T {
  return new Proxy(target, {
    get(t, property, receiver) {
      if (typeof property === 'string' && /^\d+$/.test(property)) counted.gets++;
      return Reflect.get(t, property, receiver);
    },
    ownKeys(t) {
      counted.listings++;
      return Reflect.ownKeys(t);
    },
  });
}

describe('content narrowed to the keys read', () => {
  it('reads each entry of a list once, then only the entries a reader reads', () => {
    const counted = { gets: 0, listings: 0 };
    const entries = counting(
      keys.map((secretKey) => ({ secretKey, remoteRef: { key: 'x' } })),
      counted,
    );
    const content = listContent({ data: entries } as JsonObject, 'data', 'secretKey', true);
    for (const read of readSets) {
      const narrowed = content(read) as { data: { secretKey: string }[] };
      expect(narrowed.data.map((e) => e.secretKey)).toEqual([...read]);
    }
    // main: every entry twice per read (200,000).
    expect(counted.gets).toBeLessThanOrEqual(2 * size + 2 * reads);
  });

  it('makes no Map for a short list read by keys it has not, or whole', () => {
    // The fan-in bench's ExternalSecrets: one entry each, most readers read other keys. Failed on
    // main (2 Maps per source, made as it was read: 0.8 MB kept of 2,000 at 10k).
    const made = { maps: 0 };
    const Plain = globalThis.Map;
    globalThis.Map = class<K, V> extends Plain<K, V> {
      constructor(entries?: Iterable<readonly [K, V]> | null) {
        super(entries);
        made.maps++;
      }
    } as MapConstructor;
    try {
      const entry = { secretKey: 'password', remoteRef: { key: 'x' } };
      const normalized = { data: [entry] } as JsonObject;
      const content = listContent(normalized, 'data', 'secretKey', true);
      expect(content(new Set(['api-key']))).toBe(normalized);
      expect(content(new Set(['password', 'DATABASE_URL']))).toBe(normalized);
      expect(content('all')).toBe(normalized);
      expect(made.maps).toBe(0);
      // Narrowed: the last narrowing kept, found again for the same keys, and no Map (session 16:
      // s16-fanin keeps the last narrowing only; a Map of every narrowing made one per source).
      const narrowed = content(new Set(['password']));
      expect(narrowed).toEqual({ data: [entry] });
      expect(content(new Set(['password']))).toBe(narrowed);
      expect(made.maps).toBe(0);
    } finally {
      globalThis.Map = Plain;
    }
  });

  it("lists a mapping's keys once, not once per read", () => {
    const counted = { gets: 0, listings: 0 };
    const map = counting(Object.fromEntries(keys.map((k) => [k, 'v'])), counted);
    for (const read of readSets) expect(Object.keys(pickKeys(map, read))).toEqual([...read]);
    // main: Object.entries per read (100).
    expect(counted.listings).toBe(1);
  });

  it('reads each key of a list once, not once per read', () => {
    const counted = { gets: 0, listings: 0 };
    const list = counting([...keys], counted);
    for (const read of readSets) expect(pickList(list, read)).toEqual([...read]);
    expect(counted.gets).toBeLessThanOrEqual(size);
  });
});
