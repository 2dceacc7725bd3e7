// Adversarial family: one Deployment reading n Secrets that only another namespace makes, so the
// cross-namespace lint places n warnings in one PodSpec. Each result's field was found by walking
// the whole PodSpec again until session 12 (8,000 results: 65 s); a lint's places are now found in
// at most three walks of a PodSpec (src/rules/workloads/references.ts Places).
import { asItem, deployment, externalSecret, resourceList, secretKeyRef } from './_fill.mjs';

/** About `bytes` of a ResourceList: the Deployment's references, then the ExternalSecrets. */
export function generate(bytes) {
  // A reference and an ExternalSecret together are ≈400 bytes.
  const n = Math.max(1, Math.round(bytes / 400));
  let env = '        env:\n';
  for (let i = 0; i < n; i++) env += secretKeyRef(i, `s-${i}`, 'k');
  const out = [resourceList(), asItem(deployment('api', 'a', env))];
  for (let i = 0; i < n; i++) {
    out.push(asItem(externalSecret(`s-${i}`, { namespace: 'b', store: 'SecretStore' })));
  }
  return out.join('');
}
