import { deployment, externalSecret, fill, secretKeyRef } from './_fill.mjs';

const source = (i) => externalSecret('x', { namespace: `ns-${i}` });
const reader = (i) => deployment(`d-${i}`, 'a', `        env:\n${secretKeyRef(0, 'x', 'k')}`);

/** Half the size ExternalSecrets, half Deployments. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, '', source), reader);
}
