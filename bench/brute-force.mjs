// How fast a 6-digit value in a plain Secret is recovered from a pod template's checksum when its
// per-key digest is unkeyed SHA-256 (what secret-rollout wrote before `secretChecksumKey` became
// the only way to cover values; Helm's `checksum/config` and Reloader's SHA-1 are the same kind of
// unsalted fast hash). The attacker reads the checksum off a Pod and knows everything else that
// goes into it (the Secret's name and key names are in the pod spec): one guess is two SHA-256,
// the value's digest and the checksum's. With HMAC-SHA256 the same loop needs the key; without
// it the search space is the key's (256 bits for `openssl rand -hex 32`), not the value's.
//
//   node bench/brute-force.mjs [digits]     digits: 6 by default; one core, CPU only
import { createHash, createHmac } from 'node:crypto';

const digits = Number(process.argv[2] ?? 6);
const space = 10 ** digits;
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const checksum = (digest) => sha256(`[{"content":{"data":{"pin":"${digest}"}},"secret":"db"}]`);

function search(label, digestOf, target) {
  const start = process.hrtime.bigint();
  let found;
  for (let n = 0; n < space && found === undefined; n++) {
    const guess = String(n).padStart(digits, '0');
    if (checksum(digestOf(guess)) === target) found = guess;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rate = Math.round(space / seconds);
  console.log(`${label}: ${found ?? 'not found'} in ${seconds.toFixed(2)} s (${rate} guesses/s)`);
}

// The worst case for the searcher: the last value of the space.
const secret = String(space - 1);
const key = 'k3y-0f-at-least-32-random-bytes!';
const hmac = (k) => (value) => createHmac('sha256', k).update(value).digest('hex');
search('unkeyed SHA-256', sha256, checksum(sha256(secret)));
search('HMAC-SHA256, key known', hmac(key), checksum(hmac(key)(secret)));
search('HMAC-SHA256, key guessed wrong', hmac('not-the-key'), checksum(hmac(key)(secret)));
