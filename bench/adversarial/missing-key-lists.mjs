import {
  asItem,
  dataEntry,
  deployment,
  externalSecret,
  resourceList,
  secretKeyRef,
} from './_fill.mjs';

/** About `bytes` of a ResourceList: the ExternalSecret's keys, then the Deployment's references. */
export function generate(bytes) {
  // A key is ≈90 bytes, a reference ≈110: half the size each.
  const keys = Math.max(1, Math.round(bytes / 2 / 90));
  const refs = Math.max(1, Math.round(bytes / 2 / 110));
  let data = '';
  for (let i = 0; i < keys; i++) data += dataEntry(`key-${i}`);
  let env = '        env:\n';
  for (let i = 0; i < refs; i++) env += secretKeyRef(i, 's', `miss-${i}`);
  return (
    resourceList() +
    asItem(externalSecret('s', { store: 'SecretStore', data })) +
    asItem(deployment('api', 'a', env))
  );
}
