// Operator resources that read Secrets (issue #23 §2): the fields of widely used CRDs (and
// PersistentVolume) that name a Secret their controller reads, plus the `secretReferences` option.
// For ordering and lints only, never a checksum: each controller re-reads the Secret itself. Every
// row was checked against the project's own Go types or CRD at the commit its group's comment
// names (docs/operators.md "Secret readers" has the files read); docs/secret-readers.md renders this table.
import type { SecretReader } from '../../model/config.js';
import { addTo } from '../../model/fold.js';
import { isObject } from '../../model/json.js';
import { fieldPath, getPath, type Path, parsePath, walk } from '../../model/path.js';
import { describeType, ItemError, type Resource } from '../../model/resource.js';
import { groupOf } from '../../model/scope.js';
import { kindKey } from './shapes.js';

/**
 * Where a row's Secret lives: the reader's own namespace; the value at `beside` (keys from the
 * mapping that holds the name), else the reader's own (none for a cluster-scoped reader: no
 * Secret is looked up); or a fixed namespace.
 */
export type ReaderNamespace = 'own' | { beside: string } | { fixed: string };
/** A `namespace` key beside the name (SecretKeySelector, SecretReference). */
const beside: ReaderNamespace = { beside: 'namespace' };

export interface ReaderField {
  group: string;
  kind: string;
  /** The path to the Secret's name (a string), in the one path syntax (model/path.ts). */
  path: string;
  namespace: ReaderNamespace;
}

const rows = (
  group: string,
  kinds: readonly (readonly [kind: string, namespace: ReaderNamespace])[],
  paths: readonly string[],
): ReaderField[] =>
  kinds.flatMap(([kind, namespace]) => paths.map((path) => ({ group, kind, path, namespace })));

// external-secrets/external-secrets @ cc5bfbc2, apis/generators/v1alpha1/types_*.go. A
// namespaced generator reads in its own namespace: generators resolve with EmptyStoreKind
// (runtime/esutils/resolvers/secret_ref.go SecretKeyRef honours `namespace` for a
// ClusterSecretStore only; generators/v1/github/github.go reads `{name, generator namespace}`).
// QuayAccessToken reads a ServiceAccount, no Secret; Password, UUID, SSHKey, Fake, MFA read none
// by name. ClusterGenerator is left out: it reads in the namespace of each ExternalSecret.
const generators = 'generators.external-secrets.io';
const own = (kind: string) => [[kind, 'own']] as const;
const awsAuth = ['accessKeyIDSecretRef', 'secretAccessKeySecretRef', 'sessionTokenSecretRef'];
const esoGenerators: ReaderField[] = [
  ...rows(generators, own('GithubAccessToken'), ['spec.auth.privateKey.secretRef.name']),
  ...rows(
    generators,
    [...own('ECRAuthorizationToken'), ...own('STSSessionToken')],
    awsAuth.map((ref) => `spec.auth.secretRef.${ref}.name`),
  ),
  ...rows(generators, own('GCRAccessToken'), ['spec.auth.secretRef.secretAccessKeySecretRef.name']),
  ...rows(generators, own('ACRAccessToken'), [
    'spec.auth.servicePrincipal.secretRef.clientId.name',
    'spec.auth.servicePrincipal.secretRef.clientSecret.name',
  ]),
  ...rows(generators, own('GitlabDeployToken'), ['spec.auth.token.secretRef.name']),
  ...rows(generators, own('Grafana'), ['spec.auth.token.name', 'spec.auth.basic.password.name']),
  ...rows(generators, own('VaultDynamicSecret'), [
    'spec.provider.auth.tokenSecretRef.name',
    'spec.provider.auth.appRole.secretRef.name',
    'spec.provider.auth.kubernetes.secretRef.name',
    'spec.provider.auth.ldap.secretRef.name',
  ]),
  ...rows(generators, own('Webhook'), [
    'spec.secrets[].secretRef.name',
    'spec.auth.ntlm.usernameSecret.name',
    'spec.auth.ntlm.passwordSecret.name',
  ]),
];

