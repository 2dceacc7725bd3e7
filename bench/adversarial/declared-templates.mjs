import { entries, fill, resourceList, runner } from './_fill.mjs';

const template =
  '    t0:\n      template:\n        spec:\n          containers:\n          - name: c\n            image: i\n';

/** About `bytes` of a ResourceList: half the size the option, half the items. */
export function generate(bytes) {
  const paths = entries(bytes / 2, (i) => `example.com/Runner:spec.t${i}.template`);
  return fill(bytes, resourceList({ podTemplates: paths }), (i) => runner(i, template));
}
