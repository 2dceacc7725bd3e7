// Plain Secrets (v1), opt-in with `secretChecksumAnnotation`. Without `secretChecksumKey` the
// content is the type and the key names: an unkeyed digest of a guessable value (a PIN, a short
// password) is reversed by brute force in seconds by anyone who can read the pods (README
// "Checksum"), so no digest of a value is written at all. With the key: an HMAC-SHA256 per key.
// Not ordered: Argo CD applies Secrets before workloads of the same wave.
import type { Config } from '../../model/config.js';
import { hmacSha256Hex } from '../../model/hash.js';
import type { Json } from '../../model/json.js';
import { fieldPath } from '../../model/path.js';
import { ItemError, type Resource } from '../../model/resource.js';
import type { KeySet } from '../workloads/references.js';
import { optionalString, pickKeys, pickList, stringMap } from './fields.js';
import { inInput } from './in-input.js';
import { type NormalizeRule, normalize } from './normalize.js';
import type { Inventory, SourceKind } from './source.js';

/** Content: the type (default Opaque) and the keys; metadata and `immutable` are not. */
const rules: readonly NormalizeRule[] = [{ path: '', defaults: { type: 'Opaque' } }];

/** Standard base64, as the API server decodes `data` (line breaks ignored). */
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const secret: SourceKind = {
  group: '',
  kind: 'Secret',
  read(resource, inventory) {
    const { config } = inventory;
    if (config.secretChecksumAnnotation === '') return [];
    const values = secretValues(resource, inventory);
    const type = optionalString(resource.value.type, 'type') ?? null;
    if (resource.name === '') throw new ItemError('has no metadata.name', 'metadata.name');
    return inInput(resource, 'Secret', config.secretChecksumAnnotation, {
      // The whole Secret is in the input: its keys are exactly data ∪ stringData, except that the
      // token controller fills a service-account-token Secret (token, ca.crt, namespace).
      producedKeys: () =>
        type === 'kubernetes.io/service-account-token' ? undefined : new Set(values.keys),
      content: (keys: KeySet): Json =>
        normalize(
          values.digests
            ? { type, data: pickKeys(values.digests, keys) }
            : { type, keys: keys === 'all' ? [...values.keys] : pickList(values.keys, keys) },
          rules,
        ),
    });
  },
};

/** What of a Secret's `data` and `stringData` a checksum may hold. */
export interface SecretValues {
  /** Its keys, sorted. */
  keys: string[];
  /** An HMAC-SHA256 per key with `secretChecksumKey`; without it none (`undefined`). */
  digests: Record<string, string> | undefined;
}

/**
 * Each Secret's, worked out once per run: a Secret that many ExternalSecrets template from, and
 * that is a source itself, is hashed once, so the cost stays linear in the input. Kept with the
 * key they were made with (a Resource can be planned again with other options).
 */
const read = new WeakMap<Resource, { key: string; values: SecretValues }>();

/**
 * What stands for a Secret's values wherever its content is hashed. Without `secretChecksumKey`
 * only the key names; the Secret is then told to the inventory (`unkeyed`), which names it in the
 * run's one warning. `data` is checked to be base64 either way: the API server refuses it too.
 */
export function secretValues(resource: Resource, inventory: Inventory): SecretValues {
  const key = inventory.config.secretChecksumKey;
  let cached = read.get(resource);
  if (cached?.key !== key) {
    cached = { key, values: valuesOf(resource, inventory.config) };
    read.set(resource, cached);
  }
  const { values } = cached;
  if (!values.digests && values.keys.length > 0) inventory.unkeyed(resource);
  return values;
}

function valuesOf(resource: Resource, config: Config): SecretValues {
  const hmac = digester(config);
  // No prototype: `__proto__` is a valid Secret key, which a plain object would swallow.
  const digests: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(stringMap(resource.value.data, 'data'))) {
    const text = (value as string).replace(/\r?\n/g, '');
    if (!base64.test(text)) {
      const at = fieldPath(['data'], key);
      throw new ItemError(`${at} is not base64`, at);
    }
    digests[key] = hmac ? hmac(Buffer.from(text, 'base64')) : '';
  }
  // stringData is written over data by the API server.
  for (const [key, value] of Object.entries(stringMap(resource.value.stringData, 'stringData'))) {
    digests[key] = hmac ? hmac(Buffer.from(value as string, 'utf8')) : '';
  }
  const keys = Object.keys(digests).sort();
  return { keys, digests: hmac ? digests : undefined };
}

function digester(config: Config): ((value: Buffer) => string) | undefined {
  const key = config.secretChecksumKey;
  if (key === '') return undefined;
  return (value) => hmacSha256Hex(key, value);
}
