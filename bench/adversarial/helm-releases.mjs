// Adversarial family: many small Flux HelmReleases whose values read one ExternalSecret's Secret,
// so each gets the checksum in a post-renderer entry appended to its `spec.postRenderers`. Linear,
// but each append is located through the conforming reader's CST and proven by reading the whole
// edited item again with it (src/krm/yaml/splice.ts appendSplice, locateListByCst; proven,
// reparseItem): ≈1.4 ms a HelmRelease, where a Deployment's checksum costs ≈0.1 ms (at c44bdf0:
// 1 MB, 4,000 HelmReleases: 5.4 s; 8 MB 45.7 s and 481 MiB; the bench's 10k-item shapes, 14 MB,
// take ≈1.5 s).
import { fill } from './_fill.mjs';

const head = `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: s
  namespace: a
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: s
  data:
  - secretKey: k
    remoteRef:
      key: x
      version: "1"
`;

const release = (i) => `---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: hr-${i}
  namespace: a
spec:
  chart:
    spec:
      chart: app
  values:
    envFrom:
    - secretRef:
        name: s
`;

export function generate(bytes) {
  return fill(bytes, head, release);
}
