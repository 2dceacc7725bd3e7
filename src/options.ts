// Where a run's options come from, in one place: key=value arguments, `--fn-config FILE`, the
// ResourceList's functionConfig, or (for plan and check) the functionConfig `kpt fn render` would
// pass, read from the Kptfile items `kpt fn source` includes, so that
// `kpt fn source . | secret-rollout plan` plans with the package's own options; else the defaults.
// Two given at once are an error (which one wins would be a guess). Pure: input and arguments in,
// the options or error results out. Beside run.ts, where the rooms compose: it reads items
// (krm/) and checks the options against what the rules declare (each lint's severity option).

import { checkNesting, type Input, InputError, type InputItem, parseItem } from './krm/read.js';
import { columnAt, lineNumberAt } from './krm/yaml/lines.js';
import { whereIs } from './krm/yaml/locate-cst.js';
import { ParseError, parseYaml } from './krm/yaml/parse.js';
import {
  type Config,
  ConfigError,
  ConfigErrors,
  defaultConfig,
  readConfig,
  readSettings,
} from './model/config.js';
import { isObject, type Json, type JsonObject } from './model/json.js';
import { fileOfItem } from './model/resource.js';
import { invalidConfig } from './model/result-rules.js';
import { plainResult, type Result } from './model/results.js';
import { ruleCatalog } from './rules/rule-table.js';

/** What the command line gives; main.ts reads the `--fn-config` file. */
export interface GivenOptions {
  /** `key=value` options for stream input, which carries no functionConfig. */
  settings?: Readonly<Record<string, string>>;
  /** `--fn-config FILE`: its path (for messages) and text. */
  fnConfig?: { path: string; text: string };
}

export interface ResolvedOptions {
  /** Undefined when the options are invalid or conflict (`results` says why). */
  config: Config | undefined;
  /** Where the options came from; undefined: defaults. */
  source: string | undefined;
  results: Result[];
}

/**
 * The options, from one of: key=value arguments, `--fn-config`, the ResourceList's functionConfig
 * (two of them are an error), else, with `fromKptfile`, the Kptfile's secret-rollout function,
 * else the defaults.
 */
export function resolveOptions(
  input: Input,
  options: GivenOptions,
  fromKptfile: boolean,
): ResolvedOptions {
  const invalid = (...results: Result[]): ResolvedOptions => ({
    config: undefined,
    source: undefined,
    results,
  });
  const functionConfig =
    input.format === 'yaml-list'
      ? input.functionConfig
      : input.format === 'json-list'
        ? input.value.functionConfig
        : undefined;
  const settings = options.settings ?? {};
  const { fnConfig } = options;
  // `prefix` starts error messages: what the user gave, so they know where to look; `text`, a
  // file's, names the line of a field there.
  const given: { source: string; prefix: string; read: () => Config; text?: string }[] = [];
  const fromConfig = (config: () => unknown) => () => readConfig(config(), ruleCatalog);
  if (Object.keys(settings).length > 0) {
    // Named as written: `checksumAnotation`, not a ConfigMap's `data.checksumAnotation`.
    const read = () => readSettings(settings, ruleCatalog);
    given.push({ source: 'key=value arguments', prefix: 'key=value arguments', read });
  }
  if (fnConfig) {
    const source = `--fn-config ${fnConfig.path}`;
    const read = fromConfig(() => parseFnConfig(fnConfig.text));
    given.push({ source, prefix: source, read, text: fnConfig.text });
  }
  if (functionConfig !== undefined) {
    const source = "the ResourceList's functionConfig";
    given.push({ source, prefix: 'functionConfig', read: fromConfig(() => functionConfig) });
  }
  if (given.length > 1) {
    const message = `conflicting configuration: ${given.map((g) => g.source).join(' and ')}; give only one`;
    return invalid(plainResult(invalidConfig, message));
  }
  let chosen = given[0];
  if (!chosen && fromKptfile) {
    const found = configInKptfile(input);
    if (found && 'error' in found) return invalid(plainResult(invalidConfig, found.error));
    if (found) {
      const { source, functionConfig } = found;
      const read = fromConfig(() => functionConfig);
      chosen = { source, prefix: `functionConfig (${source})`, read };
    }
  }
  // No options: the defaults, without the rule catalog (the rules' file, loaded on first use).
  if (!chosen) return { config: { ...defaultConfig }, source: undefined, results: [] };
  try {
    return { config: chosen.read(), source: chosen.source, results: [] };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const { prefix, text } = chosen;
    const result = ({ field, message }: ConfigError) => {
      const where = text && field ? fieldPlace(text, field) : '';
      return plainResult(
        invalidConfig,
        `${prefix}${where}: ${message}`,
        field ? { path: field } : undefined,
      );
    };
    // Every bad option at once: fixing one to meet the next is a run each.
    const all = error instanceof ConfigErrors ? error.all : [error];
    return invalid(...all.map(result));
  }
}

