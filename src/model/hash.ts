// The checksum is SHA-256 over canonical JSON: object keys sorted by UTF-16 code units (what
// `jq -cS` and RFC 8785 do for our data: strings, integers, booleans), no insignificant
// whitespace. Chosen over object-hash, whose encoding is its own and changed across majors, so a
// user could not recompute a value with standard tools.

import loadCrypto from './load-crypto.cjs';
import { isObject, type Json } from './resource.js';

export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 16) keys.sort();
    else {
      // Most objects have a few keys, and Array#sort allocates a work copy at every call.
      for (let i = 1; i < keys.length; i++) {
        const key = keys[i] as string;
        let j = i - 1;
        for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
        keys[j + 1] = key;
      }
    }
    let text = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      text += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value);
}

export function sha256Hex(text: string): string {
  const { createHash, hash } = loadCrypto();
  // crypto.hash (Node 20.12+) is the same digest without a Hash object: half the time.
  return typeof hash === 'function'
    ? hash('sha256', text, 'hex')
    : createHash('sha256').update(text, 'utf8').digest('hex');
}
