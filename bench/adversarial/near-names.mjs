// Adversarial family: Secret names crafted long and alike. Each unit is an ExternalSecret making a
// Secret of 242 characters in one namespace and a Job reading a missing one of the same
// length, a few edits from every name made: each read's comparisons would compute 80 edit
// distances of ≈58k cells. The near-name lint's budget (src/rules/lints/near-name.ts) grows by a
// fixed share per missing name looked up, so its work stays linear in the reads, and the lint
// says where it stopped.
import { fill, madeAndRead } from './_fill.mjs';

const alike = (letter, i) => `${letter}${'x'.repeat(235)}${String(i).padStart(6, '0')}`;

const unit = (i) => madeAndRead(i, alike('a', i), alike('b', i));

export function generate(bytes) {
  return fill(bytes, '', unit);
}
