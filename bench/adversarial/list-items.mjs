// One `kind: List` document holding every item: pairs of an ExternalSecret and a Job reading its
// Secret (_fill.mjs madeAndRead), re-indented as the List's `- ` entries. Each entry is read, edited
// and proven inside the List (docs/format.md, Lists): a per-entry cost that scans the List again,
// or an edit that moves every entry after it, is multiplied by the entry count.
import { fill, madeAndRead } from './_fill.mjs';

/** A document of madeAndRead as entries of a block list at column 0. */
export const asEntries = (text) =>
  text
    .split('---\n')
    .filter(Boolean)
    .map((doc) => `- ${doc.trimEnd().replaceAll('\n', '\n  ')}\n`)
    .join('');

export function generate(bytes) {
  return fill(bytes, 'apiVersion: v1\nkind: List\nitems:\n', (i) =>
    asEntries(madeAndRead(i, `s-${i}`, `s-${i}`)),
  );
}
