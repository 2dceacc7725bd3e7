// Adversarial family: one ConfigMap `tpl` with n keys, then ExternalSecrets whose template reads
// one key of it (`target.template.templateFrom[].configMap`). For each ExternalSecret, the
// `checksum/dependencies` entry of `tpl` reads and checks its whole `data` again and builds the
// set of its keys (src/rules/sources/eso-dependencies.ts entryOf: stringMap and `present`), to
// hash the one key read: time grows with ExternalSecrets × keys (at c44bdf0: 0.25 MB 7.7 s, 0.5 MB
// 18 s, 1 MB 112 s, 2 MB killed after 120 s; profile at 0.25 MB: stringMap 3.2 s, entryOf 2.0 s
// self of 6.4 s).
import { fill } from './_fill.mjs';

const configMap =
  '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\n  namespace: a\ndata:\n';

const templated = (i) => `---
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
    template:
      templateFrom:
      - configMap:
          name: tpl
          items:
          - key: k0
  data:
  - secretKey: k
    remoteRef:
      key: x
      version: "1"
`;

/** Half the size the ConfigMap's keys, half ExternalSecrets. */
export function generate(bytes) {
  return fill(
    bytes,
    fill(bytes / 2, configMap, (i) => `  k${i}: v\n`),
    templated,
  );
}
