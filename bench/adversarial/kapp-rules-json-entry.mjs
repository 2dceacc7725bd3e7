// Adversarial family: kapp-change-rules' Deployment as a JSON entry of the ResourceList (kubectl
// -o json's layout, a key a line): the change rules inserted in JSON (found by s13-kapp at
// c44bdf0: 1 MB killed at 100 s).
import { oneReaderOfMany } from './_fill.mjs';

export function generate(bytes) {
  const text = oneReaderOfMany(bytes, 'kapp');
  const envFrom = Array.from({ length: Math.max(1, Math.round(bytes / 330)) }, (_, i) => ({
    secretRef: { name: `s-${i}` },
  }));
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'a' },
    spec: { template: { spec: { containers: [{ name: 'c', envFrom }] } } },
  };
  const json = JSON.stringify(deployment, null, 2)
    .split('\n')
    .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
    .join('\n');
  const start = text.indexOf('- apiVersion: apps/v1');
  const end = text.indexOf('- apiVersion: external-secrets.io/v1');
  return `${text.slice(0, start)}${json}\n${text.slice(end)}`;
}
