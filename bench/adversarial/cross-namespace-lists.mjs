// Adversarial family: n ExternalSecrets named `x`, one in each of n namespaces, and as many
// Deployments in another namespace reading Secret `x`. Each Deployment gets a cross-namespace
// warning that lists every namespace making `x` (src/rules/lints/cross-namespace.ts
// producedElsewhere: written once per name, repeated in each warning): the results grow with
// Deployments × namespaces (at c44bdf0: 1 MB wrote 32 MB of results, 2 MB 133 MB; 4 MB failed with
// `internal error: Invalid string length`).
import { fill } from './_fill.mjs';

const source = (i) => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: x
  namespace: ns-${i}
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: x
  data:
  - secretKey: k
    remoteRef:
      key: x
      version: "1"
`;

const reader = (i) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d-${i}
  namespace: a
spec:
  template:
    spec:
      containers:
      - name: c
        env:
        - name: T
          valueFrom:
            secretKeyRef:
              name: x
              key: k
`;

/** Half the size ExternalSecrets, half Deployments. */
export function generate(bytes) {
  const sources = fill(bytes / 2, '', source);
  return fill(bytes, sources, reader);
}
