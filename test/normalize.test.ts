// normalize (rules/sources/normalize.ts) copies a spec with its keys in canonical order, so that
// its content is written for a checksum without a sorted copy of each mapping (model/hash.ts,
// KeyOrder): main copied them in input order, and every ExternalSecret content went through
// the replacer.
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSize } from '../src/model/hash.js';
import { normalize } from '../src/rules/sources/normalize.js';

describe('normalize', () => {
  const spec = {
    target: { name: 'app', creationPolicy: 'Owner' },
    secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
    data: [{ secretKey: 'password', remoteRef: { property: 'p', key: 'k' } }],
    refreshInterval: '1h',
    empty: {},
  };

  it('copies mappings with their keys in canonical order, every level', () => {
    const copy = normalize(spec, [{ path: '', drop: ['refreshInterval'] }]);
    const order = { sorted: false };
    canonicalSize(copy, Infinity, order);
    expect(order.sorted).toBe(true);
    expect(JSON.stringify(copy)).toBe(canonicalJson(copy));
    expect(JSON.stringify(copy)).toBe(
      '{"data":[{"remoteRef":{"key":"k","property":"p"},"secretKey":"password"}],"secretStoreRef":{"kind":"ClusterSecretStore","name":"vault"},"target":{"creationPolicy":"Owner","name":"app"}}',
    );
    // The input is left as it was.
    expect(Object.keys(spec)).toEqual([
      'target',
      'secretStoreRef',
      'data',
      'refreshInterval',
      'empty',
    ]);
  });

  // V8 keeps an object without prototype as a hash table: larger, and slower to list, size and
  // write. Main's copies had none (this fails there); a `__proto__` key stays an own key.
  it('copies mappings as ordinary objects, a __proto__ key as an own key', () => {
    const value = JSON.parse('{"data":{"__proto__":"x","b":{"c":1}}}');
    const copy = normalize(value, []);
    const data = (copy as { data: Record<string, unknown> }).data;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(data.b)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__', 'b']);
    expect(canonicalJson(copy)).toBe('{"data":{"__proto__":"x","b":{"c":1}}}');
  });
});
