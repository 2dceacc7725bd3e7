// Doppler DopplerSecret (secrets.doppler.com/v1alpha1): syncs a Doppler config into
// `spec.managedSecret.name` in `spec.managedSecret.namespace`, which defaults to the
// DopplerSecret's own namespace (controllers/dopplersecret_controller.go).
import { isObject, type JsonObject } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import { objectField, optionalObject, optionalString, requiredString } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';

/**
 * Content: the token Secret or identity, project, config, secrets, processors, nameTransformer,
 * format, host and the Secret's type. Not content: when it syncs (resyncSeconds), TLS
 * verification (verifyTLS), the identity token's lifetime (expirationSeconds), the Secret's
 * labels and annotations; its name and namespace say which Secret, not what is in it. Defaults
 * (CRD): host https://api.doppler.com, managedSecret.type Opaque, processor type plain.
 */
const rules: readonly NormalizeRule[] = [
  {
    path: '',
    drop: ['resyncSeconds', 'verifyTLS', 'expirationSeconds'],
    defaults: { host: 'https://api.doppler.com' },
  },
  {
    path: 'managedSecret',
    drop: ['name', 'namespace', 'labels', 'annotations'],
    defaults: { type: 'Opaque' },
  },
];

/** With a format, the operator stores the whole download under this one key. */
const fileKey = 'DOPPLER_SECRETS_FILE';

export const dopplerSecret: SourceKind = {
  group: 'secrets.doppler.com',
  kind: 'DopplerSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const managed = objectField(spec, 'managedSecret', 'spec.managedSecret');
    const secretName = requiredString(managed.name, 'spec.managedSecret.name');
    const namespace =
      optionalString(managed.namespace, 'spec.managedSecret.namespace') || resource.namespace;
    const token = optionalObject(spec.tokenSecret, 'spec.tokenSecret');
    const identity = optionalString(spec.identity, 'spec.identity');
    // The CRD's rule: exactly one of them.
    if ((token === undefined) === (identity === undefined)) {
      throw new ItemError('set exactly one of spec.tokenSecret and spec.identity', 'spec');
    }
    if (token) requiredString(token.name, 'spec.tokenSecret.name');
    const processors = optionalObject(spec.processors, 'spec.processors') ?? {};
    for (const [name, processor] of Object.entries(processors)) {
      optionalObject(processor, `spec.processors.${name}`);
    }
    const format = optionalString(spec.format, 'spec.format');

    const normalized = normalize(spec, rules) as JsonObject;
    // The token Secret's namespace defaults to the DopplerSecret's.
    const tokenRef = normalized.tokenSecret;
    if (isObject(tokenRef) && tokenRef.namespace === resource.namespace) delete tokenRef.namespace;
    // Processors are a mapping by Doppler secret name, each with `type` defaulting to plain.
    if (isObject(normalized.processors)) {
      for (const processor of Object.values(normalized.processors)) {
        if (isObject(processor) && processor.type === 'plain') delete processor.type;
      }
    }
    const content = normalize(normalized, []);
    return operatorSecret(resource, config, {
      secretName,
      namespace,
      content: () => content,
      producedKeys: () => (format ? new Set([fileKey]) : undefined),
    });
  },
};
