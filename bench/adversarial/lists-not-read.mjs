// Many small Lists the function does not read (flow `items: [...]`), one a document: each gets a
// `list-not-read` warning (docs/format.md, Lists). A per-List result, or a search for a List's
// `items:` that runs to the end of the text, is multiplied by the List count.
import { fill } from './_fill.mjs';

export function generate(bytes) {
  return fill(
    bytes,
    '',
    (i) =>
      `---\napiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}}]\n`,
  );
}