// external-secrets/external-secrets @ cc5bfbc2, apis/externalsecrets/v1/secretstore_types.go
// (provider keys) and secretstore_{vault,aws,gcpsm,azurekv,onepassword,kubernetes,doppler}_types.go;
// apis/meta/v1/types.go SecretKeySelector: `namespace` counts for a ClusterSecretStore only. The
// seven providers most stores use; any other is one `secretReferences` entry away. A
// ClusterSecretStore ref without `namespace` reads in each ExternalSecret's namespace: not
// resolved here (no order, never a wrong one).
const esoStores: ReaderField[] = rows(
  'external-secrets.io',
  [
    ['SecretStore', 'own'],
    ['ClusterSecretStore', beside],
  ],
  [
    'vault.auth.tokenSecretRef',
    'vault.auth.appRole.secretRef',
    'vault.auth.kubernetes.secretRef',
    ...awsAuth.map((ref) => `aws.auth.secretRef.${ref}`),
    'gcpsm.auth.secretRef.secretAccessKeySecretRef',
    'azurekv.authSecretRef.clientId',
    'azurekv.authSecretRef.clientSecret',
    'onepassword.auth.secretRef.connectTokenSecretRef',
    'kubernetes.auth.token.bearerToken',
    'doppler.auth.secretRef.dopplerToken',
  ].map((ref) => `spec.provider.${ref}.name`),
);

// cloudnative-pg/barman-cloud @ 950b0f57 (the version cloudnative-pg's go.mod names),
// pkg/api/config.go BarmanObjectStoreConfiguration: credentials inline, each a SecretKeySelector.
const barman = [
  's3Credentials.accessKeyId',
  's3Credentials.secretAccessKey',
  's3Credentials.region',
  's3Credentials.sessionToken',
  'azureCredentials.connectionString',
  'azureCredentials.storageAccount',
  'azureCredentials.storageKey',
  'azureCredentials.storageSasToken',
  'googleCredentials.applicationCredentials',
  'endpointCA',
];
// cloudnative-pg/cloudnative-pg @ a95a534d, api/v1/cluster_types.go (every reference a local
// one: the Cluster's namespace). ScheduledBackup (api/v1/scheduledbackup_types.go) names only its
// Cluster: no Secret. ObjectStore: cloudnative-pg/plugin-barman-cloud @ 9967e2ca,
// api/v1/objectstore_types.go `spec.configuration`.
const cnpg: ReaderField[] = [
  ...rows('postgresql.cnpg.io', own('Cluster'), [
    'spec.superuserSecret.name',
    'spec.bootstrap.initdb.secret.name',
    'spec.bootstrap.recovery.secret.name',
    'spec.bootstrap.pg_basebackup.secret.name',
    'spec.certificates.serverCASecret',
    'spec.certificates.serverTLSSecret',
    'spec.certificates.replicationTLSSecret',
    'spec.certificates.clientCASecret',
    ...barman.map((ref) => `spec.backup.barmanObjectStore.${ref}.name`),
    'spec.externalClusters[].password.name',
    'spec.externalClusters[].sslCert.name',
    'spec.externalClusters[].sslKey.name',
    'spec.externalClusters[].sslRootCert.name',
    ...barman.map((ref) => `spec.externalClusters[].barmanObjectStore.${ref}.name`),
    'spec.managed.roles[].passwordSecret.name',
  ]),
  ...rows(
    'barmancloud.cnpg.io',
    own('ObjectStore'),
    barman.map((ref) => `spec.configuration.${ref}.name`),
  ),
];

