import { asItem, deployment, envFrom, externalSecret, fill, resourceList } from './_fill.mjs';

const writer = (i) => asItem(externalSecret(`es-${i}`, { namespace: 'shop', target: 'app' }));
const reader = (i) => asItem(deployment(`d-${i}`, 'shop', envFrom(['app'])));

/** A ResourceList (its functionConfig sets the mode): half the size sources, half readers. */
export function generate(bytes) {
  return fill(bytes, fill(bytes / 2, resourceList({ mode: 'check' }), writer), reader);
}
