import { deployment, envFrom, fill } from './_fill.mjs';

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

const volume = `      volumes:
      - name: s
        csi:
          driver: secrets-store.csi.k8s.io
          volumeAttributes:
            secretProviderClass: vault
`;

const mounter = (i) => deployment(`m-${i}`, 'p', undefined, volume);
const reader = (i) => deployment(`u-${i}`, 'p', `        image: i\n${envFrom(['db'])}`);

export function generate(bytes) {
  return fill(bytes, head, (i) => (i % 2 === 0 ? mounter(i) : reader(i)));
}
