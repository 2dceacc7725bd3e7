// Adversarial family: kapp-change-rules' Deployment whose annotations are a flow mapping already
// holding as many keys as the change rules add (found by s13-kapp: 1 MB 1.97 s, 4 MB 6.22 s after
// its first fix).
import { kappDeploymentHead, oneReaderOfMany } from './_fill.mjs';

export function generate(bytes) {
  const n = Math.max(1, Math.round(bytes / 1.3 / 330));
  const annotations = Array.from({ length: n }, (_, i) => `a${i}: x`).join(', ');
  return oneReaderOfMany(bytes / 1.3, 'kapp').replace(
    kappDeploymentHead,
    `  metadata: {name: api, namespace: a, annotations: {${annotations}}}\n`,
  );
}
