// A kpt package's List files as kpt passes them: items of a ResourceList, each a `kind: List`
// with kpt's annotations and 1,000 entries (≈0.9 MB: one item may not pass 3 MiB), pairs of an
// ExternalSecret and a Job reading its Secret. The entries are found by their lines, then the List
// read whole must hold exactly what each reads as alone (docs/format.md, Lists): that proof, or a
// search of the List per entry, is where a cost could multiply.
import { fill, madeAndRead } from './_fill.mjs';
import { asEntries } from './list-items.mjs';

const perList = 1000;
const indent = (text) => text.replaceAll(/^(?=.)/gm, '  ');
const list = (n) => `- apiVersion: v1
  kind: List
  metadata:
    name: export-${n}
    annotations:
      config.kubernetes.io/path: 'export-${n}.yaml'
      config.kubernetes.io/index: '0'
  items:
`;

export function generate(bytes) {
  return fill(
    bytes,
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n',
    (i) =>
      (i % perList ? '' : list(i / perList)) +
      indent(asEntries(madeAndRead(i, `s-${i}`, `s-${i}`))),
  );
}
