// The common case: a resource from which an operator writes a Secret (by default in the resource's
// own namespace), ordered before its consumers, its checksum under `checksumAnnotation`.
import type { Config } from '../../model/config.js';
import type { Resource } from '../../model/resource.js';
import type { SecretSource } from './source.js';

type Fields = Pick<SecretSource, 'secretName' | 'content'> &
  Partial<
    Pick<
      SecretSource,
      | 'produces'
      | 'writtenKind'
      | 'namespace'
      | 'stores'
      | 'notes'
      | 'producedKeys'
      | 'dependencies'
      | 'ownAnnotations'
    >
  >;

export function operatorSecret(resource: Resource, config: Config, fields: Fields): SecretSource {
  return {
    resource,
    produces: 'Secret',
    namespace: resource.namespace,
    annotation: config.checksumAnnotation,
    ordered: true,
    stores: [],
    notes: [],
    producedKeys: () => undefined,
    ...fields,
  };
}
