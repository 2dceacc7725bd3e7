// The block-nesting guard (src/krm/read.ts deepBlock) on comment lines full of `- `: a
// ResourceList of ConfigMaps, each with a comment line of 999 `- ` (one under the bound). From
// every `-` the guard matches on to the end of the run before failing: O(length × depth).
import { fill, listHead } from './_fill.mjs';

const dashes = '- '.repeat(999);

export function generate(bytes) {
  return fill(
    bytes,
    listHead,
    (i) =>
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n  # ${dashes}\n  data:\n    k: v\n`,
  );
}
