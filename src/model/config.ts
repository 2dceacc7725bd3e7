// functionConfig: a ConfigMap (string data, so `kpt fn eval … -- key=value` works) or the typed
// kind SecretRollout with the same options as typed fields. One table drives both.
import { isObject, type Json } from './json.js';
import { nearest } from './near.js';
import { describeType } from './resource.js';
import { type Severity, severities } from './results.js';

export interface Config {
  /** Pod-template annotation that carries the checksum. */
  checksumAnnotation: string;
  /** Stamp `argocd.argoproj.io/sync-wave` on ExternalSecrets and stores. */
  syncWaves: boolean;
  externalSecretWave: bigint;
  storeWave: bigint;
  waveConflictSeverity: Severity;
  /** Count `imagePullSecrets` as consumers (off: the kubelet reads them at pull time only). */
  imagePullSecrets: boolean;
  /**
   * What a ClusterExternalSecret's namespace selector is assumed to match when the input has no
   * Namespace objects: `selected` (nothing), or `all` (every namespace with a workload).
   */
  clusterExternalSecretNamespaces: 'selected' | 'all';
  /** Pod-template annotation for a checksum over plain ConfigMaps (`''`: off). */
  configMapChecksumAnnotation: string;
  /** Pod-template annotation for a checksum over plain Secrets (`''`: off). */
  secretChecksumAnnotation: string;
  /** HMAC-SHA256 key for plain Secret checksums (`''`: plain SHA-256). Never printed. */
  secretChecksumKey: string;
  /** Install the generation-aware ExternalSecret health check into an argocd-cm in the input. */
  argocdHealthCheck: boolean;
  /** Severity of each lint (src/rules/lints/), or `off`. */
  hookPhaseSeverity: LintSeverity;
  jobChecksumSeverity: LintSeverity;
  unpinnedVersionSeverity: LintSeverity;
  vaultAgentJobSeverity: LintSeverity;
  crossNamespaceSeverity: LintSeverity;
  missingKeySeverity: LintSeverity;
  kindNearMissSeverity: LintSeverity;
  doubleRestartSeverity: LintSeverity;
  scaledJobRolloutSeverity: LintSeverity;
  csiSyncMountSeverity: LintSeverity;
  nearNameSeverity: LintSeverity;
  /**
   * Pod templates of custom kinds that the shape search does not find (`spec.template`,
   * `spec.jobTemplate.spec.template`): where each kind keeps one, in addition to those shapes.
   */
  podTemplates: readonly DeclaredTemplate[];
  /** Set `vault.hashicorp.com/agent-pre-populate-only: "true"` where the Vault agent lint fires. */
  fixVaultAgentJobs: boolean;
  /** A summary line on stderr, as `--verbose` (kpt and kustomize pass no arguments). */
  verbose: boolean;
  /** `check`: change nothing, report each edit a render would make as an error (a CI gate). */
  mode: Mode;
}

export type Mode = 'render' | 'check';

/** A kind's pod template: the object holding the pod's `metadata` and `spec`. */
export interface DeclaredTemplate {
  /** The API group, `''` for the core group. */
  group: string;
  kind: string;
  /** Dotted keys from the item to the template (`spec.runner.template`). */
  path: string;
}

export type LintSeverity = Severity | 'off';

export const defaultConfig: Readonly<Config> = {
  checksumAnnotation: 'checksum/external-secrets',
  syncWaves: true,
  externalSecretWave: -1n,
  storeWave: -2n,
  waveConflictSeverity: 'error',
  imagePullSecrets: false,
  clusterExternalSecretNamespaces: 'selected',
  configMapChecksumAnnotation: '',
  secretChecksumAnnotation: '',
  secretChecksumKey: '',
  argocdHealthCheck: true,
  hookPhaseSeverity: 'warning',
  jobChecksumSeverity: 'warning',
  unpinnedVersionSeverity: 'warning',
  vaultAgentJobSeverity: 'warning',
  crossNamespaceSeverity: 'warning',
  missingKeySeverity: 'warning',
  kindNearMissSeverity: 'warning',
  doubleRestartSeverity: 'warning',
  scaledJobRolloutSeverity: 'info',
  csiSyncMountSeverity: 'warning',
  nearNameSeverity: 'info',
  podTemplates: [],
  fixVaultAgentJobs: false,
  verbose: false,
  mode: 'render',
};

export const typedConfigApiVersion = 'fn.kpt.dev/v1alpha1';
export const typedConfigKind = 'SecretRollout';

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

