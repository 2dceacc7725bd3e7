// Adversarial family: one SecretProviderClass syncing Secret `db`, and n Deployments, every other
// one mounting the class and the others reading `db` without mounting it. Each of the latter gets
// a csi-sync-mount warning naming every Deployment that mounts the class
// (src/rules/lints/csi-sync-mount.ts `others`, written once per class, repeated in each warning):
// the results grow with n² (at c44bdf0: 0.5 MB wrote 20 MB of results, each doubling four times
// as much).
import { fill } from './_fill.mjs';

const head = `---
apiVersion: secrets-store.csi.x-k8s.io/v1
kind: SecretProviderClass
metadata:
  name: vault
  namespace: p
spec:
  provider: vault
  secretObjects:
  - secretName: db
    type: Opaque
    data:
    - objectName: u
      key: username
`;

const mounter = (i) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: m-${i}
  namespace: p
spec:
  template:
    spec:
      containers:
      - name: c
        image: i
      volumes:
      - name: s
        csi:
          driver: secrets-store.csi.k8s.io
          volumeAttributes:
            secretProviderClass: vault
`;

const reader = (i) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: u-${i}
  namespace: p
spec:
  template:
    spec:
      containers:
      - name: c
        image: i
        envFrom:
        - secretRef:
            name: db
`;

export function generate(bytes) {
  return fill(bytes, head, (i) => (i % 2 === 0 ? mounter(i) : reader(i)));
}