// backube/volsync @ 5ca54dab, api/v1alpha1/replicationsource_types.go,
// replicationdestination_types.go, rsync_tls_types.go, common_types.go (CustomCASpec): plain
// Secret names in the resource's namespace.
const volsync: ReaderField[] = rows(
  'volsync.backube',
  [...own('ReplicationSource'), ...own('ReplicationDestination')],
  [
    'spec.restic.repository',
    'spec.restic.customCA.secretName',
    'spec.rclone.rcloneConfig',
    'spec.rclone.customCA.secretName',
    'spec.rsync.sshKeys',
    'spec.rsyncTLS.keySecret',
  ],
);

// kedacore/keda @ 8b4f083c, apis/keda/v1alpha1/triggerauthentication_types.go. A
// ClusterTriggerAuthentication reads in KEDA's cluster object namespace (pkg/util/env_resolver.go
// GetClusterObjectNamespace: KEDA_CLUSTER_OBJECT_NAMESPACE, else KEDA's own namespace): assumed
// `keda`, where KEDA's chart and docs install it.
const valueFrom = (at: string) => `${at}.valueFrom.secretKeyRef.name`;
const keda: ReaderField[] = rows(
  'keda.sh',
  [
    ['TriggerAuthentication', 'own'],
    ['ClusterTriggerAuthentication', { fixed: 'keda' }],
  ],
  [
    'spec.secretTargetRef[].name',
    valueFrom('spec.azureKeyVault.credentials.clientSecret'),
    valueFrom('spec.gcpSecretManager.credentials.clientSecret'),
    valueFrom('spec.awsSecretManager.credentials.accessKey'),
    valueFrom('spec.awsSecretManager.credentials.accessSecretKey'),
    valueFrom('spec.awsSecretManager.credentials.accessToken'),
    valueFrom('spec.oauth2.clientSecret'),
  ],
);

// cert-manager/cert-manager @ 2d0d7f7f, pkg/apis/certmanager/v1/types_issuer.go and
// pkg/apis/acme/v1/types_issuer.go. A ClusterIssuer reads in the cluster resource namespace
// (--cluster-resource-namespace; the chart passes its own namespace,
// deploy/charts/cert-manager/templates/deployment.yaml): assumed `cert-manager`, where the docs
// install it. `acme.privateKeySecretRef` is left out: cert-manager WRITES that Secret (the ACME
// account key) when it is missing, so nothing need exist before the Issuer.
const dns01 = [
  'cloudflare.apiTokenSecretRef',
  'cloudflare.apiKeySecretRef',
  'route53.accessKeyIDSecretRef',
  'route53.secretAccessKeySecretRef',
  'azureDNS.clientSecretSecretRef',
  'cloudDNS.serviceAccountSecretRef',
  'digitalocean.tokenSecretRef',
  'rfc2136.tsigSecretSecretRef',
  'acmeDNS.accountSecretRef',
  'akamai.clientTokenSecretRef',
  'akamai.clientSecretSecretRef',
  'akamai.accessTokenSecretRef',
];
const certManager: ReaderField[] = rows(
  'cert-manager.io',
  [
    ['Issuer', 'own'],
    ['ClusterIssuer', { fixed: 'cert-manager' }],
  ],
  [
    'spec.ca.secretName',
    'spec.acme.externalAccountBinding.keySecretRef.name',
    ...dns01.map((ref) => `spec.acme.solvers[].dns01.${ref}.name`),
    'spec.vault.auth.tokenSecretRef.name',
    'spec.vault.auth.appRole.secretRef.name',
    'spec.vault.auth.kubernetes.secretRef.name',
    'spec.vault.auth.clientCertificate.secretName',
    'spec.vault.caBundleSecretRef.name',
    'spec.vault.clientCertSecretRef.name',
    'spec.vault.clientKeySecretRef.name',
  ],
);

