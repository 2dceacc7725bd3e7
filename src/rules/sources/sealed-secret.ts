// Bitnami SealedSecret (bitnami.com/v1alpha1). The controller always names the Secret after the
// SealedSecret, in its namespace: Unseal() overwrites whatever spec.template.metadata says.
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import { sealedSecretMetadata } from '../../model/result-rules.js';
import { type Result, resourceResult } from '../../model/results.js';
import type { KeySet } from '../workloads/references.js';
import { objectField, optionalObject, optionalString, pickKeys, stringMap } from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';

/**
 * Content: the ciphertexts, the deprecated whole-Secret `data` blob, and `template` `type` and
 * `data` (keys templated from the decrypted values; null deletes a key). Not content: the
 * template's `metadata` (labels and annotations of the Secret, which pods cannot read; its name
 * and namespace are ignored) and `immutable`. Default: type Opaque.
 */
const rules: readonly NormalizeRule[] = [
  { path: 'template', drop: ['metadata', 'immutable', 'data'], defaults: { type: 'Opaque' } },
];

/** `sealedsecrets.bitnami.com/managed` or `/patch`, on the SealedSecret or its template. */
function takesOver(
  annotations: Readonly<Record<string, string>>,
  template: JsonObject | undefined,
) {
  const onTemplate = isObject(template?.annotations) ? template.annotations : {};
  return [annotations, onTemplate].some((a) =>
    Object.keys(a).some((k) => /^sealedsecrets\.bitnami\.com\/(managed|patch)$/.test(k)),
  );
}

export const sealedSecret: SourceKind = {
  group: 'bitnami.com',
  kind: 'SealedSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const encryptedData = stringMap(spec.encryptedData, 'spec.encryptedData') as Record<
      string,
      string
    >;
    optionalString(spec.data, 'spec.data');
    const template = optionalObject(spec.template, 'spec.template');
    const metadata = optionalObject(template?.metadata, 'spec.template.metadata');
    optionalString(template?.type, 'spec.template.type');
    // null values are kept: they delete a key, which pruning would hide.
    const templateData = stringMap(template?.data, 'spec.template.data', { nullable: true });
    if (resource.name === '') throw new ItemError('has no metadata.name', 'metadata.name');

    const notes: Result[] = [];
    for (const [field, actual] of [
      ['name', resource.name],
      ['namespace', resource.namespace],
    ] as const) {
      const written = optionalString(metadata?.[field], `spec.template.metadata.${field}`);
      if (written && written !== actual) {
        const message = `spec.template.metadata.${field} ${written} is ignored: the controller writes the Secret to the SealedSecret's ${field} (${actual ?? 'unset'})`;
        notes.push(
          resourceResult(sealedSecretMetadata, resource, message, {
            path: `spec.template.metadata.${field}`,
          }),
        );
      }
    }

    const { encryptedData: _e, ...rest } = normalize(spec, rules) as JsonObject;
    const hasTemplateData = Object.keys(templateData).length > 0;
    // Per key only when the encrypted keys alone make the Secret (no template data, no old blob).
    const narrowable = !hasTemplateData && rest.data === undefined;
    const keysKnown = narrowable && !takesOver(resource.annotations, metadata);
    return operatorSecret(resource, config, {
      secretName: resource.name,
      notes,
      // The controller decrypts each encryptedData key into a Secret key of the same name. An
      // existing Secret it is told to take over or patch (annotations) may keep keys of its own.
      producedKeys: () => (keysKnown ? new Set(Object.keys(encryptedData)) : undefined),
      content(keys: KeySet): Json {
        const content: JsonObject = { ...rest };
        const picked = pickKeys(encryptedData, narrowable ? keys : 'all');
        if (Object.keys(picked).length > 0) content.encryptedData = picked;
        if (hasTemplateData)
          content.template = { ...(rest.template as JsonObject), data: templateData };
        return content;
      },
    });
  },
};
