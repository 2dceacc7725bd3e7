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
  // Field by field, not defaults and a spread of `fields`: a literal copying a spread took about
  // 3 µs per source on the dense bench (1,667 ExternalSecrets), most of findProducers' own time.
  const source: SecretSource = {
    resource,
    produces: fields.produces ?? 'Secret',
    // A cluster kind's source names its namespace, which may be none.
    namespace: 'namespace' in fields ? fields.namespace : resource.namespace,
    annotation: config.checksumAnnotation,
    ordered: true,
    stores: fields.stores ?? [],
    notes: fields.notes ?? [],
    producedKeys: fields.producedKeys ?? noKeys,
    secretName: fields.secretName,
    content: fields.content,
  };
  if (fields.writtenKind !== undefined) source.writtenKind = fields.writtenKind;
  if (fields.dependencies !== undefined) source.dependencies = fields.dependencies;
  if (fields.ownAnnotations !== undefined) source.ownAnnotations = fields.ownAnnotations;
  return source;
}

const noKeys = () => undefined;
