// Adversarial family: one namespace crowded with Secret names of one length and the same
// characters (orderings of the ten digits), and as many Jobs reading missing names of that length
// and those characters: each read passes the near-name lint's cheap checks against every name
// made and needs an edit distance. Each read is compared with every name of its bucket (no cap
// since session 12) until the budget (src/rules/lints/near-name.ts), which grows by a fixed share
// per missing name looked up, runs out: the work stays linear in the reads, and the lint says
// where it stopped.
import { fill, madeAndRead } from './_fill.mjs';

const factorial = (k) => (k <= 1 ? 1 : k * factorial(k - 1));

/** The i-th ordering of the ten digits (its factorial-base digits pick each next one). */
export function ordering(i) {
  const left = [...'0123456789'];
  let out = '';
  for (let k = left.length; k > 0; k--) {
    const f = factorial(k - 1);
    out += left.splice(Math.floor(i / f) % k, 1)[0];
  }
  return out;
}

const unit = (i) => madeAndRead(i, `s-${ordering(2 * i)}`, `r-${ordering(2 * i + 1)}`);

export function generate(bytes) {
  return fill(bytes, '', unit);
}
