// Text in, text out: reads the input, runs the pure core, proves and writes the edits. No process
// I/O here, so tests drive it directly.

import { isDeepStrictEqual } from 'node:util';
import { isKptfile, type KptfileConfig, kptfileConfig, normalise } from './krm/kptfile.js';
import { passesThrough } from './krm/pass-through.js';
import {
  checkItem,
  checkNesting,
  type Input,
  InputError,
  type InputItem,
  parseItem,
  readInput,
  wholeDocument,
} from './krm/read.js';
import { writeOutput } from './krm/write.js';
import {
  applySplices,
  applyToValue,
  EditError,
  editText,
  reparseItem,
  type Splice,
} from './krm/yaml/edit.js';
import { lineBreakOf } from './krm/yaml/lines.js';
import { peekScalar } from './krm/yaml/locate-lines.js';
import { ParseError, parseYaml } from './krm/yaml/parse.js';
import type { KeyCache } from './krm/yaml/quick-parse.js';
import type { ItemSpan, Span } from './krm/yaml/spans.js';
import { type Config, ConfigError, defaultConfig, readConfig } from './model/config.js';
import type { MappingEdit } from './model/edit.js';
import { isObject, type Json, type JsonObject } from './model/json.js';
import { getPath } from './model/path.js';
import {
  type Bystander,
  ItemError,
  maxNodes,
  type Resource,
  toResource,
} from './model/resource.js';
import { editRefused, invalidConfig, invalidInput, moreResults } from './model/result-rules.js';
import { complete, formatResult, hasErrors, plainResult, type Result } from './model/results.js';
import { planJson, planMermaid, planTable } from './report/plan.js';
import { checkResults } from './rules/check.js';
import { inputReads, type NamedObject, projectionsFor } from './rules/reads.js';
import { ruleCatalog } from './rules/rule-table.js';
import { type TransformOutput, transform } from './rules/transform.js';

/** `stdout` as a string, or (`Pieces`) as the pieces the process writes one by one. */
export interface RunOutput<Stdout = string> {
  stdout: Stdout;
  stderr: string;
  exitCode: 0 | 1;
}

export interface RunOptions {
  /** `key=value` options for stream input, which carries no functionConfig. */
  settings?: Readonly<Record<string, string>>;
  verbose?: boolean;
  /** Also print errors and warnings of a ResourceList on stderr (kustomize shows only stderr). */
  logToStderr?: boolean;
  /** `--fn-config FILE`: its path (for messages) and text; main.ts reads it. */
  fnConfig?: { path: string; text: string };
}

export interface Analysis {
  input: Input;
  resources: Resource[];
  /** Reading and configuration errors, then the plan's results. */
  results: Result[];
  planned: TransformOutput;
  /** Undefined when the functionConfig is invalid (an error result says why). */
  config: Config | undefined;
  /** Where the options came from; undefined: defaults. */
  configSource: string | undefined;
  /** Items read from the whole document: they alias an anchor in another item. */
  aliased: ReadonlySet<number>;
  /** Items whose value holds only what the rules read (rules/reads.ts). */
  projected: ReadonlySet<number>;
}

/**
 * The longest item read, in characters: the Kubernetes API server takes no request body over
 * 3 MiB (kubernetes/apiserver pkg/server/config.go, MaxRequestBodyBytes: twice the 1.5 MiB etcd
 * stores), so no object it could apply is longer. Past a few MiB an item the quick reader declines
 * costs the conforming reader ≈100 bytes of memory per byte (an 8 MB anchored mapping: 714 MiB).
 */
export const maxItemLength = 3 << 20;
const itemTooLarge = `is longer than ${maxItemLength >> 20} MiB, more than the Kubernetes API server accepts for one object: not read`;

/** The largest ResourceList whose items may alias each other's anchors (see readOne). */
export const maxAliasedList = 1 << 20;
const aliasedListTooLarge = `aliases a YAML anchor of another item in a ResourceList larger than ${maxAliasedList / (1 << 20)} MiB, which is read whole to prove each edit: define the anchor in this item, or split the list`;

