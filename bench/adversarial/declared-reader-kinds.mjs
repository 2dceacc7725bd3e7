import { asItem, deployment, entries, fill, resourceList } from './_fill.mjs';

/** About `bytes` of a ResourceList: half the size the option, half the items. */
export function generate(bytes) {
  const fields = entries(bytes / 2, (i) => `example.com/Kind${i}:spec.secretName`);
  return fill(bytes, resourceList({ secretReferences: fields }), (i) =>
    asItem(deployment(`d-${i}`, 'a')),
  );
}
