// functionConfig: a ConfigMap (string data, so `kpt fn eval … -- key=value` works) or the typed
// kind SecretRollout with the same options as typed fields. One table drives both. The rules whose
// severity `severity` sets are not known here: the rule table (rules/rule-table.ts) lives above
// model/ and is handed down as a RuleCatalog.
import { isObject, type Json } from './json.js';
import { nearest } from './near.js';
import { describeType } from './resource.js';
import { fixedReason, type Rule, type RuleSeverity, severities } from './results.js';

export interface Config {
  /** Pod-template annotation that carries the checksum. */
  checksumAnnotation: string;
  /**
   * The deployers whose order annotations are written (docs/ordering.md); empty: none. The older
   * `syncWaves` switch is an alias (applyOptions).
   */
  ordering: readonly Ordering[];
  externalSecretWave: bigint;
  storeWave: bigint;
  /** Count `imagePullSecrets` as consumers (off: the kubelet reads them at pull time only). */
  imagePullSecrets: boolean;
  /**
   * What a ClusterExternalSecret's namespace selector is assumed to match when the input has no
   * Namespace objects: `selected` (nothing), or `all` (every namespace with a workload).
   */
  clusterExternalSecretNamespaces: 'selected' | 'all';
  /** The namespace the deployer applies namespace-less namespaced items in (`''`: none, as written). */
  defaultNamespace: string;
  /** Pod-template annotation for a checksum over plain ConfigMaps (`''`: off). */
  configMapChecksumAnnotation: string;
  /** Pod-template annotation for a checksum over plain Secrets (`''`: off). */
  secretChecksumAnnotation: string;
  /** HMAC-SHA256 key for plain Secret checksums (`''`: plain SHA-256). Never printed. */
  secretChecksumKey: string;
  /** Install the generation-aware ExternalSecret health check into an argocd-cm in the input. */
  argocdHealthCheck: boolean;
  /** The severities the options set, by rule id; a rule not here has its own. */
  severity: ReadonlyMap<string, RuleSeverity>;
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
  /** `hashed`: an ExternalSecret's Secret is named after its content, references rewritten. */
  targetNames: 'keep' | 'hashed';
  /** Fields of custom kinds that name a Secret their controller reads (`secretReferences`). */
  secretReferences: readonly SecretReader[];
  /** Per chart, the values path where a HelmRelease's checksum goes instead of a post-renderer. */
  helmReleaseChecksumPath: readonly HelmChecksumPath[];
}

/** `chart=path.in.values`: the annotations mapping under spec.values for releases of a chart. */
export interface HelmChecksumPath {
  chart: string;
  path: readonly string[];
}

export type Mode = 'render' | 'check';

/** Argo CD sync waves, kpt/Config Sync `depends-on`, kapp change groups and rules. */
export const orderings = ['argocd', 'depends-on', 'kapp'] as const;
export type Ordering = (typeof orderings)[number];

/** A kind's pod template: the object holding the pod's `metadata` and `spec`. */
export interface DeclaredTemplate {
  /** The API group, `''` for the core group. */
  group: string;
  kind: string;
  /** Dotted keys from the item to the template (`spec.runner.template`). */
  path: string;
}

/** A field that names a Secret its kind's controller reads (docs/secret-readers.md). */
export interface SecretReader {
  group: string;
  kind: string;
  /** The path to the name, `[]` for every element of a list (`spec.auth[].secretName`). */
  path: string;
  /** Dotted keys from the mapping that holds the name to the namespace; none: the item's own. */
  namespacePath?: string;
}

/** What the options need of the rule table (rules/rule-table.ts), which model/ cannot import. */
export interface RuleCatalog {
  readonly rules: readonly Rule[];
  /** Options that set one rule's severity, older than `severity`: option name → rule id. */
  readonly options: ReadonlyMap<string, string>;
}