/**
 * Reads and plans; a RunOutput when the input cannot be read at all. `fromKptfile`: without
 * other configuration, use the secret-rollout function's in a Kptfile item (`plan`).
 */
export function analyse(
  text: string,
  options: RunOptions,
  fromKptfile = false,
): Analysis | RunOutput {
  let input: Input;
  try {
    input = readInput(text);
  } catch (error) {
    if (error instanceof InputError) return failure(error.message);
    throw error;
  }
  const results: Result[] = [];
  const { config, source: configSource } = configOf(input, options, results, fromKptfile);
  if (input.format === 'yaml-list' && input.listError) {
    results.push(plainResult(invalidInput, input.listError));
  }

  const resources: Resource[] = [];
  const bystanders: Bystander[] = [];
  const aliased = new Set<number>();
  const projected = new Set<number>();
  const keyCache: KeyCache = new Map();
  const projectionFor = projectionsFor(config ?? defaultConfig);
  const noun = input.format === 'yaml-stream' ? 'document' : 'item';
  let streamBroken = false;
  // ConfigMaps and Secrets copied through unparsed, in case a source turns out to read them.
  const unread: { index: number; object: NamedObject; bystander: Bystander }[] = [];
  /** Reads one item; `passing`: it may be copied through unparsed (pass-through.ts). */
  const readOne = (item: InputItem, index: number, passing: boolean) => {
    if (streamBroken) return;
    const where = `${noun} ${index}`;
    if (item.error) {
      if (input.format === 'yaml-stream') streamBroken = true;
      results.push(plainResult(invalidInput, `${where}: ${item.error}`));
      return;
    }
    let value = item.value;
    let nodeBound: number | undefined;
    if (value === undefined && item.span) {
      const { span } = item;
      if (span.end - span.start > maxItemLength) {
        results.push(plainResult(invalidInput, `${where}: ${itemTooLarge}`));
        return;
      }
      const itemText = input.text.slice(span.start, span.end);
      const usual = 'usualCharacters' in input && input.usualCharacters;
      const bystander = passing
        ? passesThrough(itemText, span.entry, config ?? defaultConfig)
        : undefined;
      if (bystander) {
        // Copied through unparsed, but still checked: invalid YAML is an error wherever it is.
        const problem = checkItem(input.text, span, usual);
        if (problem) {
          if (input.format === 'yaml-stream') streamBroken = true;
          results.push(
            plainResult(invalidInput, `${where}${peekedName(itemText, span.entry)}: ${problem}`),
          );
        }
        bystanders.push(bystander);
        const { apiVersion, kind, namespace, name } = bystander;
        const plain = apiVersion === 'v1' && (kind === 'ConfigMap' || kind === 'Secret');
        if (plain && name && !problem) {
          unread.push({ index, object: { kind, namespace, name }, bystander });
        }
        return;
      }
      const apiVersion = peekScalar(itemText, span.entry, [], 'apiVersion');
      const kind = peekScalar(itemText, span.entry, [], 'kind');
      // An item long enough to exceed the node bound is read whole, so that the alias-bomb
      // check (toResource) sees what it saw before.
      const projection = span.end - span.start > maxNodes ? true : projectionFor(apiVersion, kind);
      let parsed = parseItem(input.text, span, keyCache, usual, projection);
      if (projection !== true && 'value' in parsed) {
        // The kind the projection was chosen for must be the item's; else read it all.
        const v = parsed.value;
        if (isObject(v) && v.apiVersion === apiVersion && v.kind === kind) projected.add(index);
        else parsed = parseItem(input.text, span, keyCache, usual);
      }
      if ('value' in parsed) ({ value, nodeBound } = parsed);
      else if (parsed.aliased && input.format === 'yaml-list') {
        // An alias to an anchor in another item: read it from the whole document, which every
        // proof of an edit then reads again whole (run.ts provenInDocument), at ≈1 s and
        // ≈100 bytes of memory per byte in the conforming reader. No renderer writes such lists
        // (kpt and kustomize write no anchors), so they are read up to a size that stays cheap.
        const { start, end } = input.document;
        if (end - start > maxAliasedList) {
          results.push(plainResult(invalidInput, `${where}: ${aliasedListTooLarge}`));
          return;
        }
        const items = getPath(wholeDocument(input.text, input.document), ['items']);
        value = Array.isArray(items) ? items[index] : undefined;
        aliased.add(index);
      }
      if (value === undefined) {
        // Documents are split by their `---` lines: after invalid YAML that split cannot be
        // trusted (a `---` may be inside an unclosed quote), so a stream's first such error is all.
        const error = 'error' in parsed ? parsed.error : '';
        if (input.format === 'yaml-stream' && error.startsWith('invalid YAML')) streamBroken = true;
        results.push(
          plainResult(invalidInput, `${where}${peekedName(itemText, span.entry)}: ${error}`),
        );
        return;
      }
    }
    try {
      resources.push(toResource(index, value, nodeBound));
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      results.push(plainResult(invalidInput, `${where}${nameOf(value)}: ${error.message}`));
    }
  };
  input.items.forEach((item, index) => {
    readOne(item, index, true);
  });
  // Sources are known only now: read the ConfigMaps and Secrets they read (ESO templateFrom),
  // which the common input has none of, so the pass above can copy every ConfigMap through.
  const wanted = unread.length > 0 ? inputReads(resources) : () => false;
  const late = unread.filter((u) => wanted(u.object));
  if (late.length > 0) {
    for (const { index } of late) readOne(input.items[index] as InputItem, index, false);
    const built = new Set(late.map((u) => u.bystander));
    // Lists of any length are never spread into a call's arguments: the stack holds them all.
    const kept = bystanders.filter((b) => !built.has(b));
    bystanders.length = 0;
    for (const b of kept) bystanders.push(b);
    resources.sort((a, b) => a.index - b.index);
  }

  if (streamBroken) {
    // Only the YAML error: what the other documents mean is unknown.
    const first = results.find((r) => r.severity === 'error' && /invalid YAML/.test(r.message));
    results.splice(0, results.length, ...(first ? [first] : []));
  }
  const planned =
    config && !streamBroken
      ? transform(resources, config, bystanders, Buffer.byteLength(text))
      : emptyPlan();
  for (const r of planned.results) results.push(r);
  return { input, resources, results, planned, config, configSource, aliased, projected };
}

