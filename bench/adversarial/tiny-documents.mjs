// Many tiny documents: a YAML stream of the smallest valid items, each a flow mapping on its `---`
// line (≈ 60 bytes, so 17,000 documents per MB). Every per-document cost is multiplied by the
// document count, and as no line starts a top-level `key:`, so is every scan that a document
// restarts.
import { fill } from './_fill.mjs';

export function generate(bytes) {
  return fill(bytes, '', (i) => `--- {apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}}\n`);
}
