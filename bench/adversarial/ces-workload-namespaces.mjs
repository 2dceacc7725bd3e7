import { clusterExternalSecret, deployment, fill } from './_fill.mjs';

const workload = (i) => deployment(`d-${i}`, `n-${i}`);

const named = (i) => clusterExternalSecret(i, '  namespaces:\n  - n-0\n');

/** Half the size Deployments, half ClusterExternalSecrets. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, '', workload), named);
}
