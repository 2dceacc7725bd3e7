// Adversarial family: Flux HelmReleases whose values nest `annotations` mappings 300 deep (flow
// style, `{annotations: {annotations: … {a: b}}}`, within the 4096 characters a values path may
// have), each reading an ExternalSecret's Secret. The values walk keeps every annotations mapping
// with a copy of its path (src/rules/workloads/helm-values.ts walkValues: `[...trail]` per
// mapping), the square of the depth per item, kept for the double-restart lint; the items also
// take the conforming reader (deep flow) and a proven post-renderer append. At c44bdf0 (a loaded
// machine): 1 MB 10.8–23 s and 545–556 MiB (121 MiB with the key `notes` instead of
// `annotations`), 2 MB 37 s and 1009 MiB, 4 MB 58 s and 1.98 GB, 8 MB killed after 300 s.
import { externalSecret, fill, helmRelease, readsS } from './_fill.mjs';

const depth = 300;
const nested = `${'{annotations: '.repeat(depth)}{a: b}${'}'.repeat(depth)}`;

export function generate(bytes) {
  return fill(bytes, externalSecret('s'), (i) => helmRelease(i, `    x: ${nested}\n${readsS}`));
}
