// What reading one ExternalSecret's store references costs, counted (never timed): each entry's
// store is found among those already read by kind and name, not by a search of the list.
import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { readExternalSecretSpec } from '../../src/rules/sources/external-secret.js';

describe('an ExternalSecret whose entries name many stores', () => {
  it('compares no entry with every store read before it', () => {
    // s16-review: entries each naming another store made the search per entry entries × stores
    // (2 MB, 3.6 s); its callback ran n(n-1)/2 times.
    const n = 400;
    const data = Array.from({ length: n }, (_, i) => ({
      secretKey: `k${i}`,
      remoteRef: { key: `x${i}` },
      sourceRef: { storeRef: { name: `store-${i}`, kind: 'ClusterSecretStore' } },
    }));
    const some = vi.spyOn(Array.prototype, 'some');
    let stores: readonly { kind: string; name: string }[];
    try {
      stores = readExternalSecretSpec(
        { secretStoreRef: { name: 'store-0', kind: 'ClusterSecretStore' }, data } as JsonObject,
        'spec',
      ).stores;
      expect(some).not.toHaveBeenCalled();
    } finally {
      some.mockRestore();
    }
    // Each store once, in the order first named.
    expect(stores.map((s) => s.name)).toEqual(data.map((_, i) => `store-${i}`));
  });
});
