// Adversarial family: one generator (a `Fake` with n values in its spec), then ExternalSecrets
// that each read it (`dataFrom[].sourceRef.generatorRef`). For each ExternalSecret, the
// `checksum/dependencies` entry of the generator normalises its whole spec again and hashes it as
// canonical JSON (src/rules/sources/eso-dependencies.ts entryOf, normalize; readDependencies,
// canonicalJson): time grows with ExternalSecrets × the generator's size, and no budget bounds it
// (the checksums' budget, rules/checksums.ts, covers pod templates only). At c44bdf0: 0.25 MB
// 6.7 s, 0.5 MB 23.6 s, 1 MB 97 s, 2 MB killed after 120 s; profile at 0.25 MB: copyNormalized
// 1.05 s, canonicalJson 0.86 s, sortedKeys 0.53 s self of 3.5 s.
import { fill } from './_fill.mjs';

const generator =
  '---\napiVersion: generators.external-secrets.io/v1alpha1\nkind: Fake\nmetadata:\n  name: tpl\n  namespace: a\nspec:\n  data:\n';

const generated = (i) => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: es-${i}
  namespace: a
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: s-${i}
  dataFrom:
  - sourceRef:
      generatorRef:
        apiVersion: generators.external-secrets.io/v1alpha1
        kind: Fake
        name: tpl
  data:
  - secretKey: k
    remoteRef:
      key: x
      version: "1"
`;

/** Half the size the generator's values, half ExternalSecrets. */
export function generate(bytes) {
  return fill(
    bytes,
    fill(bytes / 2, generator, (i) => `    k${i}: v\n`),
    generated,
  );
}
