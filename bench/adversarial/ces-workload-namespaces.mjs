// Adversarial family: n Deployments, each in a namespace of its own, and no Namespace object,
// then ClusterExternalSecrets that each name one namespace (`spec.namespaces`, no selector).
// Without Namespace objects, each ClusterExternalSecret gathers the namespaces of every workload
// of the input, reading each item's pod templates again (src/rules/sources/
// cluster-external-secret.ts selectNamespaces, workloadNamespaces), selector or not: time grows
// with ClusterExternalSecrets × items (at c44bdf0: 1 MB 1.1 s, 2 MB 5.0 s, 4 MB 22 s).
import { clusterExternalSecret, fill } from './_fill.mjs';

const workload = (i) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d-${i}
  namespace: n-${i}
spec:
  template:
    spec:
      containers:
      - name: c
        image: i
`;

const named = (i) => clusterExternalSecret(i, '  namespaces:\n  - n-0\n');

/** Half the size Deployments, half ClusterExternalSecrets. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, '', workload), named);
}
