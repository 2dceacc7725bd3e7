// The tables of kinds the planner knows. A new source is one module plus one line here.
import type { Resource } from '../../model/resource.js';
import { inGroup } from '../../model/scope.js';
import type { ProducedKind } from '../workloads/references.js';
import { bitwardenSecret } from './bitwarden-secret.js';
import { clusterExternalSecret } from './cluster-external-secret.js';
import { configMap } from './config-map.js';
import { dopplerSecret } from './doppler-secret.js';
import { externalSecret } from './external-secret.js';
import { hcpVaultSecretsApp } from './hcp-vault-secrets-app.js';
import { infisicalSecret } from './infisical-secret.js';
import { kubernetesExternalSecret } from './kes.js';
import { onePasswordItem } from './onepassword-item.js';
import { sealedSecret } from './sealed-secret.js';
import { secret } from './secret.js';
import { secretProviderClass } from './secret-provider-class.js';
import type { InputRead, SecretSource, SourceKind } from './source.js';
import { vaultDynamicSecret } from './vault-dynamic-secret.js';
import { vaultPkiSecret } from './vault-pki-secret.js';
import { vaultStaticSecret } from './vault-static-secret.js';

export const sourceKinds: readonly SourceKind[] = [
  externalSecret,
  clusterExternalSecret,
  kubernetesExternalSecret,
  sealedSecret,
  vaultStaticSecret,
  vaultDynamicSecret,
  vaultPkiSecret,
  hcpVaultSecretsApp,
  onePasswordItem,
  dopplerSecret,
  bitwardenSecret,
  infisicalSecret,
  secretProviderClass,
  configMap,
  secret,
];

/** Stores are ordered before the sources that read from them. */
export const storeKinds: readonly { group: string; kind: string; clusterScoped: boolean }[] = [
  { group: 'external-secrets.io', kind: 'SecretStore', clusterScoped: false },
  { group: 'external-secrets.io', kind: 'ClusterSecretStore', clusterScoped: true },
];

/** Groups of kinds sources read whole from the input (ESO generators: their spec is hashed). */
export const dependencyGroups: ReadonlySet<string> = new Set(['generators.external-secrets.io']);

export function sourceKindOf(resource: Resource): SourceKind | undefined {
  return kindOf(sourceKinds, resource);
}

export function storeKindOf(resource: Resource) {
  return kindOf(storeKinds, resource);
}

/** The table's row for the item's kind: a loop, not a closure per item and table (several stages ask). */
function kindOf<T extends { group: string; kind: string }>(
  table: readonly T[],
  { apiVersion, kind }: Resource,
): T | undefined {
  for (let i = 0; i < table.length; i++) {
    const row = table[i] as T;
    if (row.kind === kind && inGroup(apiVersion, row.group)) return row;
  }
  return undefined;
}

/**
 * The sources each source reads from the input by name (ESO templateFrom), by the source read:
 * a Secret another ExternalSecret renders from is read, though no pod names it.
 */
export function inputReaders(
  sources: readonly SecretSource[],
  producing: (
    kind: ProducedKind,
    namespace: string | undefined,
    name: string,
  ) => readonly SecretSource[] | undefined,
): Map<SecretSource, Set<Resource>> {
  const readers = new Map<SecretSource, Set<Resource>>();
  // Read once per resource: a ClusterExternalSecret is a source in each namespace it selects, and
  // its spec walked for each cost namespaces × its dataFrom entries.
  const readsOf = new Map<Resource, readonly InputRead[]>();
  for (const reader of sources) {
    let reads = readsOf.get(reader.resource);
    if (reads === undefined) {
      reads = sourceKindOf(reader.resource)?.inputReads?.(reader.resource) ?? [];
      readsOf.set(reader.resource, reads);
    }
    for (const { kind, name } of reads) {
      for (const source of producing(kind, reader.namespace, name) ?? []) {
        readers.set(source, (readers.get(source) ?? new Set()).add(reader.resource));
      }
    }
  }
  return readers;
}
