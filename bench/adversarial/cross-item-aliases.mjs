// Adversarial family: a ResourceList whose Deployments all alias one label anchor defined in its
// first item, each reading an ExternalSecret's Secret, so that each gets a checksum edit. Items
// that alias another item's anchor only parse within their document: every edit must be proven
// there (its item means the old value plus the annotation, the other items are unchanged), which
// should cost one re-read of the document for all edits, not one per edit.
import { fill } from './_fill.mjs';

const head = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    name: db
    namespace: shop
    labels: &labels
      team: shop
      tier: backend
  spec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: db}
    data:
    - secretKey: password
      remoteRef: {key: db/password}
`;

const deployment = (i) => `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api-${i}
    namespace: shop
    labels: *labels
  spec:
    template:
      spec:
        containers:
        - name: app
          envFrom:
          - secretRef:
              name: db
`;

export function generate(bytes) {
  return fill(bytes, head, deployment);
}
