// One item that is a single wide mapping (`k0: v0`, … for the whole size) holding one anchor,
// aliased once, and one tag outside the core schema. The quick reader declines the anchor; at
// 3fcc96f js-yaml refused the tag, and the conforming reader's value of the whole item cost ≈1 s
// and ≈100 bytes of memory per byte (8 s, 813 MiB at 8 MB).
// From ≈1 MB (500,000 YAML tokens, 0.47 per byte here) the conforming reader refuses the item
// (src/krm/yaml/parse.ts maxTokens) instead of reading it: 2.5 s and 232 MiB at 2 MB before.
import { fill } from './_fill.mjs';

const head =
  'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: wide\nspec:\n  t: !custom x\n  a: &a {x: 1}\n  b: *a\n';

export function generate(bytes) {
  return fill(bytes, head, (i) => `  k${i}: v${i}\n`);
}
