// Adversarial family: `mode: check`, n ExternalSecrets in one namespace all writing Secret `app`,
// and as many Deployments reading it. Every Deployment's check error says what its missing
// checksum covers: every source of `app`, listed in full (src/rules/check.ts checkResults
// `covers`), so the errors grow with Deployments × sources, beside duplicate-writers' warnings
// (at c44bdf0: 0.5 MB wrote 52 MB of results: 1,154 check errors of 25 KB each, 28.7 MB).
import { fill } from './_fill.mjs';

const writer = (i) => `- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    name: es-${i}
    namespace: shop
  spec:
    secretStoreRef:
      name: vault
      kind: ClusterSecretStore
    target:
      name: app
    data:
    - secretKey: k
      remoteRef:
        key: x
        version: "1"
`;

const reader = (i) => `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: d-${i}
    namespace: shop
  spec:
    template:
      spec:
        containers:
        - name: c
          envFrom:
          - secretRef:
              name: app
`;

const head = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: secret-rollout
  data:
    mode: check
items:
`;

/** A ResourceList (its functionConfig sets the mode): half the size sources, half readers. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, head, writer), reader);
}
