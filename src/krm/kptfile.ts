// The functionConfig `kpt fn render` would pass, read from the Kptfile items `kpt fn source`
// includes: so that `kpt fn source . | secret-rollout plan` plans with the package's own options.
// Pure: items in, a functionConfig (or a reason there is none) out.
import { isObject, type Json, type JsonObject } from '../model/json.js';

/** A parsed item with its path in the package (kpt's path annotations), where it has one. */
export interface PackageItem {
  value: JsonObject;
  path: string | undefined;
}

export type KptfileConfig =
  | { source: string; functionConfig: Json | undefined }
  | { error: string }
  | undefined;

interface Candidate {
  /** `Kptfile pipeline.mutators[0]`, with the Kptfile's path. */
  where: string;
  kptfilePath: string;
  fn: JsonObject;
}

export const isKptfile = (value: JsonObject) =>
  value.kind === 'Kptfile' &&
  typeof value.apiVersion === 'string' &&
  value.apiVersion.startsWith('kpt.dev/');

/** Whether a pipeline function runs secret-rollout: the last path segment of its exec or image. */
export function isSecretRollout(fn: JsonObject): boolean {
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
export function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
