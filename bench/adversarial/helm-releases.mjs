import { externalSecret, fill, helmRelease, readsS } from './_fill.mjs';

export function generate(bytes) {
  return fill(bytes, externalSecret('s'), (i) => helmRelease(i, readsS));
}
