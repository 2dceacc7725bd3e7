// Adversarial family: kapp-change-rules' Deployment with its metadata after its spec: each change
// rule's place was found past the whole envFrom list (found by s13-kapp at c44bdf0: 1 MB 2.7 s,
// 4 MB 28.1 s).
import { kappDeploymentHead, oneReaderOfMany } from './_fill.mjs';

export function generate(bytes) {
  const text = oneReaderOfMany(bytes, 'kapp').replace(kappDeploymentHead, '');
  const firstSource = '- apiVersion: external-secrets.io/v1';
  return text.replace(firstSource, `${kappDeploymentHead}${firstSource}`);
}
