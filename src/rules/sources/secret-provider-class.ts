// Secrets Store CSI driver SecretProviderClass (secrets-store.csi.x-k8s.io/v1; v1alpha1 is
// deprecated but served): pods mounting a CSI volume of the driver that names it read what its
// provider fetches, and the driver copies those files into each `spec.secretObjects[]` Secret
// (in the SecretProviderClass's namespace, and only while a pod mounts it).
import type { JsonObject } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import { listContent, objectField, optionalList, requiredString, stringMap } from './fields.js';
import { operatorSecret } from './operator-secret.js';
import type { SecretSource, SourceKind } from './source.js';

/**
 * Content of the mount: `provider` and all of `parameters` (which objects, versions, aliases,
 * vault, tenant). A synced Secret adds its `type` and `data[]` (`key` ← `objectName`), per key;
 * its `labels` and `annotations` are metadata pods cannot read. No defaults: the driver refuses
 * an empty type, secretName or data.
 */
export const secretProviderClass: SourceKind = {
  group: 'secrets-store.csi.x-k8s.io',
  kind: 'SecretProviderClass',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const mount: JsonObject = { provider: requiredString(spec.provider, 'spec.provider') };
    const parameters = stringMap(spec.parameters, 'spec.parameters');
    if (Object.keys(parameters).length > 0) mount.parameters = parameters;
    const sources: SecretSource[] = [
      operatorSecret(resource, config, {
        produces: 'SecretProviderClass',
        secretName: resource.name,
        content: () => mount,
      }),
    ];
    const seen = new Map<string, string>();
    optionalList(spec.secretObjects, 'spec.secretObjects').forEach((entry, i) => {
      const at = `spec.secretObjects[${i}]`;
      const object = objectField({ entry }, 'entry', at);
      // The driver trims names, types, keys and object names before it uses them.
      const secretName = requiredString(object.secretName, `${at}.secretName`).trim();
      const earlier = seen.get(secretName);
      if (earlier !== undefined) {
        throw new ItemError(
          `${at}.secretName names Secret ${secretName} again (${earlier}): the driver would write it twice`,
          `${at}.secretName`,
        );
      }
      seen.set(secretName, at);
      const type = requiredString(object.type, `${at}.type`).trim();
      const data = optionalList(object.data, `${at}.data`).map((item, j) => {
        const field = `${at}.data[${j}]`;
        const d = objectField({ item }, 'item', field);
        const key = requiredString(d.key, `${field}.key`).trim();
        return { key, objectName: requiredString(d.objectName, `${field}.objectName`).trim() };
      });
      if (data.length === 0) throw new ItemError(`${at}.data is missing`, `${at}.data`);
      const content = { ...mount, type, data };
      sources.push(
        operatorSecret(resource, config, {
          secretName,
          content: listContent(content, 'data', 'key', true),
          producedKeys: () => new Set(data.map((d) => d.key)),
        }),
      );
    });
    return sources;
  },
};
