// Bitwarden Secrets Manager operator BitwardenSecret (k8s.bitwarden.com/v1): syncs the secrets a
// machine account sees into `spec.secretName` in its namespace, type Opaque
// (internal/controller/bitwardensecret_controller.go).
import type { JsonObject } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import {
  listContent,
  objectField,
  optionalBoolean,
  optionalList,
  requiredString,
} from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';

/**
 * Everything in the spec decides the Secret: organizationId, the auth token Secret and key
 * (which machine account, so which secrets), map (renames), onlyMappedSecrets, useSecretNames.
 * Defaults (CRD): onlyMappedSecrets true, useSecretNames false. The refresh interval is the
 * operator's, not the resource's.
 */
const rules: readonly NormalizeRule[] = [
  { path: '', defaults: { onlyMappedSecrets: true, useSecretNames: false } },
];

export const bitwardenSecret: SourceKind = {
  group: 'k8s.bitwarden.com',
  kind: 'BitwardenSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const secretName = requiredString(spec.secretName, 'spec.secretName');
    requiredString(spec.organizationId, 'spec.organizationId');
    const auth = objectField(spec, 'authToken', 'spec.authToken');
    requiredString(auth.secretName, 'spec.authToken.secretName');
    requiredString(auth.secretKey, 'spec.authToken.secretKey');
    const map = optionalList(spec.map, 'spec.map').map((entry, i) => {
      const at = `spec.map[${i}]`;
      const m = objectField({ entry }, 'entry', at);
      requiredString(m.bwSecretId, `${at}.bwSecretId`);
      return requiredString(m.secretKeyName, `${at}.secretKeyName`);
    });
    const onlyMapped = optionalBoolean(spec.onlyMappedSecrets, 'spec.onlyMappedSecrets') ?? true;
    const useNames = optionalBoolean(spec.useSecretNames, 'spec.useSecretNames') ?? false;
    if (onlyMapped && useNames) {
      // The operator refuses the pair (its reconcile fails).
      throw new ItemError(
        'spec.useSecretNames needs spec.onlyMappedSecrets: false (it defaults to true)',
        'spec.useSecretNames',
      );
    }
    // Only mapped secrets, under their mapped names: the map alone decides the keys
    // (ApplySecretMap in internal/controller/bitwardensecret_controller.go).
    const mappedOnly = onlyMapped;
    const normalized = normalize(spec, rules) as JsonObject;
    return operatorSecret(resource, config, {
      secretName,
      content: listContent(normalized, 'map', 'secretKeyName', mappedOnly),
      producedKeys: () => (mappedOnly ? new Set(map) : undefined),
    });
  },
};
