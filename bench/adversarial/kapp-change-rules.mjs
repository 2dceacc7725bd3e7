// Adversarial family: `ordering: kapp`, one Deployment reading the Secrets of n ExternalSecrets.
// The Deployment gets a kapp change-rule annotation per source it waits for: n new keys inserted
// into one item. More than one insertion in an item is located and applied one after another, each
// in a new copy of the whole item (src/krm/yaml/splice.ts locatedAll, applySplices; the key looked
// up in an annotations mapping that grows with each, locate-lines.ts findKey): time grows with n ×
// the item's size (at c44bdf0: 1 MB 4.4–6.4 s, 4 MB 76–89 s; the same input with the default
// ordering, one checksum annotation: 0.34 s and 1.04 s).
import { oneReaderOfMany } from './_fill.mjs';

export function generate(bytes) {
  return oneReaderOfMany(bytes, 'kapp');
}