type Parser<T> = (raw: Json, field: string) => T;

/** What a bad value is, when not a string: its type, never its text (messages quote no input). */
const got = (raw: Json) => (typeof raw === 'string' ? '' : `, got ${describeType(raw)}`);

const parseBoolean: Parser<boolean> = (raw, field) => {
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new ConfigError(`${field} must be true or false${got(raw)}`, field);
};

const parseWave: Parser<bigint> = (raw, field) => {
  const wave = typeof raw === 'number' && Number.isSafeInteger(raw) ? BigInt(raw) : parseInt64(raw);
  if (wave === undefined) {
    throw new ConfigError(`${field} must be a 64-bit integer${got(raw)}`, field);
  }
  return wave;
};

const parseSeverity: Parser<Severity> = (raw, field) => {
  if (typeof raw === 'string' && (severities as readonly string[]).includes(raw)) {
    return raw as Severity;
  }
  throw new ConfigError(`${field} must be one of ${severities.join(', ')}`, field);
};

const parseLintSeverity: Parser<LintSeverity> = (raw, field) => {
  if (
    raw === 'off' ||
    (typeof raw === 'string' && (severities as readonly string[]).includes(raw))
  ) {
    return raw as LintSeverity;
  }
  throw new ConfigError(`${field} must be one of ${severities.join(', ')}, off`, field);
};

const parseAnnotationKey: Parser<string> = (raw, field) => {
  if (typeof raw === 'string' && isAnnotationKey(raw)) return raw;
  throw new ConfigError(
    `${field} must be a valid annotation key ([prefix/]name, name ≤ 63 characters of [A-Za-z0-9-_.])${got(raw)}`,
    field,
  );
};

/** An annotation key, or `''` for off. */
const parseOptionalAnnotationKey: Parser<string> = (raw, field) =>
  raw === '' ? '' : parseAnnotationKey(raw, field);

const parseNamespaceAssumption: Parser<'selected' | 'all'> = (raw, field) => {
  if (raw === 'selected' || raw === 'all') return raw;
  throw new ConfigError(`${field} must be selected or all${got(raw)}`, field);
};

const parseMode: Parser<Mode> = (raw, field) => {
  if (raw === 'render' || raw === 'check') return raw;
  throw new ConfigError(`${field} must be render or check${got(raw)}`, field);
};

const groupPattern = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$/;
const kindPattern = /^[A-Za-z][A-Za-z0-9]*$/;
const templatePathPattern = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const versionLike = /^v\d+((alpha|beta)\d+)?$/;

/**
 * `group/Kind:dotted.path`, comma-separated in a ConfigMap, a list (or the same string) in the
 * typed config. The group is always written, empty for the core group (`/PodTemplate:template`),
 * so an apiVersion given by mistake (`v1/Pod`, `apps/v1/Deployment`) is caught, not guessed.
 */
const parsePodTemplates: Parser<readonly DeclaredTemplate[]> = (raw, field) => {
  const entries =
    typeof raw === 'string'
      ? raw.split(',')
      : Array.isArray(raw) && raw.every((e) => typeof e === 'string')
        ? (raw as string[])
        : undefined;
  if (entries === undefined) {
    throw new ConfigError(
      `${field} must be a list of group/Kind:path.to.template strings${got(raw)}`,
      field,
    );
  }
  const declared = new Map<string, DeclaredTemplate>();
  for (const [i, entry] of entries.map((e) => e.trim()).entries()) {
    if (entry === '' && typeof raw === 'string') continue;
    const match = /^([^/:]*)\/([^/:]*):(.*)$/.exec(entry);
    const [, group = '', kind = '', path = ''] = match ?? [];
    // The entry is named by its position, never quoted: messages quote no text of the input.
    const problem = !match
      ? 'is not group/Kind:path.to.template (the core group is empty: /Kind:path)'
      : versionLike.test(group)
        ? 'names a version, not an API group: write the group, empty for the core group (/Kind:path)'
        : !groupPattern.test(group)
          ? 'has an invalid API group'
          : !kindPattern.test(kind)
            ? 'has an invalid kind'
            : !templatePathPattern.test(path)
              ? 'has an invalid path: dotted field names to one object, no [] (spec.runner.template)'
              : undefined;
    if (problem) throw new ConfigError(`${field}: entry ${i + 1} ${problem}`, field);
    declared.set(entry, { group, kind, path });
  }
  return [...declared.values()];
};

