// The fallback parser on a chain of merge keys: one Deployment whose extension field holds
// `a0: &a0 {k0: v}`, `a1: &a1 {<<: *a0, k1: v}`, … for the whole size (≈ 25,000 links per MB),
// so link i expands to i keys. The quick reader declines anchors; the full readers merge the
// chain link by link (src/krm/yaml/parse.ts), O(links²) at 3fcc96f before the alias bound is met.
import { fill } from './_fill.mjs';

const head =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nx-defaults:\n  a0: &a0 {k0: v}\n';
const tail =
  'spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        envFrom:\n        - secretRef: {name: db}\n';

export function generate(bytes) {
  return fill(bytes, head, (i) => `  a${i + 1}: &a${i + 1} {<<: *a${i}, k${i + 1}: v}\n`, tail);
}
