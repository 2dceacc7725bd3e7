// A Secret or ConfigMap that is itself in the input (opt-in, under an annotation of its own): it
// is its own source, with no store, and not ordered (Argo CD applies Secrets and ConfigMaps before
// workloads of the same wave).
import type { Resource } from '../../model/resource.js';
import type { ProducedKind } from '../workloads/references.js';
import type { SecretSource } from './source.js';

export function inInput(
  resource: Resource,
  produces: ProducedKind,
  annotation: string,
  fields: Pick<SecretSource, 'content' | 'producedKeys'>,
): SecretSource {
  return {
    resource,
    produces,
    namespace: resource.namespace,
    secretName: resource.name,
    annotation,
    ordered: false,
    stores: [],
    notes: [],
    ...fields,
  };
}