/** stdout as written: write() (stdio.ts) empties the list as it goes. */
export type Pieces = string[];

/** What a run writes: the input with the planned edits, and the results. */
export function run(text: string, options: RunOptions = {}): RunOutput {
  return joined(runInPieces(text, options));
}

/** run() with stdout in pieces (see writeOutput): what the process writes. */
export function runInPieces(text: string, options: RunOptions = {}): RunOutput<Pieces> {
  // Date, not performance: loading perf_hooks costs every start ≈5 ms, and ms are all we print.
  const started = Date.now();
  const analysis = analyse(text, options);
  if (!('planned' in analysis)) return inPieces(analysis);
  if (analysis.config?.mode === 'check') return checked(analysis, options, started);
  const { input, resources, results, planned, config, aliased, projected } = analysis;
  const edited = hasErrors(results)
    ? new Map()
    : applyEdits(input, resources, planned.edits, results, aliased, projected);
  const exitCode = hasErrors(results) ? 1 : 0;
  // Any error leaves every item as it came in, so info about planned edits would mislead.
  const reported = exitCode === 0 ? capInfo(results) : results.filter((r) => r.severity !== 'info');
  let stdout = writeOutput(input, exitCode === 0 ? edited : new Map(), reported);

  const stderr: string[] = [];
  if (input.format === 'yaml-stream' || input.format === 'json-object') {
    for (const r of reported) stderr.push(formatResult(r));
    // A stream carries no results: on error print nothing a pipe could take for success.
    if (exitCode === 1) stdout = [];
  } else if (options.logToStderr) {
    for (const r of reported) if (r.severity !== 'info') stderr.push(formatResult(r));
  }
  if (options.verbose || config?.verbose) {
    const ms = Date.now() - started;
    const set = exitCode === 0 ? planned.edits.length : 0;
    stderr.push(
      `secret-rollout: ${count(input.items.length, 'item')}, ${count(set, 'annotation')} set, ${count(reported.length, 'result')} in ${ms} ms`,
    );
  }
  return { stdout, stderr: stderr.map((l) => `${l}\n`).join(''), exitCode };
}