/**
 * `, line L, column C` of a field's key in a `--fn-config` file (`data.storeWave`,
 * `podTemplates[1]`: the key), or nothing where it is not written in the file.
 */
function fieldPlace(text: string, field: string): string {
  const path = field.replace(/\[\d+\]/g, '').split('.');
  const key = path.pop() ?? '';
  const at = whereIs(text, false, path, key);
  // A quoted key starts one character later.
  if (!text.startsWith(key, at) && !text.startsWith(key, at + 1)) return '';
  return `, line ${lineNumberAt(text, at)}, column ${columnAt(text, at)}`;
}

function parseFnConfig(text: string): Json {
  try {
    checkNesting(text);
    return parseYaml(text, 0, text);
  } catch (error) {
    if (error instanceof ParseError || error instanceof InputError) {
      throw new ConfigError(error.message);
    }
    throw error;
  }
}

/**
 * The configuration of the secret-rollout function in a Kptfile item. Reads only the items that
 * can matter: those whose text names a Kptfile, or the configPath's file name (kpt writes both
 * plainly; parsing every item twice would double the cost on large inputs).
 */
function configInKptfile(input: Input): KptfileConfig {
  const itemValue = (item: InputItem, mentions: string): JsonObject | undefined => {
    if (item.value !== undefined) return isObject(item.value) ? item.value : undefined;
    if (!item.span || !input.text.slice(item.span.start, item.span.end).includes(mentions)) {
      return undefined;
    }
    const parsed = parseItem(input.text, item.span);
    // Unreadable items are reported by the main pass.
    return 'value' in parsed && isObject(parsed.value) ? parsed.value : undefined;
  };
  const kptfiles = input.items.flatMap((item) => {
    const value = itemValue(item, 'Kptfile');
    return value && isKptfile(value) ? [{ value, path: fileOfItem(value)?.path }] : [];
  });
  if (kptfiles.length === 0) return undefined;
  return kptfileConfig(kptfiles, (path) => {
    const name = path.split('/').pop() ?? path;
    return input.items.flatMap((item) => {
      const value = itemValue(item, name);
      const at = value && fileOfItem(value)?.path;
      return value && at !== undefined && normalise(at) === path ? [value] : [];
    });
  });
}

/** A parsed item with its path in the package (kpt's path annotations), where it has one. */
export interface PackageItem {
  value: JsonObject;
  path: string | undefined;
}

type KptfileConfig =
  | { source: string; functionConfig: Json | undefined }
  | { error: string }
  | undefined;

interface Candidate {
  /** `Kptfile pipeline.mutators[0]`, with the Kptfile's path. */
  where: string;
  kptfilePath: string;
  fn: JsonObject;
}

const isKptfile = (value: JsonObject) =>
  value.kind === 'Kptfile' &&
  typeof value.apiVersion === 'string' &&
  value.apiVersion.startsWith('kpt.dev/');

/** Whether a pipeline function runs secret-rollout: the last path segment of its exec or image. */
function isSecretRollout(fn: JsonObject): boolean {
  const ref = typeof fn.exec === 'string' ? fn.exec.trim().split(/\s+/)[0] : fn.image;
  if (typeof ref !== 'string') return false;
  return (ref.split(/[/\\]/).pop() ?? '').startsWith('secret-rollout');
}

