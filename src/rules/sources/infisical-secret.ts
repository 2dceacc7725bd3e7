// Infisical operator InfisicalSecret (secrets.infisical.com/v1alpha1): syncs the secrets of one
// project environment into each Secret of `spec.managedKubeSecretReferences[]` (or the deprecated
// single `spec.managedSecretReference`), each in its required `secretNamespace`, and into each
// ConfigMap of `spec.managedKubeConfigMapReferences[]` (internal/controller/
// infisicalsecret_controller.go).
import type { Json, JsonObject } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
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
 * object (its name and namespace: the entry's "secret"), creationPolicy (ownership only) and
 * template.metadata (labels and annotations). Defaults (CRD): secretType Opaque.
 */
const perObject: readonly NormalizeRule[] = [
  {
    path: '',
    drop: [
      'secretName',
      'secretNamespace',
      'configMapName',
      'configMapNamespace',
      'creationPolicy',
    ],
    defaults: { secretType: 'Opaque' },
  },
  { path: 'template', drop: ['metadata'], defaults: { includeAllSecrets: false } },
];

const fieldsOf = {
  Secret: { name: 'secretName', namespace: 'secretNamespace' },
  ConfigMap: { name: 'configMapName', namespace: 'configMapNamespace' },
} as const;

/** One object the InfisicalSecret writes: a Secret, or a ConfigMap (the same shape). */
interface Target {
  reference: JsonObject;
  at: string;
  produces: keyof typeof fieldsOf;
}

export const infisicalSecret: SourceKind = {
  group: 'secrets.infisical.com',
  kind: 'InfisicalSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const listed = (field: string, produces: Target['produces']): Target[] =>
      optionalList(spec[field], `spec.${field}`).map((entry, i) => {
        const at = `spec.${field}[${i}]`;
        return { reference: objectField({ entry }, 'entry', at), at, produces };
      });
    const targets = listed('managedKubeSecretReferences', 'Secret');
    const deprecated = optionalObject(spec.managedSecretReference, 'spec.managedSecretReference');
    // An empty mapping is what the Go type (no omitempty) writes back for "not set".
    if (deprecated !== undefined && Object.keys(deprecated).length > 0) {
      // The controller refuses both at once.
      if (targets.length > 0) {
        throw new ItemError(
          'set spec.managedKubeSecretReferences or the deprecated spec.managedSecretReference, not both',
          'spec.managedSecretReference',
        );
      }
      targets.push({
        reference: deprecated,
        at: 'spec.managedSecretReference',
        produces: 'Secret',
      });
    }
    targets.push(...listed('managedKubeConfigMapReferences', 'ConfigMap'));
    if (targets.length === 0) {
      throw new ItemError(
        'spec.managedKubeSecretReferences is missing',
        'spec.managedKubeSecretReferences',
      );
    }

    const common = normalize(spec, shared) as JsonObject;
    const seen = new Map<string, string>();
    return targets.map(({ reference, at, produces }): SecretSource => {
      const fields = fieldsOf[produces];
      const name = requiredString(reference[fields.name], `${at}.${fields.name}`);
      const namespace = requiredString(reference[fields.namespace], `${at}.${fields.namespace}`);
      const key = `${produces} ${namespace}/${name}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        throw new ItemError(
          `${at} names ${key} again (${earlier}): the operator would write it twice`,
          `${at}.${fields.name}`,
        );
      }
      seen.set(key, at);
      optionalObject(reference.template, `${at}.template`);
      const content: Json = { ...common, managed: normalize(reference, perObject) };
      return operatorSecret(resource, config, {
        produces,
        secretName: name,
        namespace,
        // Keys come from the project (or the template with includeAllSecrets): never narrowed.
        content: () => content,
      });
    });
  },
};
