// Adversarial family: the large ExternalSecret of large-source.mjs (its spec expands through YAML
// aliases to ≈3 MB of canonical JSON, within the reader's `maxAliasCount: 100`), read by as many
// Deployments as the size allows, each of which also reads a small ExternalSecret of its own.
// Every pod template then covers a different set of sources, so no two share a checksum: hashing
// the large content once per consumer costs consumers × its size, quadratic in the input. The
// checksum budget (src/rules/checksums.ts) refuses such an input before hashing past 64 × its
// size + 64 MiB.
import { fill } from './_fill.mjs';
import { source } from './large-source.mjs';

/** A Deployment that reads the large source and a small ExternalSecret of its own. */
function consumer(i) {
  return `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: own-${i}, namespace: shop}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  data: [{secretKey: token, remoteRef: {key: app/${i}, property: token}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api-${i}, namespace: shop}
spec:
  template:
    spec:
      containers:
      - name: app
        envFrom: [{secretRef: {name: big}}, {secretRef: {name: own-${i}}}]
`;
}

export function generate(bytes) {
  return fill(bytes, source(), consumer);
}