export const defaultConfig: Readonly<Config> = {
  checksumAnnotation: 'checksum/external-secrets',
  ordering: ['argocd'],
  externalSecretWave: -1n,
  storeWave: -2n,
  imagePullSecrets: false,
  clusterExternalSecretNamespaces: 'selected',
  defaultNamespace: '',
  configMapChecksumAnnotation: '',
  secretChecksumAnnotation: '',
  secretChecksumKey: '',
  argocdHealthCheck: true,
  severity: new Map(),
  podTemplates: [],
  fixVaultAgentJobs: false,
  verbose: false,
  mode: 'render',
  targetNames: 'keep',
  secretReferences: [],
  helmReleaseChecksumPath: [],
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

/** Every bad option of one configuration, in its order: one result each, not the first alone. */
export class ConfigErrors extends ConfigError {
  constructor(readonly all: readonly [ConfigError, ...ConfigError[]]) {
    super(all[0].message, all[0].field);
  }
}

type Parser<T> = (raw: Json, field: string) => T;

/** What a bad value is, when not a string: its type, never its text (messages quote no input). */
const got = (raw: Json) => (typeof raw === 'string' ? '' : `, got ${describeType(raw)}`);

/** For a list option: the first entry that is not a string, by position (1-based, as elsewhere). */
const gotEntries = (raw: Json) => {
  const i = Array.isArray(raw) ? raw.findIndex((e) => typeof e !== 'string') : -1;
  return i === -1
    ? got(raw)
    : `, got a list whose entry ${i + 1} is ${describeType((raw as Json[])[i])}`;
};

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

const parseRuleSeverity: Parser<RuleSeverity> = (raw, field) => {
  if (
    raw === 'off' ||
    (typeof raw === 'string' && (severities as readonly string[]).includes(raw))
  ) {
    return raw as RuleSeverity;
  }
  throw new ConfigError(`${field} must be one of ${severities.join(', ')}, off${got(raw)}`, field);
};

/**
 * `severity`: rule ids and severities, `id: severity` comma-separated in a ConfigMap (or the same
 * string in the typed config), a mapping in the typed config. An entry is named by its position,
 * an id only once it is known to be one of ours (messages quote no text of the input).
 */
function parseSeverities(
  raw: Json,
  field: string,
  catalog: RuleCatalog,
): [rule: string, severity: RuleSeverity][] {
  /** Each entry with its position, counted as the user wrote them (empty ones too). */
  const entries: [position: number, id: string, value: Json][] = [];
  if (typeof raw === 'string') {
    for (const [i, entry] of raw.split(',').entries()) {
      if (entry.trim() === '') continue;
      const colon = entry.indexOf(':');
      if (colon < 0) {
        throw new ConfigError(
          `${field}: entry ${i + 1} has no colon: give rule-id:severity (severity: ${severities.join(', ')} or off), entries separated by commas`,
          field,
        );
      }
      entries.push([i + 1, entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()]);
    }
  } else if (isObject(raw)) {
    for (const [i, [id, value]] of Object.entries(raw).entries()) entries.push([i + 1, id, value]);
  } else {
    throw new ConfigError(
      `${field} must be a mapping of rule ids to severities, or id: severity, comma-separated${got(raw)}`,
      field,
    );
  }
  const ids = catalog.rules.map((r) => r.id);
  return entries.map(([position, id, value]) => {
    const rule = catalog.rules.find((r) => r.id === id);
    if (rule === undefined) {
      const near = nearest(id, ids);
      throw new ConfigError(
        `${field}: entry ${position} names no rule${near ? `; did you mean ${near}?` : ''}`,
        field,
      );
    }
    if (rule.fixed) {
      throw new ConfigError(`${field}: ${id} cannot be set: it reports ${fixedReason}`, field);
    }
    return [id, parseRuleSeverity(value, `${field}: ${id}`)];
  });
}

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

/** The entries of a list option: comma-separated in a string, or a list of strings. */
const listEntries = (raw: Json): string[] | undefined =>
  typeof raw === 'string'
    ? raw.split(',')
    : Array.isArray(raw) && raw.every((e) => typeof e === 'string')
      ? (raw as string[])
      : undefined;

/**
 * `ordering`: comma-separated in a ConfigMap, a list (or the same string) in the typed config;
 * `none` alone for no order. Entries are named by position, never quoted.
 */
const parseOrdering: Parser<readonly Ordering[]> = (raw, field) => {
  const listed = listEntries(raw);
  const entries = typeof raw === 'string' ? listed?.map((e) => e.trim()) : listed;
  const known = `${orderings.join(', ')} or none`;
  if (entries === undefined || entries.length === 0 || entries.every((e) => e === '')) {
    throw new ConfigError(`${field} must be a list of ${known}${gotEntries(raw ?? null)}`, field);
  }
  if (entries.length === 1 && entries[0] === 'none') return [];
  const chosen = new Set<Ordering>();
  for (const [i, entry] of entries.entries()) {
    if ((orderings as readonly string[]).includes(entry)) {
      // Twice is no more order, and most likely another deployer meant: said, not merged.
      if (chosen.has(entry as Ordering)) {
        throw new ConfigError(
          `${field}: entry ${i + 1} names ${entry} again: give each deployer once`,
          field,
        );
      }
      chosen.add(entry as Ordering);
      continue;
    }
    const near = entry === 'none' ? undefined : nearest(entry, [...orderings, 'none']);
    const problem = entry === 'none' ? 'is none, which stands alone' : `is not one of ${known}`;
    throw new ConfigError(
      `${field}: entry ${i + 1} ${problem}${near ? `; did you mean ${near}?` : ''}`,
      field,
    );
  }
  // The deployers in a fixed order, whatever order they were given in: one meaning, one form.
  return orderings.filter((o) => chosen.has(o));
};

/** A namespace name (a DNS-1123 label, as the API server requires), or `''` for none. */
const parseNamespace: Parser<string> = (raw, field) => {
  if (raw === '' || (typeof raw === 'string' && /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(raw))) {
    return raw;
  }
  throw new ConfigError(
    `${field} must be a namespace name (≤ 63 characters of a-z, 0-9 and -, starting and ending with a letter or digit), or empty${got(raw)}`,
    field,
  );
};

const parseMode: Parser<Mode> = (raw, field) => {
  if (raw === 'render' || raw === 'check') return raw;
  throw new ConfigError(`${field} must be render or check${got(raw)}`, field);
};

const parseTargetNames: Parser<'keep' | 'hashed'> = (raw, field) => {
  if (raw === 'keep' || raw === 'hashed') return raw;
  throw new ConfigError(`${field} must be keep or hashed${got(raw)}`, field);
};

const groupPattern = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$/;
const kindPattern = /^[A-Za-z][A-Za-z0-9]*$/;
const templatePathPattern = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const versionLike = /^v\d+((alpha|beta)\d+)?$/;

/**
 * The trimmed entries of a list option with their positions (1-based, as messages name them):
 * comma-separated in a string (its empty entries skipped), or a list of strings. `form` is what
 * an entry looks like, for the error when the value is neither.
 */
function entriesOf(raw: Json, field: string, form: string): [number, string][] {
  const entries = listEntries(raw);
  if (entries === undefined) {
    throw new ConfigError(`${field} must be a list of ${form} strings${gotEntries(raw)}`, field);
  }
  return entries
    .map((e, i): [number, string] => [i + 1, e.trim()])
    .filter(([, entry]) => entry !== '' || typeof raw !== 'string');
}

/** Most entries of podTemplates or secretReferences for one kind. */
export const maxPerKind = 32;

/**
 * Entries `group/Kind:rest` (podTemplates, secretReferences), comma-separated in a ConfigMap, a
 * list (or the same string) in the typed config. The group is always written, empty for the core
 * group (`/PodTemplate:template`), so an apiVersion given by mistake (`v1/Pod`,
 * `apps/v1/Deployment`) is caught, not guessed. `read` checks the rest: a value, or what is wrong
 * with it. Entries are named by their position, never quoted: messages quote no text of the input.
 */
function parseKindEntries<T>(
  raw: Json,
  field: string,
  form: string,
  read: (group: string, kind: string, rest: string) => T | { problem: string },
): T[] {
  const declared = new Map<string, T>();
  const perKind = new Map<string, number>();
  for (const [position, entry] of entriesOf(raw, field, form)) {
    const match = /^([^/:]*)\/([^/:]*):(.*)$/.exec(entry);
    const [, group = '', kind = '', rest = ''] = match ?? [];
    const problem = !match
      ? `is not ${form} (the core group is empty: /Kind:path)`
      : versionLike.test(group)
        ? 'names a version, not an API group: write the group, empty for the core group (/Kind:path)'
        : !groupPattern.test(group)
          ? 'has an invalid API group'
          : !kindPattern.test(kind)
            ? 'has an invalid kind'
            : undefined;
    const value = problem === undefined ? read(group, kind, rest) : { problem };
    if (typeof value === 'object' && value !== null && 'problem' in value) {
      throw new ConfigError(`${field}: entry ${position} ${value.problem}`, field);
    }
    // Every item of a kind is read at each of its paths: bounded per kind, the work stays linear
    // in the items (bench/adversarial declared-templates, declared-readers: items × paths).
    const kindKey = `${group}/${kind}`;
    const count = (perKind.get(kindKey) ?? 0) + (declared.has(entry) ? 0 : 1);
    if (count > maxPerKind) {
      throw new ConfigError(
        `${field}: entry ${position} is one more for its kind than the ${maxPerKind} one kind may declare`,
        field,
      );
    }
    perKind.set(kindKey, count);
    declared.set(entry, value);
  }
  return [...declared.values()];
}

const parsePodTemplates: Parser<readonly DeclaredTemplate[]> = (raw, field) =>
  parseKindEntries<DeclaredTemplate>(
    raw,
    field,
    'group/Kind:path.to.template',
    (group, kind, path) =>
      templatePathPattern.test(path)
        ? { group, kind, path }
        : {
            problem:
              'has an invalid path: dotted field names to one object, no [] (spec.runner.template)',
          },
  );

const readerPathPattern = /^[A-Za-z0-9_-]+(\[\])?(\.[A-Za-z0-9_-]+(\[\])?)*$/;

/** `secretReferences`: `group/Kind:path.to.name[:namespace.path]` (docs/secret-readers.md). */
const parseSecretReferences: Parser<readonly SecretReader[]> = (raw, field) =>
  parseKindEntries<SecretReader>(
    raw,
    field,
    'group/Kind:path.to.name[:namespace.path]',
    (group, kind, rest) => {
      const [path = '', namespacePath, ...more] = rest.split(':');
      if (more.length > 0 || !readerPathPattern.test(path)) {
        return {
          problem:
            'has an invalid path: dotted field names to the name, [] after a list (spec.refs[].name)',
        };
      }
      if (namespacePath === undefined) return { group, kind, path };
      if (!templatePathPattern.test(namespacePath)) {
        return {
          problem:
            'has an invalid namespace path: dotted field names from the mapping that holds the name, no [] (namespace)',
        };
      }
      return { group, kind, path, namespacePath };
    },
  );

/**
 * The keys of a checksum path at most: the run writes its mappings, and an output nested past the
 * 500 levels the reader takes (docs/limits.md) would fail the next run. Charts' paths have 2-4.
 */
const maxChecksumPathKeys = 64;

/** `chart=dotted.path` entries, a list or one comma-separated string; entries named by position. */
const parseHelmChecksumPaths: Parser<readonly HelmChecksumPath[]> = (raw, field) => {
  const byChart = new Map<string, HelmChecksumPath>();
  for (const [position, entry] of entriesOf(raw, field, 'chart=path.in.values')) {
    // At the first '=': a second one fails the path's pattern instead of being cut off.
    const at = entry.indexOf('=');
    const chart = at === -1 ? '' : entry.slice(0, at);
    const path = entry.slice(at + 1);
    if (!/^[A-Za-z0-9][-A-Za-z0-9_.]*$/.test(chart) || !templatePathPattern.test(path)) {
      throw new ConfigError(
        `${field}: entry ${position} is not chart=path.in.values (app-template=defaultPodOptions.annotations)`,
        field,
      );
    }
    const keys = path.split('.');
    if (keys.length > maxChecksumPathKeys) {
      throw new ConfigError(
        `${field}: entry ${position} has a path of more than ${maxChecksumPathKeys} keys`,
        field,
      );
    }
    const earlier = byChart.get(chart);
    if (earlier && earlier.path.join('.') !== path) {
      throw new ConfigError(
        `${field}: entry ${position} names the chart of an earlier entry with another path: keep one`,
        field,
      );
    }
    byChart.set(chart, { chart, path: keys });
  }
  return [...byChart.values()];
};

/** A key: the message never shows the value. */
const parseKey: Parser<string> = (raw, field) => {
  if (typeof raw === 'string') return raw;
  throw new ConfigError(`${field} must be a string`, field);
};

/** Every option but `severity`, which the rule table shapes (applyOptions). */
const options: { [K in Exclude<keyof Config, 'severity'>]: Parser<Config[K]> } = {
  checksumAnnotation: parseAnnotationKey,
  ordering: parseOrdering,
  externalSecretWave: parseWave,
  storeWave: parseWave,
  imagePullSecrets: parseBoolean,
  clusterExternalSecretNamespaces: parseNamespaceAssumption,
  defaultNamespace: parseNamespace,
  configMapChecksumAnnotation: parseOptionalAnnotationKey,
  secretChecksumAnnotation: parseOptionalAnnotationKey,
  secretChecksumKey: parseKey,
  argocdHealthCheck: parseBoolean,
  podTemplates: parsePodTemplates,
  fixVaultAgentJobs: parseBoolean,
  verbose: parseBoolean,
  mode: parseMode,
  targetNames: parseTargetNames,
  secretReferences: parseSecretReferences,
  helmReleaseChecksumPath: parseHelmChecksumPaths,
};
/** The options, but those of the catalog that set one rule's severity (`unpinnedVersionSeverity`). */
export const optionNames: readonly string[] = [...Object.keys(options), 'severity', 'syncWaves'];

/** `key=value` arguments: a ConfigMap's data, each error naming the key alone (no `data.`). */
export function readSettings(settings: Record<string, string>, catalog: RuleCatalog): Config {
  return applyOptions(settings, '', catalog);
}

/**
 * Reads the functionConfig; `undefined` (none given) and an empty ConfigMap mean defaults.
 * `catalog`: the rules whose severity the options may set.
 */
export function readConfig(functionConfig: unknown, catalog: RuleCatalog): Config {
  if (functionConfig === undefined || functionConfig === null) return { ...defaultConfig };
  if (!isObject(functionConfig)) {
    throw new ConfigError(`functionConfig is ${describeType(functionConfig)}, not a mapping`);
  }
  const { apiVersion, kind } = functionConfig;
  if (apiVersion === 'v1' && kind === 'ConfigMap') {
    const data = functionConfig.data ?? {};
    if (!isObject(data)) throw new ConfigError('ConfigMap data must be a mapping', 'data');
    return applyOptions(data, 'data.', catalog);
  }
  if (apiVersion === typedConfigApiVersion && kind === typedConfigKind) {
    const { apiVersion: _a, kind: _k, metadata: _m, ...fields } = functionConfig;
    return applyOptions(fields, '', catalog);
  }
  // The apiVersion and kind given are not quoted (they are input text, of any length): a field
  // that is no string is described, strings are only said to name another type.
  const wrong = Object.entries({ apiVersion, kind })
    .filter(([, value]) => typeof value !== 'string')
    .map(
      ([field, value]) =>
        `its ${field} is ${value === undefined ? 'missing' : describeType(value)}`,
    );
  // A near miss of the typed kind is named by the kind it is near, never quoted.
  const near =
    wrong.length === 0 && typeof kind === 'string' && kind !== typedConfigKind
      ? nearest(kind, [typedConfigKind])
      : undefined;
  throw new ConfigError(
    `functionConfig must be a v1 ConfigMap or ${typedConfigApiVersion} ${typedConfigKind}, ${wrong.length > 0 ? wrong.join(' and ') : 'its apiVersion and kind name another type'}${near ? `; did you mean kind ${near}?` : ''}`,
  );
}

function applyOptions(fields: Record<string, Json>, prefix: string, catalog: RuleCatalog): Config {
  const config: Config = { ...defaultConfig };
  const severity = new Map<string, RuleSeverity>();
  /** The option that set each rule's severity: two for one rule is an error, not a guess. */
  const setBy = new Map<string, string>();
  const setSeverity = (rule: string, value: RuleSeverity, option: string) => {
    const earlier = setBy.get(rule);
    if (earlier !== undefined) {
      throw new ConfigError(`${earlier} and ${option} both set ${rule}; give one`, option);
    }
    setBy.set(rule, option);
    severity.set(rule, value);
  };
  let syncWaves: boolean | undefined;
  const errors: ConfigError[] = [];
  for (const [key, raw] of Object.entries(fields)) {
    try {
      syncWaves = applyOption(key, raw) ?? syncWaves;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      errors.push(error);
    }
  }
  const [first, ...more] = errors;
  if (first) throw new ConfigErrors([first, ...more]);
  if (severity.size > 0) config.severity = severity;
  if (syncWaves !== undefined)
    applySyncWaves(config, syncWaves, Object.hasOwn(fields, 'ordering'), prefix);
  return config;

  /** One option into `config` (or `severity`); `syncWaves`, applied after the others, returned. */
  function applyOption(key: string, raw: Json): boolean | undefined {
    const field = `${prefix}${key}`;
    if (key === 'severity') {
      for (const [rule, value] of parseSeverities(raw, field, catalog)) {
        setSeverity(rule, value, field);
      }
      return undefined;
    }
    if (key === 'syncWaves') return parseBoolean(raw, field);
    const rule = catalog.options.get(key);
    if (rule !== undefined) {
      setSeverity(rule, parseRuleSeverity(raw, field), field);
      return undefined;
    }
    // Own keys only: `constructor`, `toString` or `__proto__` are Object.prototype's, not options.
    const parse = Object.hasOwn(options, key)
      ? (options[key as keyof typeof options] as Parser<unknown>)
      : undefined;
    if (parse === undefined) {
      // The key names its field, as every config error does; the suggestion is a known name.
      const near = nearest(
        key,
        [...optionNames, ...catalog.options.keys()],
        key.length <= 4 ? 1 : 2,
      );
      // The older severity options are one per lint: named as a family, the list stays short.
      throw new ConfigError(
        `unknown option ${field}${near ? `, did you mean ${near}?` : ''} (known: ${optionNames.join(', ')}, waveConflictSeverity, <lint>Severity for each lint)`,
        field,
      );
    }
    (config as unknown as Record<string, unknown>)[key] = parse(raw, field);
    return undefined;
  }
}

/**
 * `syncWaves`, the older switch, is an alias: `true` is `ordering: argocd`, `false` is
 * `ordering: none`. Given with `ordering`, it must agree on Argo CD (`syncWaves: false` with
 * `ordering: depends-on` does), else neither is guessed.
 */
function applySyncWaves(config: Config, syncWaves: boolean, withOrdering: boolean, prefix: string) {
  if (!withOrdering) {
    config.ordering = syncWaves ? ['argocd'] : [];
    return;
  }
  if (config.ordering.includes('argocd') !== syncWaves) {
    throw new ConfigError(
      `${prefix}syncWaves and ${prefix}ordering disagree about argocd: give ordering only (syncWaves is its older alias)`,
      `${prefix}syncWaves`,
    );
  }
}

// Made once: `2n ** 63n` made two BigInts at every call (one per wave annotation read).
const int64Above = 2n ** 63n;
const minInt64 = -int64Above;

/** Argo CD parses waves with Go's strconv.Atoi: an optionally signed 64-bit decimal integer. */
export function parseInt64(raw: unknown): bigint | undefined {
  if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw)) return undefined;
  const value = BigInt(raw);
  return value >= minInt64 && value < int64Above ? value : undefined;
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
