import { readersOfOne } from './_fill.mjs';

const configMap =
  '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\n  namespace: a\ndata:\n';

const template =
  '    template:\n      templateFrom:\n      - configMap:\n          name: tpl\n          items:\n          - key: k0\n';

/** Half the size the ConfigMap's keys, half ExternalSecrets. */
export function generate(bytes) {
  return readersOfOne(bytes, configMap, (i) => `  k${i}: v\n`, template);
}
