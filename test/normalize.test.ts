// normalize (rules/sources/normalize.ts) copies a spec with its keys in canonical order, so that
// its content is written for a checksum without a sorted copy of each mapping (model/hash.ts,
// KeyOrder): main copied them in input order, and every ExternalSecret content went through
// the replacer.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSize } from '../src/model/hash.js';
import type { Json } from '../src/model/json.js';
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

  // A field deleted from a mapping turns it into a hash table in V8 (slower to list, size and
  // write for every checksum): main copied the spec, then deleted what the rules leave out, which
  // did so to a third of the dense bench's contents (this fails there). The rules now leave
  // fields out of the copy as it is made.
  it('applies the rules while copying: no mapping of the copy had a field deleted', () => {
    setFlagsFromString('--allow-natives-syntax');
    const fast = new Function('o', 'return %HasFastProperties(o)') as (o: unknown) => boolean;
    const copy = normalize(spec, [
      { path: '', drop: ['refreshInterval'] },
      { path: 'target', drop: ['creationPolicy'] },
      { path: 'secretStoreRef', defaults: { kind: 'ClusterSecretStore' } },
    ]) as Record<string, Json>;
    expect(canonicalJson(copy)).toBe(
      '{"data":[{"remoteRef":{"key":"k","property":"p"},"secretKey":"password"}],"secretStoreRef":{"name":"vault"},"target":{"name":"app"}}',
    );
    expect([copy, copy.target, copy.secretStoreRef].map(fast)).toEqual([true, true, true]);
  });

  it('prunes what the rules empty, and reads nothing below a field a rule leaves out', () => {
    const value: Json = {
      a: { b: 'x', keep: 1 },
      list: [{ kind: 'D' }, { kind: 'D', name: 'n' }, null, {}],
      gone: { inner: { kind: 'D' } },
    };
    const copy = normalize(value, [
      { path: 'a', drop: ['b', 'keep'] },
      { path: 'list[]', defaults: { kind: 'D' } },
      { path: '', drop: ['gone'] },
      { path: 'gone.inner', defaults: { kind: 'E' } },
    ]);
    expect(copy).toEqual({ list: [null, { name: 'n' }, null, null] });
  });
});
