// The block-nesting guard (src/krm/read.ts deepBlock) on comment lines full of `- `: a
// ResourceList of ConfigMaps, each with a comment line of 999 `- ` (one under the bound). From
// every `-` the guard matches on to the end of the run before failing: O(length × depth).
import { commentedConfigMaps } from './_fill.mjs';

export function generate(bytes) {
  return commentedConfigMaps(bytes, '- '.repeat(999));
}
