import { externalSecret, fill } from './_fill.mjs';

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
  return fill(bytes, externalSecret('s'), release);
}