/**
 * The options, from one of: key=value arguments, `--fn-config`, the ResourceList's functionConfig
 * (two of them are an error: which one wins would be a guess), else, with `fromKptfile`, the
 * Kptfile's secret-rollout function, else the defaults.
 */
function configOf(
  input: Input,
  options: RunOptions,
  results: Result[],
  fromKptfile: boolean,
): { config: Config | undefined; source: string | undefined } {
  const functionConfig =
    input.format === 'yaml-list'
      ? input.functionConfig
      : input.format === 'json-list'
        ? input.value.functionConfig
        : undefined;
  const settings = options.settings ?? {};
  const { fnConfig } = options;
  // `prefix` starts error messages: what the user gave, so they know where to look.
  const given: { source: string; prefix: string; read: () => unknown }[] = [];
  if (Object.keys(settings).length > 0) {
    const read = () => ({ apiVersion: 'v1', kind: 'ConfigMap', data: { ...settings } });
    given.push({ source: 'key=value arguments', prefix: 'functionConfig', read });
  }
  if (fnConfig) {
    const source = `--fn-config ${fnConfig.path}`;
    given.push({ source, prefix: source, read: () => parseFnConfig(fnConfig.text) });
  }
  if (functionConfig !== undefined) {
    const source = "the ResourceList's functionConfig";
    given.push({ source, prefix: 'functionConfig', read: () => functionConfig });
  }
  if (given.length > 1) {
    const message = `conflicting configuration: ${given.map((g) => g.source).join(' and ')}; give only one`;
    results.push(plainResult(invalidConfig, message));
    return { config: undefined, source: undefined };
  }
  let chosen = given[0];
  if (!chosen && fromKptfile) {
    const found = configInKptfile(input);
    if (found && 'error' in found) {
      results.push(plainResult(invalidConfig, found.error));
      return { config: undefined, source: undefined };
    }
    if (found) {
      const { source, functionConfig } = found;
      chosen = { source, prefix: `functionConfig (${source})`, read: () => functionConfig };
    }
  }
  try {
    return { config: readConfig(chosen?.read(), ruleCatalog), source: chosen?.source };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const field = error.field ? { path: error.field } : undefined;
    results.push(plainResult(invalidConfig, `${chosen?.prefix}: ${error.message}`, field));
    return { config: undefined, source: undefined };
  }
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
    return value && isKptfile(value) ? [{ value, path: pathOf(value) }] : [];
  });
  if (kptfiles.length === 0) return undefined;
  return kptfileConfig(kptfiles, (path) => {
    const name = path.split('/').pop() ?? path;
    return input.items.flatMap((item) => {
      const value = itemValue(item, name);
      const at = value && pathOf(value);
      return value && at !== undefined && normalise(at) === path ? [value] : [];
    });
  });
}

/** The package path kpt annotates an item with (`kpt fn source`). */
function pathOf(value: JsonObject): string | undefined {
  const annotations = getPath(value, ['metadata', 'annotations']);
  if (!isObject(annotations)) return undefined;
  const path =
    annotations['internal.config.kubernetes.io/path'] ?? annotations['config.kubernetes.io/path'];
  return typeof path === 'string' ? path : undefined;
}

