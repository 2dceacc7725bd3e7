// Adversarial family: n namespaces, each with an ExternalSecret and a Job both named `app`, so
// every result names a resource whose name all 2n items share. Results were put in item order by
// comparing each item with every ref of its name until session 12 (16k namespaces: 12.2 s); each
// ref is now numbered once by name (src/rules/transform.ts sortByItem).
import { fill } from './_fill.mjs';

const unit = (i) => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: app
  namespace: ns-${i}
spec:
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
  target:
    name: app
  data:
  - secretKey: token
    remoteRef:
      key: app/${i}
      version: "1"
---
apiVersion: batch/v1
kind: Job
metadata:
  name: app
  namespace: ns-${i}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: job
        image: job:1
        env:
        - name: TOKEN
          valueFrom:
            secretKeyRef:
              name: app
              key: token
`;

export function generate(bytes) {
  return fill(bytes, '', unit);
}
