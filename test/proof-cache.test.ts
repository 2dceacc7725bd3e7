// The proofs' re-reads share a ScalarCache (apply-edits.ts) only where many items are edited: its
// tables (1.3 MB) cost more to make than a few re-reads gain, as the reader's (items.ts). Counted
// by constructions, never timed.
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/run.js';
import { externalSecret, resourceList } from './helpers.js';

const made = vi.hoisted(() => ({ caches: 0 }));
vi.mock('../src/krm/yaml/quick-parse.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/yaml/quick-parse.js')>();
  class CountedCache extends actual.ScalarCache {
    constructor() {
      super();
      made.caches++;
    }
  }
  return { ...actual, ScalarCache: CountedCache };
});

/** A HelmRelease reading Secret db: its checksum goes in a post-renderer entry, which is proven. */
const release = (i: number) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: r${i}
  namespace: shop
spec:
  interval: 1h
  chartRef: {kind: OCIRepository, name: app-template}
  values:
    controllers:
      main:
        containers:
          app:
            envFrom:
              - secretRef:
                  name: db
`;

const caches = (releases: number) => {
  made.caches = 0;
  const items = [externalSecret('db', { namespace: 'shop' })];
  for (let i = 0; i < releases; i++) items.push(release(i));
  const out = run(resourceList(items));
  expect(out.exitCode).toBe(0);
  expect(out.stdout.match(/postRenderers:/g)).toHaveLength(releases);
  return made.caches;
};

describe("the proofs' ScalarCache", () => {
  it('is made for many edited items, and not for a few', () => {
    // A few: neither the reader nor the proofs make one (main made the proofs' one: 1).
    expect(caches(3)).toBe(0);
    // Many: the reader's and the proofs' own.
    expect(caches(200)).toBe(2);
  });
});
