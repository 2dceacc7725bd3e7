// Plain Secrets (v1), opt-in with `secretChecksumAnnotation`. The content is one digest per key
// (SHA-256, or HMAC-SHA256 with `secretChecksumKey`), never the values. Not ordered: Argo CD
// applies Secrets before workloads of the same wave.
import type { Config } from '../../model/config.js';
import loadCrypto from '../../model/load-crypto.cjs';
import { fieldPath } from '../../model/path.js';
import { ItemError, type Json, type Resource } from '../../model/resource.js';
import type { KeySet } from '../workloads/references.js';
import { optionalString, pickKeys, stringMap } from './fields.js';
import { inInput } from './in-input.js';
import { type NormalizeRule, normalize } from './normalize.js';
import type { SourceKind } from './source.js';

/** Content: the type (default Opaque) and a digest per key; metadata and `immutable` are not. */
const rules: readonly NormalizeRule[] = [{ path: '', defaults: { type: 'Opaque' } }];

/** Standard base64, as the API server decodes `data` (line breaks ignored). */
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const secret: SourceKind = {
  group: '',
  kind: 'Secret',
  read(resource, { config }) {
    if (config.secretChecksumAnnotation === '') return [];
    const digests = secretDigests(resource, config);
    const type = optionalString(resource.value.type, 'type') ?? null;
    if (resource.name === '') throw new ItemError('has no metadata.name', 'metadata.name');
    return inInput(resource, 'Secret', config.secretChecksumAnnotation, {
      // The whole Secret is in the input: its keys are exactly data ∪ stringData, except that the
      // token controller fills a service-account-token Secret (token, ca.crt, namespace).
      producedKeys: () =>
        type === 'kubernetes.io/service-account-token' ? undefined : new Set(Object.keys(digests)),
      content: (keys: KeySet): Json => normalize({ type, data: pickKeys(digests, keys) }, rules),
    });
  },
};

/**
 * A digest per key of a Secret's `data` and `stringData` (SHA-256, or HMAC-SHA256 with
 * `secretChecksumKey`): what stands for its values wherever a Secret's content is hashed.
 */
export function secretDigests(resource: Resource, config: Config): Record<string, string> {
  const { createHash, createHmac } = loadCrypto();
  const digest = (value: Buffer) =>
    config.secretChecksumKey === ''
      ? createHash('sha256').update(value).digest('hex')
      : createHmac('sha256', config.secretChecksumKey).update(value).digest('hex');
  const digests: Record<string, string> = {};
  for (const [key, value] of Object.entries(stringMap(resource.value.data, 'data'))) {
    const text = (value as string).replace(/\r?\n/g, '');
    if (!base64.test(text)) {
      const at = fieldPath(['data'], key);
      throw new ItemError(`${at} is not base64`, at);
    }
    digests[key] = digest(Buffer.from(text, 'base64'));
  }
  // stringData is written over data by the API server.
  for (const [key, value] of Object.entries(stringMap(resource.value.stringData, 'stringData'))) {
    digests[key] = digest(Buffer.from(value as string, 'utf8'));
  }
  return digests;
}
