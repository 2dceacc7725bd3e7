// Adversarial family: Flux HelmReleases whose values nest `annotations` mappings 300 deep (flow
// style, `{annotations: {annotations: … {a: b}}}`, within the 4096 characters a values path may
// have), each reading an ExternalSecret's Secret. Deep flow sends each item to the conforming
// reader, whose visitor (the `yaml` library's visit, run by src/krm/yaml/parse.ts firstBadKey and
// again on the proof of the post-renderer append) copies the node path at every level: the square
// of the depth in garbage per item (allocation profile at 256 KB: visit_ 425 MB of 1,631 MB). And
// the values walk keeps every annotations mapping with a copy of its path
// (src/rules/workloads/helm-values.ts walkValues, `[...trail]` per mapping, for the double-restart
// lint): the square of the depth kept per item. At c44bdf0 (a loaded machine): 1 MB 10.8–23 s and
// 545–556 MiB (121 MiB with the key `notes` instead of `annotations`), 2 MB 37 s and 1009 MiB, 4 MB
// 58 s and 1.98 GB, 8 MB killed after 300 s.
import { externalSecret, fill, helmRelease, readsS } from './_fill.mjs';

const depth = 300;
const nested = `${'{annotations: '.repeat(depth)}{a: b}${'}'.repeat(depth)}`;

export function generate(bytes) {
  return fill(bytes, externalSecret('s'), (i) => helmRelease(i, `    x: ${nested}\n${readsS}`));
}
