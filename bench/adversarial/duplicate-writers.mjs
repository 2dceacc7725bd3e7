// Adversarial family: n ExternalSecrets in one namespace, all writing Secret `app`. Each gets a
// warning naming every other one (src/rules/producers.ts duplicateWarnings, which also filters
// the whole list per source): output and time grow with n² (at c44bdf0: 0.5 MB wrote 109 MB of
// results and took 408 MiB of memory).
import { fill } from './_fill.mjs';

const unit = (i) => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: es-${i}
  namespace: shop
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: app
  data:
  - secretKey: k
    remoteRef:
      key: x
      version: "1"
`;

export function generate(bytes) {
  return fill(bytes, '', unit);
}
