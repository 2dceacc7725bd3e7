// Many items, each just under the per-item alias bound: a Deployment whose extension field nests
// aliases five levels deep, ten to a list (`l0: &l0 [x × 10]`, `l1: &l1 [*l0 × 10]`, …), so ≈ 250
// bytes of text stand for ≈ 900,000 nodes. The quick reader declines anchors; js-yaml shares the
// aliased nodes, but every walk after it (the alias-bomb check, the rules) sees them expanded: at
// 3fcc96f each item cost a walk of its 900k nodes, thousands of items per MB.
import { fill } from './_fill.mjs';

const ten = (s) => `[${Array(10).fill(s).join(', ')}]`;
const item = (i) =>
  `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web${i}\n  namespace: shop\nx-data:\n  l0: &l0 ${ten('x')}\n  l1: &l1 ${ten('*l0')}\n  l2: &l2 ${ten('*l1')}\n  l3: &l3 ${ten('*l2')}\n  l4: &l4 ${ten('*l3')}\n  l5: [*l4, *l4, *l4, *l4, *l4, *l4, *l4]\n`;

export function generate(bytes) {
  return fill(bytes, '', item);
}
