// Adversarial family: one namespace crowded with Secret names of one length and the same
// characters (orderings of the ten digits), and as many Jobs reading missing names of that length
// and those characters: each read passes the near-name lint's cheap checks against every name
// made and needs an edit distance. Each read is compared with every name of its bucket (no cap
// since session 12) until the budget (src/rules/lints/near-name.ts), which grows by a fixed share
// per missing name looked up, runs out: the work stays linear in the reads, and the lint says
// where it stopped.
import { fill } from './_fill.mjs';

const factorial = (k) => (k <= 1 ? 1 : k * factorial(k - 1));

/** The i-th ordering of the ten digits (its factorial-base digits pick each next one). */
function ordering(i) {
  const left = [...'0123456789'];
  let out = '';
  for (let k = left.length; k > 0; k--) {
    const f = factorial(k - 1);
    out += left.splice(Math.floor(i / f) % k, 1)[0];
  }
  return out;
}

function unit(i) {
  return `---
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
    name: s-${ordering(2 * i)}
  dataFrom:
  - extract:
      key: app/${i}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: job-${i}
  namespace: shop
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
              name: r-${ordering(2 * i + 1)}
              key: token
`;
}

export function generate(bytes) {
  return fill(bytes, '', unit);
}