// crossplane-contrib/provider-kubernetes @ 350ef9ac, package/crds/kubernetes.crossplane.io_
// providerconfigs.yaml (cluster-scoped) and kubernetes.m.crossplane.io_{,cluster}providerconfigs
// .yaml (Crossplane v2): `secretRef` has a required `namespace`. Other providers (Upbound's
// aws.upbound.io, …) share crossplane-runtime's `spec.credentials.secretRef` shape but were not
// checked here: one `secretReferences` entry each.
const crossplane: ReaderField[] = [
  ...rows(
    'kubernetes.crossplane.io',
    [['ProviderConfig', beside]],
    ['spec.credentials.secretRef.name', 'spec.identity.secretRef.name'],
  ),
  ...rows(
    'kubernetes.m.crossplane.io',
    [
      ['ProviderConfig', beside],
      ['ClusterProviderConfig', beside],
    ],
    ['spec.credentials.secretRef.name', 'spec.identity.secretRef.name'],
  ),
];

// kubernetes/api @ 10b39a39, core/v1/types.go CSIPersistentVolumeSource: SecretReference
// {name, namespace}; a PersistentVolume is cluster-scoped, so the namespace is the field's.
const persistentVolume: ReaderField[] = rows(
  '',
  [['PersistentVolume', beside]],
  [
    'controllerPublishSecretRef',
    'nodeStageSecretRef',
    'nodePublishSecretRef',
    'controllerExpandSecretRef',
    'nodeExpandSecretRef',
  ].map((ref) => `spec.csi.${ref}.name`),
);

// Flux's own readers, all `meta.LocalObjectReference` in the resource's namespace:
// fluxcd/notification-controller @ 2e46958a, api/v1/receiver_types.go and
// api/v1beta3/provider_types.go; fluxcd/source-controller @ 39b711b1, api/v1/
// {gitrepository,ocirepository,ociverification,helmrepository,bucket}_types.go.
const flux: ReaderField[] = [
  ...rows('notification.toolkit.fluxcd.io', own('Receiver'), ['spec.secretRef.name']),
  ...rows('notification.toolkit.fluxcd.io', own('Provider'), [
    'spec.secretRef.name',
    'spec.certSecretRef.name',
    'spec.proxySecretRef.name',
  ]),
  ...rows('source.toolkit.fluxcd.io', own('GitRepository'), [
    'spec.secretRef.name',
    'spec.proxySecretRef.name',
    'spec.verify.secretRef.name',
  ]),
  ...rows('source.toolkit.fluxcd.io', own('OCIRepository'), [
    'spec.secretRef.name',
    'spec.certSecretRef.name',
    'spec.proxySecretRef.name',
    'spec.verify.secretRef.name',
  ]),
  ...rows('source.toolkit.fluxcd.io', own('HelmRepository'), [
    'spec.secretRef.name',
    'spec.certSecretRef.name',
  ]),
  ...rows('source.toolkit.fluxcd.io', own('Bucket'), [
    'spec.secretRef.name',
    'spec.certSecretRef.name',
    'spec.proxySecretRef.name',
  ]),
];

