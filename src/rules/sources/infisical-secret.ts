// Infisical operator InfisicalSecret (secrets.infisical.com/v1alpha1): syncs the secrets of one
// project environment into each Secret of `spec.managedKubeSecretReferences[]` (or the deprecated
// single `spec.managedSecretReference`), each in its required `secretNamespace`
// (internal/controller/infisicalsecret_controller.go).
import { ItemError, type Json, type JsonObject } from '../../model/resource.js';
import { objectField, optionalList, optionalObject, requiredString } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SecretSource, SourceKind } from './source.js';

/**
 * Content shared by every Secret: authentication (method, identity, secretsScope), the legacy
 * tokenSecretReference, hostAPI and tls. Not content: when it syncs (resyncInterval,
 * instantUpdates, syncConfig), and the other references.
 */
const shared: readonly NormalizeRule[] = [
  {
    path: '',
    drop: [
      'resyncInterval',
      'instantUpdates',
      'syncConfig',
      'managedSecretReference',
      'managedKubeSecretReferences',
      'managedKubeConfigMapReferences',
    ],
  },
];
/**
 * Content of one reference: secretType and template (includeAllSecrets, data). Not content: which
 * Secret (secretName, secretNamespace: the entry's "secret"), creationPolicy (ownership only)
 * and template.metadata (labels and annotations). Defaults (CRD): secretType Opaque.
 */
const perSecret: readonly NormalizeRule[] = [
  {
    path: '',
    drop: ['secretName', 'secretNamespace', 'creationPolicy'],
    defaults: { secretType: 'Opaque' },
  },
  { path: 'template', drop: ['metadata'], defaults: { includeAllSecrets: false } },
];

export const infisicalSecret: SourceKind = {
  group: 'secrets.infisical.com',
  kind: 'InfisicalSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const list = optionalList(spec.managedKubeSecretReferences, 'spec.managedKubeSecretReferences');
    const deprecated = optionalObject(spec.managedSecretReference, 'spec.managedSecretReference');
    const references = list.map((entry, i): [JsonObject, string] => [
      objectField({ entry }, 'entry', `spec.managedKubeSecretReferences[${i}]`),
      `spec.managedKubeSecretReferences[${i}]`,
    ]);
    // An empty mapping is what the Go type (no omitempty) writes back for "not set".
    if (deprecated !== undefined && Object.keys(deprecated).length > 0) {
      // The controller refuses both at once.
      if (references.length > 0) {
        throw new ItemError(
          'set spec.managedKubeSecretReferences or the deprecated spec.managedSecretReference, not both',
          'spec.managedSecretReference',
        );
      }
      references.push([deprecated, 'spec.managedSecretReference']);
    }
    if (references.length === 0) {
      const configMaps = optionalList(
        spec.managedKubeConfigMapReferences,
        'spec.managedKubeConfigMapReferences',
      );
      if (configMaps.length > 0) {
        return { skipped: 'it writes only ConfigMaps (managedKubeConfigMapReferences)' };
      }
      throw new ItemError(
        'spec.managedKubeSecretReferences is missing',
        'spec.managedKubeSecretReferences',
      );
    }

    const common = normalize(spec, shared) as JsonObject;
    const seen = new Map<string, string>();
    return references.map(([reference, at]): SecretSource => {
      const secretName = requiredString(reference.secretName, `${at}.secretName`);
      const namespace = requiredString(reference.secretNamespace, `${at}.secretNamespace`);
      const key = `${namespace}/${secretName}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        throw new ItemError(
          `${at} names Secret ${key} again (${earlier}): the operator would write it twice`,
          `${at}.secretName`,
        );
      }
      seen.set(key, at);
      optionalObject(reference.template, `${at}.template`);
      const content: Json = { ...common, managedSecret: normalize(reference, perSecret) };
      return operatorSecret(resource, config, {
        secretName,
        namespace,
        // Keys come from the project (or the template with includeAllSecrets): never narrowed.
        content: () => content,
      });
    });
  },
};
