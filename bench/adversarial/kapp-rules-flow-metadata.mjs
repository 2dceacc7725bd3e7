// Adversarial family: kapp-change-rules' Deployment with `metadata: {name: api, namespace: a}`:
// the change rules inserted into a flow mapping (found by s13-kapp at c44bdf0: 1 MB killed at
// 120 s).
import { kappDeploymentHead, oneReaderOfMany } from './_fill.mjs';

export function generate(bytes) {
  return oneReaderOfMany(bytes, 'kapp').replace(
    kappDeploymentHead,
    '  metadata: {name: api, namespace: a}\n',
  );
}