// prometheus-operator/prometheus-operator @ 6adcebc5, example/prometheus-operator-crd-full/
// monitoring.coreos.com_alertmanagerconfigs.yaml (generated from pkg/apis/monitoring/{v1alpha1,
// v1beta1}/alertmanager_config_types.go): v1alpha1 and v1beta1 name the same Secret fields, every
// one "in the same namespace as the AlertmanagerConfig object". A SecretOrConfigMap (`ca`,
// `cert`, `clientId`) reads a Secret under `secret` only. `spec.secrets` of Alertmanager and of
// Prometheus and PrometheusAgent (pkg/apis/monitoring/v1/alertmanager_types.go, prometheus_types.go
// CommonPrometheusFields): Secrets of their own namespace the operator mounts into their pods.
const tlsSecrets = (at: string) => [`${at}.ca.secret`, `${at}.cert.secret`, `${at}.keySecret`];
const httpConfig = [
  'authorization.credentials',
  'basicAuth.password',
  'basicAuth.username',
  'bearerTokenSecret',
  'oauth2.clientId.secret',
  'oauth2.clientSecret',
  ...tlsSecrets('oauth2.tlsConfig'),
  ...tlsSecrets('tlsConfig'),
].map((field) => `httpConfig.${field}`);
/** Each receiver's own Secret fields; all but email's also take an `httpConfig`. */
const receivers: readonly (readonly [receiver: string, fields: readonly string[]])[] = [
  ['discordConfigs', ['apiURL', ...httpConfig]],
  ['emailConfigs', ['authPassword', 'authSecret', ...tlsSecrets('tlsConfig')]],
  ['msteamsConfigs', ['webhookUrl', ...httpConfig]],
  ['msteamsv2Configs', ['webhookURL', ...httpConfig]],
  ['opsgenieConfigs', ['apiKey', ...httpConfig]],
  ['pagerdutyConfigs', ['routingKey', 'serviceKey', ...httpConfig]],
  ['pushoverConfigs', ['token', 'userKey', ...httpConfig]],
  ['rocketchatConfigs', ['token', 'tokenID', ...httpConfig]],
  ['slackConfigs', ['apiURL', ...httpConfig]],
  ['snsConfigs', ['sigv4.accessKey', 'sigv4.secretKey', ...httpConfig]],
  ['telegramConfigs', ['botToken', ...httpConfig]],
  ['victoropsConfigs', ['apiKey', ...httpConfig]],
  ['webexConfigs', httpConfig],
  ['webhookConfigs', ['urlSecret', ...httpConfig]],
  ['wechatConfigs', ['apiSecret', ...httpConfig]],
];
const monitoring = 'monitoring.coreos.com';
const prometheusOperator: ReaderField[] = [
  ...rows(
    monitoring,
    own('AlertmanagerConfig'),
    receivers.flatMap(([receiver, fields]) =>
      fields.map((field) => `spec.receivers[].${receiver}[].${field}.name`),
    ),
  ),
  // Without its configSecret's Secret the operator runs Alertmanager on a minimal configuration
  // that drops every notification (alertmanager_types.go ConfigSecret). Unset, it defaults to
  // `alertmanager-<name>`: not named, not ordered.
  ...rows(monitoring, own('Alertmanager'), ['spec.configSecret', 'spec.secrets[]']),
  ...rows(monitoring, [...own('Prometheus'), ...own('PrometheusAgent')], ['spec.secrets[]']),
];

/** The built-in table, in the order docs/secret-readers.md renders it. */
export const readerFields: readonly ReaderField[] = [
  ...esoGenerators,
  ...esoStores,
  ...cnpg,
  ...volsync,
  ...keda,
  ...certManager,
  ...crossplane,
  ...persistentVolume,
  ...flux,
  ...prometheusOperator,
];

const readerKinds: ReadonlySet<string> = new Set(readerFields.map((f) => f.kind));

/** The option's entries as rows: the namespace beside the name under its own key, if given. */
function optionFields(option: readonly SecretReader[]): ReaderField[] {
  return option.map(({ group, kind, path, namespacePath }) => ({
    group,
    kind,
    path,
    namespace: namespacePath === undefined ? 'own' : { beside: namespacePath },
  }));
}

interface Compiled {
  field: ReaderField;
  path: Path;
}

/** Compiled rows by kindKey, per option value (the built-in ones once). */
const compiledFor = new WeakMap<
  readonly SecretReader[],
  ReadonlyMap<string, readonly Compiled[]>
>();

/** The rows, the table's and the option's, by `group/Kind`. */
export function readerRows(
  option: readonly SecretReader[],
): ReadonlyMap<string, readonly Compiled[]> {
  let byKind = compiledFor.get(option);
  if (!byKind) {
    const map = new Map<string, Compiled[]>();
    for (const field of [...readerFields, ...optionFields(option)]) {
      const key = kindKey(field.group, field.kind);
      addTo(map, key, { field, path: parsePath(field.path) });
    }
    byKind = map;
    compiledFor.set(option, byKind);
  }
  return byKind;
}