/**
 * The configuration of the one secret-rollout function in `kptfiles`; undefined
 * when there is none. kpt passes `configMap:` as a ConfigMap named function-input and
 * `configPath:` as the resource in that file (relative to the Kptfile's directory).
 */
export function kptfileConfig(
  kptfiles: readonly PackageItem[],
  /** The items whose path is `path` (looked up only for a configPath). */
  itemsAt: (path: string) => JsonObject[],
): KptfileConfig {
  const candidates: Candidate[] = [];
  for (const item of kptfiles) {
    if (!isKptfile(item.value)) continue;
    const kptfilePath = item.path ?? 'Kptfile';
    const pipeline = isObject(item.value.pipeline) ? item.value.pipeline : {};
    for (const list of ['mutators', 'validators']) {
      const fns = pipeline[list];
      if (!Array.isArray(fns)) continue;
      fns.forEach((fn, i) => {
        if (isObject(fn) && isSecretRollout(fn)) {
          candidates.push({ where: `${kptfilePath} pipeline.${list}[${i}]`, kptfilePath, fn });
        }
      });
    }
  }
  if (candidates.length === 0) return undefined;
  // A `mode: check` validator checks what the mutator renders (same options, plus the mode): the
  // mutator's configuration is the package's, not a second choice.
  const renders = candidates.filter((c) => !isCheck(c.fn));
  const chosen = renders.length > 0 ? renders : candidates;
  const [candidate] = chosen as [Candidate];
  if (chosen.length > 1) {
    const named = chosen.map((c) => `${c.where} (${functionName(c.fn)})`).join(', ');
    return {
      error: `several secret-rollout functions in the input's Kptfiles: ${named}; choose the configuration with --fn-config FILE or key=value`,
    };
  }
  const { where, fn } = candidate;
  if (fn.configMap !== undefined && fn.configPath !== undefined) {
    return { error: `${where} has both configMap and configPath (kpt accepts only one)` };
  }
  if (fn.configMap !== undefined) {
    if (!isObject(fn.configMap)) return { error: `${where}.configMap is not a mapping` };
    // kpt reads configMap as map[string]string: scalars arrive as their text.
    // fromEntries defines each key, `__proto__` too (an assignment would set the prototype).
    const data: JsonObject = Object.fromEntries(
      Object.entries(fn.configMap).map(([key, value]) => [
        key,
        typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : value === null
            ? ''
            : value,
      ]),
    );
    return {
      source: `${where}.configMap`,
      functionConfig: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'function-input' },
        data,
      },
    };
  }
  if (fn.configPath !== undefined) {
    if (typeof fn.configPath !== 'string') return { error: `${where}.configPath is not a string` };
    const path = joinPath(dirOf(candidate.kptfilePath), fn.configPath);
    const found = itemsAt(path);
    if (found.length !== 1) {
      const why = found.length === 0 ? 'is not among the input items' : 'holds several resources';
      return {
        error: `${where}.configPath ${fn.configPath} (${path}) ${why}; kpt fn source includes it, or give it with --fn-config`,
      };
    }
    return { source: `${where}.configPath ${path}`, functionConfig: found[0] as JsonObject };
  }
  return { source: where, functionConfig: undefined };
}

const isCheck = (fn: JsonObject) => isObject(fn.configMap) && fn.configMap.mode === 'check';

function functionName(fn: JsonObject): string {
  return typeof fn.exec === 'string' ? `exec ${fn.exec}` : `image ${String(fn.image)}`;
}

const dirOf = (path: string) => {
  const slash = normalise(path).lastIndexOf('/');
  return slash < 0 ? '' : normalise(path).slice(0, slash);
};

const joinPath = (dir: string, path: string) => normalise(dir === '' ? path : `${dir}/${path}`);

/** A package-relative path with `.`, `..` and repeated slashes resolved (kpt's are relative). */
function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
