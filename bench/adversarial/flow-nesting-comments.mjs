// The nesting guard on comment lines full of `[`: a ResourceList of ConfigMaps, each with a
// comment line of 999 `[`. The old guard (a regular expression over the whole text, 3fcc96f)
// matched on from every `[` to the end of the run before failing: O(length × depth). The guard
// now (src/krm/yaml/nesting.ts) skips comments in one pass; the input is valid.
import { commentedConfigMaps } from './_fill.mjs';

export function generate(bytes) {
  return commentedConfigMaps(bytes, '['.repeat(999));
}