/** A key: the message never shows the value. */
const parseKey: Parser<string> = (raw, field) => {
  if (typeof raw === 'string') return raw;
  throw new ConfigError(`${field} must be a string`, field);
};

const options: { [K in keyof Config]: Parser<Config[K]> } = {
  checksumAnnotation: parseAnnotationKey,
  syncWaves: parseBoolean,
  externalSecretWave: parseWave,
  storeWave: parseWave,
  waveConflictSeverity: parseSeverity,
  imagePullSecrets: parseBoolean,
  clusterExternalSecretNamespaces: parseNamespaceAssumption,
  configMapChecksumAnnotation: parseOptionalAnnotationKey,
  secretChecksumAnnotation: parseOptionalAnnotationKey,
  secretChecksumKey: parseKey,
  argocdHealthCheck: parseBoolean,
  hookPhaseSeverity: parseLintSeverity,
  jobChecksumSeverity: parseLintSeverity,
  unpinnedVersionSeverity: parseLintSeverity,
  vaultAgentJobSeverity: parseLintSeverity,
  crossNamespaceSeverity: parseLintSeverity,
  missingKeySeverity: parseLintSeverity,
  kindNearMissSeverity: parseLintSeverity,
  doubleRestartSeverity: parseLintSeverity,
  scaledJobRolloutSeverity: parseLintSeverity,
  csiSyncMountSeverity: parseLintSeverity,
  nearNameSeverity: parseLintSeverity,
  podTemplates: parsePodTemplates,
  fixVaultAgentJobs: parseBoolean,
  verbose: parseBoolean,
  mode: parseMode,
};
export const optionNames = Object.keys(options) as (keyof Config)[];

/** Reads the functionConfig; `undefined` (none given) and an empty ConfigMap mean defaults. */
export function readConfig(functionConfig: unknown): Config {
  if (functionConfig === undefined || functionConfig === null) return { ...defaultConfig };
  if (!isObject(functionConfig)) {
    throw new ConfigError(`functionConfig is ${describeType(functionConfig)}, not a mapping`);
  }
  const { apiVersion, kind } = functionConfig;
  if (apiVersion === 'v1' && kind === 'ConfigMap') {
    const data = functionConfig.data ?? {};
    if (!isObject(data)) throw new ConfigError('ConfigMap data must be a mapping', 'data');
    return applyOptions(data, 'data.');
  }
  if (apiVersion === typedConfigApiVersion && kind === typedConfigKind) {
    const { apiVersion: _a, kind: _k, metadata: _m, ...fields } = functionConfig;
    return applyOptions(fields, '');
  }
  // apiVersion and kind name a type, as in every message; anything else is only described.
  const named = (value: Json | undefined) =>
    typeof value === 'string' ? value : describeType(value ?? null);
  throw new ConfigError(
    `functionConfig must be a v1 ConfigMap or ${typedConfigApiVersion} ${typedConfigKind}, got ${named(apiVersion)} ${named(kind)}`,
  );
}

function applyOptions(fields: Record<string, Json>, prefix: string): Config {
  const config: Config = { ...defaultConfig };
  for (const [key, raw] of Object.entries(fields)) {
    // Own keys only: `constructor`, `toString` or `__proto__` are Object.prototype's, not options.
    const parse = Object.hasOwn(options, key)
      ? (options[key as keyof Config] as Parser<unknown>)
      : undefined;
    if (parse === undefined) {
      // The key names its field, as every config error does; the suggestion is a known name.
      const near = nearest(key, optionNames, key.length <= 4 ? 1 : 2);
      throw new ConfigError(
        `unknown option ${prefix}${key}${near ? `, did you mean ${near}?` : ''} (known: ${optionNames.join(', ')})`,
        `${prefix}${key}`,
      );
    }
    (config as unknown as Record<string, unknown>)[key] = parse(raw, `${prefix}${key}`);
  }
  return config;
}

/** Argo CD parses waves with Go's strconv.Atoi: an optionally signed 64-bit decimal integer. */
export function parseInt64(raw: unknown): bigint | undefined {
  if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw)) return undefined;
  const value = BigInt(raw);
  return value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined;
}

const namePart = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Kubernetes' rule for annotation keys (apimachinery IsQualifiedName). */
export function isAnnotationKey(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts.pop() as string;
  const prefix = parts[0];
  if (prefix !== undefined && (prefix.length > 253 || !dnsSubdomain.test(prefix))) return false;
  return namePart.test(name);
}
