import { asItem, deployment, externalSecret, resourceList, secretKeyRef } from './_fill.mjs';

const extract = '  dataFrom:\n  - extract:\n      key: x\n      version: "1"\n';

/** About `bytes` of a ResourceList: an ExternalSecret, then Deployments of ≤ 2 MiB. */
export function generate(bytes) {
  const out = [resourceList(), asItem(externalSecret('s', { spec: extract, data: '' }))];
  // A reference is ≈115 bytes.
  const refs = Math.max(1, Math.round(bytes / 115));
  const perItem = Math.floor((2 << 20) / 115);
  for (let d = 0; d * perItem < refs; d++) {
    let env = '        env:\n';
    for (let i = d * perItem; i < Math.min(refs, (d + 1) * perItem); i++) {
      env += secretKeyRef(i, 's', `key-${i}`);
    }
    out.push(asItem(deployment(`api-${d}`, 'a', env)));
  }
  return out.join('');
}
