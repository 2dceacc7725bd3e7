// One item with a tag outside the core schema (`!custom`) and as many anchored lists, each aliased
// once, as the size allows (the `yaml` library resolves each alias by walking those before it).
// At 3fcc96f js-yaml refused the tag, so the item went to the conforming reader's value, which
// read the whole item a second time (≈1 s and ≈100 bytes of memory per byte) and refused it only
// then; js-yaml now reads such tags as if absent, and the item is refused by the run's budget of
// alias-expanded nodes, or read; from ≈1 MB (500,000 YAML tokens) it is refused before the
// conforming reader reads it all (src/krm/yaml/parse.ts maxTokens).
import { fill } from './_fill.mjs';

const head =
  'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: tags\nspec:\n  t: !custom x\n  l:\n';

export function generate(bytes) {
  return fill(bytes, head, (i) => `  - &a${i} [${i}, !custom ${i}]\n  - *a${i}\n`);
}
