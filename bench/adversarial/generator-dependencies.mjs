import { readersOfOne } from './_fill.mjs';

const generator =
  '---\napiVersion: generators.external-secrets.io/v1alpha1\nkind: Fake\nmetadata:\n  name: tpl\n  namespace: a\nspec:\n  data:\n';

const generatorRef =
  '  dataFrom:\n  - sourceRef:\n      generatorRef:\n        apiVersion: generators.external-secrets.io/v1alpha1\n        kind: Fake\n        name: tpl\n';

/** Half the size the generator's values, half ExternalSecrets. */
export function generate(bytes) {
  return readersOfOne(bytes, generator, (i) => `    k${i}: v\n`, generatorRef);
}
