import { entries, fill, resourceList, runner } from './_fill.mjs';

/** About `bytes` of a ResourceList: half the size the option, half the items. */
export function generate(bytes) {
  const fields = entries(bytes / 2, (i) => `example.com/Runner:spec.c${i}.name`);
  return fill(bytes, resourceList({ secretReferences: fields }), (i) =>
    runner(i, '    c0:\n      name: s\n'),
  );
}