/** An item's edits as applied to its text (`splices`), and the value it must then read as. */
interface Applied {
  span: ItemSpan;
  text: string;
  edits: readonly MappingEdit[];
  splices: Splice[];
  expected: () => Json;
}

/** Edited text per item; a failed proof becomes an error result. */
function applyEdits(
  input: Input,
  resources: readonly Resource[],
  edits: readonly MappingEdit[],
  results: Result[],
  aliased: ReadonlySet<number>,
  projected: ReadonlySet<number>,
): Map<number, Splice[]> {
  const byItem = new Map<number, MappingEdit[]>();
  for (const edit of edits) {
    const list = byItem.get(edit.item);
    if (list) list.push(edit);
    else byItem.set(edit.item, [edit]);
  }
  const lineBreak = lineBreakOf(input.text);
  // Other items alias anchors in this document: an edit inside an anchored node would change
  // them too (even the sources a checksum is computed from), and an item that aliases another
  // item's anchor only parses within its document. Both are proven in the document.
  const inDocument = aliased.size > 0 && input.format === 'yaml-list' ? input : undefined;
  const applied = new Map<number, Applied>();
  const refused = new Map<number, string>();
  for (const resource of resources) {
    const itemEdits = byItem.get(resource.index);
    if (!itemEdits) continue;
    const span = input.items[resource.index]?.span;
    if (!span) {
      // JSON: the value itself is the output.
      for (const edit of itemEdits) applyToValue(resource.value, edit);
      continue;
    }
    const text = input.text.slice(span.start, span.end);
    let value: Json | undefined;
    const expected = (): Json => {
      if (value !== undefined) return value;
      // A projected value lacks what the rules do not read: the proof needs all of it.
      const whole = projected.has(resource.index) ? parseItem(input.text, span) : undefined;
      value = resource.value;
      if (whole) value = 'value' in whole ? whole.value : null;
      // A parsed alias is the anchored object itself: an edit applied there would also appear
      // wherever it is aliased, and the proof would accept an edit that changes those places.
      else if (/[&*]/.test(text)) value = unshared(resource.value);
      if (isObject(value)) for (const edit of itemEdits) applyToValue(value, edit);
      return value;
    };
    // Proven below with every other item's edits: one re-read of the document for them all.
    const later = inDocument && aliased.has(resource.index) ? 'later' : undefined;
    try {
      const splices = editText(text, span.entry, itemEdits, expected, lineBreak, later);
      applied.set(resource.index, { span, text, edits: itemEdits, splices, expected });
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      refused.set(resource.index, error.message);
    }
  }
  if (inDocument) {
    /** Proves an edit on its own, as every edit was before: its own error if it fails. */
    const alone = (index: number, one: Applied) => {
      try {
        if (aliased.has(index)) {
          const reparse = (edited: string) =>
            reparsedItems(inDocument, [{ span: one.span, text: edited }])?.[index];
          const { text, span, edits } = one;
          one.splices = editText(text, span.entry, edits, one.expected, lineBreak, reparse);
        }
        if (!provenInDocument(inDocument, new Map([[index, one]]), false)) {
          throw new EditError(
            'the edit is inside a YAML anchor that other items alias: it would change them too',
          );
        }
      } catch (error) {
        if (!(error instanceof EditError)) throw error;
        refused.set(index, error.message);
      }
    };
    // All edits at once, one re-read; where that fails, each half the same way, down to single
    // edits proven on their own as every edit was before (so a refused edit gets its own error).
    // Edits proven together need no proof alone: with all of them in place, each edited item
    // reads as expected and every other item as before. A few failing edits among n cost a few
    // log2(n) re-reads, not n.
    const settle = (group: readonly [number, Applied][]): void => {
      if (group.length === 0 || provenInDocument(inDocument, new Map(group), true)) return;
      const [first] = group;
      if (group.length === 1 && first) {
        alone(first[0], first[1]);
        return;
      }
      const half = Math.ceil(group.length / 2);
      settle(group.slice(0, half));
      settle(group.slice(half));
    };
    settle([...applied]);
  }
  const edited = new Map<number, Splice[]>();
  for (const resource of resources) {
    const message = refused.get(resource.index);
    const one = applied.get(resource.index);
    if (message !== undefined) {
      results.push(
        plainResult(
          editRefused,
          `item ${resource.index} (${resource.kind} ${resource.name}): ${message}`,
        ),
      );
    } else if (one) edited.set(resource.index, one.splices);
  }
  return edited;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function failure(message: string): RunOutput {
  return { stdout: '', stderr: `secret-rollout: ${message}\n`, exitCode: 1 };
}

export type PlanFormat = 'table' | 'mermaid' | 'json';

export interface PlanOptions extends RunOptions {
  format?: PlanFormat;
}

/**
 * `secret-rollout plan`: what a run would write, as a table, a Mermaid flowchart or JSON. The
 * plan is shown even with error results (a wave conflict marks its rows), then the results:
 * errors and warnings, and info with `verbose`; exit 1 on errors, as the run.
 */
export function plan(text: string, options: PlanOptions = {}): RunOutput {
  const analysis = analyse(text, options, true);
  if (!('planned' in analysis)) return analysis;
  const { results, planned, config, configSource } = analysis;
  const exitCode = hasErrors(results) ? 1 : 0;
  // `plan` lists every result: no cap as in run().
  const all = results.map(complete);
  if (options.format === 'json') {
    return { stdout: planJson(planned.plan, all), stderr: '', exitCode };
  }
  const lines = all.filter((r) => options.verbose || r.severity !== 'info').map(formatResult);
  if (options.verbose && config) {
    lines.unshift(`secret-rollout: options from ${configSource ?? 'defaults'}`);
  }
  const stderr = lines.map((l) => `${l}\n`).join('');
  // Without a valid configuration nothing was planned: an empty table would mislead.
  if (!config) return { stdout: '', stderr, exitCode };
  const render = options.format === 'mermaid' ? planMermaid : planTable;
  return { stdout: render(planned.plan), stderr, exitCode };
}

/**
 * `secret-rollout check`: check mode whatever the options say (`mode: check` does the same from a
 * functionConfig). Like plan, it takes the options of a Kptfile in the input when given none, so
 * `kpt fn source . | secret-rollout check` checks with the package's own options.
 */
export function check(text: string, options: RunOptions = {}): RunOutput {
  return joined(checkInPieces(text, options));
}

export function checkInPieces(text: string, options: RunOptions = {}): RunOutput<Pieces> {
  const started = performance.now();
  const analysis = analyse(text, options, true);
  if (!('planned' in analysis)) return inPieces(analysis);
  return checked(analysis, options, started);
}

const joined = (output: RunOutput<Pieces>): RunOutput => ({
  ...output,
  stdout: output.stdout.join(''),
});
const inPieces = (output: RunOutput): RunOutput<Pieces> => ({
  ...output,
  stdout: output.stdout === '' ? [] : [output.stdout],
});

/**
 * Check mode: the items exactly as they came in; an error per edit a render would make. A
 * ResourceList comes back with the results; a stream prints nothing on stdout (there is nothing
 * new to pipe on), the results go to stderr.
 */
function checked(analysis: Analysis, options: RunOptions, started: number): RunOutput<Pieces> {
  const { input, resources, results, planned, config } = analysis;
  // A render with errors writes nothing: its errors are the whole answer, as in run().
  const failed = hasErrors(results);
  const drift = failed ? [] : checkResults(resources, planned.edits, planned.plan.checksums);
  const all = [...results, ...drift];
  const exitCode = hasErrors(all) ? 1 : 0;
  const reported = failed ? results.filter((r) => r.severity !== 'info') : capInfo(all);
  const stderr: string[] = [];
  let stdout = writeOutput(input, new Map(), reported);
  if (input.format === 'yaml-stream' || input.format === 'json-object') {
    for (const r of reported) stderr.push(formatResult(r));
    stdout = [];
  } else if (options.logToStderr) {
    for (const r of reported) if (r.severity !== 'info') stderr.push(formatResult(r));
  }
  if (options.verbose || config?.verbose) {
    const ms = Math.round(performance.now() - started);
    stderr.push(
      `secret-rollout check: ${count(input.items.length, 'item')}, ${count(drift.length, 'change')} needed, ${count(reported.length, 'result')} in ${ms} ms`,
    );
  }
  return { stdout, stderr: stderr.map((l) => `${l}\n`).join(''), exitCode };
}

function emptyPlan(): TransformOutput {
  const plan = {
    nodes: new Map(),
    stores: [],
    sources: [],
    consumersOf: new Map(),
    checksums: new Map(),
    placed: new Set<never>(),
    conflicts: new Map(),
  };
  return { edits: [], results: [], plan };
}

/** ` (Kind name)` of a raw item, where it has them, so an error names what the user wrote. */
function nameOf(value: unknown): string {
  if (!isObject(value)) return '';
  const name = isObject(value.metadata) ? value.metadata.name : undefined;
  return typeof value.kind === 'string' && typeof name === 'string'
    ? ` (${value.kind} ${name})`
    : '';
}

/** ` (Kind name)` of an item that did not parse, read from its lines where they show it. */
function peekedName(text: string, entry: boolean): string {
  const kind = peekScalar(text, entry, [], 'kind');
  const name = kind && peekScalar(text, entry, ['metadata'], 'name');
  return kind && name ? ` (${kind} ${name})` : '';
}

/** Info results kept one by one; past this a summary stands for the rest (`plan` lists all). */
export const maxInfoResults = 200;

/** Errors and warnings are always all there; thousands of info lines help no one. */
function capInfo(results: Result[]): Result[] {
  const infos = results.filter((r) => r.severity === 'info');
  if (infos.length <= maxInfoResults) return results.map(complete);
  const kept = new Set(infos.slice(0, maxInfoResults));
  const rest = infos.length - maxInfoResults;
  const summary = plainResult(
    moreResults,
    `${rest} more info results like the ones above; \`secret-rollout plan\` lists every checksum and wave`,
  );
  return [...results.filter((r) => r.severity !== 'info' || kept.has(r)).map(complete), summary];
}

/**
 * Whether the document with the applied edits in place reads as before but for them: every
 * other item unchanged and, with `own`, each edited item as expected.
 */
function provenInDocument(
  input: Input & { format: 'yaml-list' },
  applied: ReadonlyMap<number, Applied>,
  own: boolean,
): boolean {
  const before = getPath(wholeDocument(input.text, input.document), ['items']);
  const changes = [...applied.values()].map((a) => ({
    span: a.span,
    text: applySplices(a.text, a.splices),
  }));
  const after = reparsedItems(input, changes);
  if (!Array.isArray(before) || !after || before.length !== after.length) return false;
  return before.every((item, i) => {
    const one = applied.get(i);
    if (!one) return isDeepStrictEqual(item, after[i]);
    return !own || isDeepStrictEqual(after[i] ?? null, one.expected());
  });
}

/** The items of the document with each change's text in place of its span, read again. */
function reparsedItems(
  input: Input & { format: 'yaml-list' },
  changes: readonly { span: Span; text: string }[],
): Json[] | undefined {
  const { document } = input;
  const splices = changes.map(({ span, text }) => ({
    start: span.start - document.start,
    end: span.end - document.start,
    text,
  }));
  const edited = applySplices(input.text.slice(document.start, document.end), splices);
  const items = getPath(reparseItem(edited, false), ['items']);
  return Array.isArray(items) ? items : undefined;
}

/** A copy that shares no objects, where YAML aliases made the parsed value share them. */
function unshared<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map(unshared) as T;
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unshared(v)])) as T;
  }
  return value;
}
