// Legacy Kubernetes External Secrets (KES, kubernetes-client.io/v1 ExternalSecret; archived). The
// Secret is always named after the ExternalSecret (KES has no target name).
import type { JsonObject } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import { kesMigration } from '../../model/result-rules.js';
import { resourceResult } from '../../model/results.js';
import {
  listContent,
  objectField,
  optionalList,
  optionalObject,
  optionalString,
  requiredString,
} from './fields.js';
import { type NormalizeRule, normalize } from './normalize.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';

/**
 * Everything in the spec decides the Secret (backend and its options, data, dataFrom,
 * dataFromWithOptions, template, type) except `controllerId`, which picks the KES instance that
 * syncs it. Defaults from the CRD and the controller: kvVersion 2, isBinary/recursive/keyByName
 * false.
 */
const rules: readonly NormalizeRule[] = [
  { path: '', drop: ['controllerId'], defaults: { kvVersion: 2, keyByName: false } },
  { path: 'data[]', defaults: { isBinary: false, recursive: false } },
  { path: 'dataFromWithOptions[]', defaults: { isBinary: false } },
];

/** ESO's provider for each KES backendType. */
const esoProviders: Readonly<Record<string, string>> = {
  secretsManager: 'aws (service: SecretsManager)',
  systemManager: 'aws (service: ParameterStore)',
  vault: 'vault',
  azureKeyVault: 'azurekv',
  gcpSecretsManager: 'gcpsm',
  alicloudSecretsManager: 'alibaba',
  ibmcloudSecretsManager: 'ibm',
  akeyless: 'akeyless',
};

export const kubernetesExternalSecret: SourceKind = {
  group: 'kubernetes-client.io',
  kind: 'ExternalSecret',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const backendType = optionalString(spec.backendType, 'spec.backendType');
    const data = optionalList(spec.data, 'spec.data').map((entry, i) => {
      const field = `spec.data[${i}]`;
      const item = objectField({ entry }, 'entry', field);
      if (item.path !== undefined && item.path !== null) {
        requiredString(item.path, `${field}.path`);
        return { name: undefined };
      }
      requiredString(item.key, `${field}.key`);
      return { name: requiredString(item.name, `${field}.name`) };
    });
    optionalList(spec.dataFrom, 'spec.dataFrom').forEach((key, i) => {
      requiredString(key, `spec.dataFrom[${i}]`);
    });
    optionalList(spec.dataFromWithOptions, 'spec.dataFromWithOptions').forEach((entry, i) => {
      const field = `spec.dataFromWithOptions[${i}]`;
      requiredString(objectField({ entry }, 'entry', field).key, `${field}.key`);
    });
    optionalObject(spec.template, 'spec.template');
    const normalized = normalize(spec, rules) as JsonObject;
    if (
      normalized.data === undefined &&
      normalized.dataFrom === undefined &&
      normalized.dataFromWithOptions === undefined
    ) {
      throw new ItemError('has none of spec.data, spec.dataFrom, spec.dataFromWithOptions', 'spec');
    }
    if (resource.name === '') throw new ItemError('has no metadata.name', 'metadata.name');

    // Per key only when data[] entries with a name alone decide the Secret's keys.
    const narrowable =
      data.every((d) => d.name !== undefined) &&
      normalized.template === undefined &&
      normalized.dataFrom === undefined &&
      normalized.dataFromWithOptions === undefined;
    // A known backendType is named; any other text of the input is not (messages quote none).
    const known = backendType !== undefined && Object.hasOwn(esoProviders, backendType);
    const provider = known ? esoProviders[backendType] : 'the matching provider';
    const migrate =
      `KES is archived; migrate to ESO: apiVersion external-secrets.io/v1, ` +
      `kind ExternalSecret; ${known ? `backendType ${backendType}` : 'spec.backendType'} and its options → a ` +
      `SecretStore or ClusterSecretStore with provider ${provider}, named in spec.secretStoreRef; ` +
      'data[].key/property/version → data[].remoteRef.key/property/version, data[].name → ' +
      'data[].secretKey; dataFrom[] → dataFrom[].extract.key; template → spec.target.template';
    return operatorSecret(resource, config, {
      secretName: resource.name,
      notes: [resourceResult(kesMigration, resource, migrate)],
      content: listContent(normalized, 'data', 'name', narrowable),
      // When narrowable, data[].name alone names the Secret's keys.
      producedKeys: () =>
        narrowable && data.length > 0 ? new Set(data.map((d) => d.name as string)) : undefined,
    });
  },
};
