// What reading the ConfigMaps and Secrets ExternalSecrets render from costs, counted (never
// timed): each one's keys are read once per run, not once per ExternalSecret reading it.
import { describe, expect, it, vi } from 'vitest';
import { resourceList, runOk } from '../helpers.js';

const written = vi.hoisted(() => ({ characters: 0 }));
vi.mock('../../src/model/hash.js', async (original) => {
  const actual = await original<typeof import('../../src/model/hash.js')>();
  return {
    ...actual,
    // The canonical JSON written (and then hashed) in a run.
    canonicalJson: (...args: Parameters<typeof actual.canonicalJson>) => {
      const text = actual.canonicalJson(...args);
      written.characters += text.length;
      return text;
    },
  };
});

const keys = 1_000;
const readers = 50;

/** A ConfigMap or Secret `big` in namespace a with `keys` keys. */
const big = (kind: 'ConfigMap' | 'Secret') =>
  `apiVersion: v1\nkind: ${kind}\nmetadata: {name: big, namespace: a}\ndata:\n${Array.from(
    { length: keys },
    (_, k) => `  k${k}: dg==\n`,
  ).join('')}`;

/** ExternalSecret es-`i` rendering key k`i` of `big` (templateFrom). */
const reader = (kind: 'configMap' | 'secret', i: number) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: es-${i}, namespace: a}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target:
    name: s-${i}
    template:
      templateFrom:
      - ${kind}: {name: big, items: [{key: k${i}}]}
  data:
  - secretKey: k
    remoteRef: {key: x, version: "1"}
`;

/** Set.prototype.add calls in one run (a Set made from a list adds each entry through it). */
function setAdds(items: readonly string[]): number {
  const add = vi.spyOn(Set.prototype, 'add');
  try {
    runOk(resourceList(items));
    return add.mock.calls.length;
  } finally {
    add.mockRestore();
  }
}

describe('the dependencies ExternalSecrets render from', () => {
  it.each([
    ['ConfigMap', 'configMap'],
    ['Secret', 'secret'],
  ] as const)('are a %s whose keys are read once, not once per reader', (kind, field) => {
    // Each reader costs ≈85 adds (its own Sets, every stage's), each key ≈4; main made a Set of
    // the 1,000 keys for each of the 50 readers besides: ≈58,000 adds.
    const adds = setAdds([
      big(kind),
      ...Array.from({ length: readers }, (_, i) => reader(field, i)),
    ]);
    expect(adds).toBeLessThanOrEqual(100 * readers + 10 * keys);
  });

  it("hash a generator's spec once, not once per ExternalSecret reading it", () => {
    // A Password generator whose spec holds 2,000 list entries (≈16 KB of canonical JSON), read
    // by 50 ExternalSecrets: main wrote and hashed it for each (≈800 KB).
    const generator = `apiVersion: generators.external-secrets.io/v1alpha1
kind: Password
metadata: {name: big, namespace: a}
spec:
  length: 32
  extra:\n${Array.from({ length: 2_000 }, (_, k) => `  - k${k}\n`).join('')}`;
    const generated = (i: number) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: es-${i}, namespace: a}
spec:
  refreshPolicy: OnChange
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target: {name: s-${i}}
  dataFrom:
  - sourceRef:
      generatorRef: {apiVersion: generators.external-secrets.io/v1alpha1, kind: Password, name: big}
`;
    written.characters = 0;
    runOk(resourceList([generator, ...Array.from({ length: readers }, (_, i) => generated(i))]));
    const spec = JSON.stringify(Array.from({ length: 2_000 }, (_, k) => `k${k}`)).length;
    expect(written.characters).toBeLessThanOrEqual(2 * spec + 1_000 * readers);
  });
});