/**
 * The fields the read plan must build of each reader kind, by `group/Kind`. From the rows' path
 * texts, not readerRows: every run plans its reads, and parsing the table's ≈370 paths cost ≈1 ms
 * of each start, also when no item is a reader.
 */
export function readerPaths(option: readonly SecretReader[]): ReadonlyMap<string, string[]> {
  const paths = new Map<string, string[]>();
  for (const { group, kind, path, namespace } of [...readerFields, ...optionFields(option)]) {
    const key = kindKey(group, kind);
    addTo(paths, key, path);
    if (typeof namespace === 'object' && 'beside' in namespace)
      addTo(paths, key, [...path.split('.').slice(0, -1), namespace.beside].join('.'));
  }
  return paths;
}

/** One Secret a reader names: where it is looked up, and the field that names it. */
export interface NamedSecret {
  /** Undefined for a namespace-less reader of a row that reads in its own: matched as consumers are. */
  namespace: string | undefined;
  name: string;
  /** Where the name is, as results print it (`spec.secretTargetRef[0].name`). */
  field: string;
}

/** The kinds `option` declares fields of, made once per option. */
const optionKinds = new WeakMap<readonly SecretReader[], ReadonlySet<string>>();

/** Whether an item of this kind can name a Secret through a reader field (built in or `option`). */
export function mayNameSecrets(kind: string, option: readonly SecretReader[]): boolean {
  if (readerKinds.has(kind)) return true;
  if (option.length === 0) return false;
  // A Set, not a scan of the option per item: items × declared kinds (bench/adversarial
  // declared-reader-kinds: 4 MB 7.0 s).
  let kinds = optionKinds.get(option);
  if (!kinds) {
    kinds = new Set(option.map((o) => o.kind));
    optionKinds.set(option, kinds);
  }
  return kinds.has(kind);
}

/**
 * The Secrets a resource names through the table's or the option's fields. A name that is not a
 * non-empty string, or a reference with no namespace beside it on a cluster-scoped reader, names
 * nothing: the reader is not ours to validate, and no order is better than a wrong one. A
 * namespace beside the name that is not a string is an ItemError: falling back to the reader's
 * own namespace would order after the wrong Secret.
 */
export function secretsNamedBy(
  resource: Resource,
  option: readonly SecretReader[],
): readonly NamedSecret[] {
  // The kind first, a string comparison: groupOf splits the apiVersion, and this runs per item.
  if (!mayNameSecrets(resource.kind, option)) return noneNamed;
  const compiled = readerRows(option).get(kindKey(groupOf(resource.apiVersion), resource.kind));
  if (!compiled) return noneNamed;
  const named: NamedSecret[] = [];
  for (const { field, path } of compiled) {
    walk(resource.value, path, (node, trail) => {
      if (typeof node !== 'string' || node === '') return;
      const { namespace: rule } = field;
      let namespace = resource.namespace;
      if (typeof rule === 'object' && 'fixed' in rule) namespace = rule.fixed;
      else if (typeof rule === 'object') {
        const holder = getPath(resource.value, trail.slice(0, -1));
        const given = isObject(holder) ? getPath(holder, rule.beside) : undefined;
        // A namespace that is no string names no namespace we could look in: the reader's own
        // would be a guess, so the field is an error (no order rather than a wrong one).
        if (given !== undefined && given !== null && typeof given !== 'string') {
          const at = fieldPath([...trail.slice(0, -1), ...rule.beside.split('.')]);
          throw new ItemError(`${at} is ${describeType(given)}, not a namespace`, at);
        }
        if (typeof given === 'string' && given !== '') namespace = given;
      }
      // A cluster-scoped reader without a namespace beside the name: none to look in.
      if (namespace === undefined && rule !== 'own') return;
      named.push({ namespace, name: node, field: fieldPath(trail) });
    });
  }
  return named;
}

/** What most items name (asked for every item by two stages): one empty list for all of them. */
const noneNamed: readonly NamedSecret[] = Object.freeze([]);
