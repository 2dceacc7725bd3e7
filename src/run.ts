// Text in, text out. Every command is one pipeline, as kyaml's kio.Pipeline reads: read the input
// (krm/read.ts), resolve the options (krm/options.ts), read the items as the rules' read plan says
// (krm/items.ts), transform (rules/), then a writer: the items with their proven edits (run), the
// items unchanged with an error per needed edit (check), or the plan (plan); `analyse` stops
// before the writer (impact compares two). No process I/O here, so tests drive it directly.

import { applyEdits } from './krm/apply-edits.js';
import { readItems } from './krm/items.js';
import { type Input, InputError, readInput } from './krm/read.js';
import { writeOutput } from './krm/write.js';
import type { Splice } from './krm/yaml/splice.js';
import { type Config, defaultConfig, type Ordering } from './model/config.js';
import { isListEntryEdit } from './model/edit.js';
import type { ReadPlan } from './model/read-contract.js';
import type { Resource } from './model/resource.js';
import { invalidInput, moreResults } from './model/result-rules.js';
import {
  complete,
  formatResult,
  hasErrors,
  plainResult,
  type Result,
  severities,
} from './model/results.js';
import { type GivenOptions, resolveOptions } from './options.js';
import { planJson, planMermaid, planTable } from './report/plan.js';
import { type CheckedBy, checkResults } from './rules/check.js';
import { readPlan } from './rules/read-plan.js';
import { type TransformOutput, transform } from './rules/transform.js';

/** `stdout` as a string, or (`Pieces`) as the pieces the process writes one by one. */
export interface RunOutput<Stdout = string> {
  stdout: Stdout;
  stderr: string;
  exitCode: 0 | 1;
}

export interface RunOptions extends GivenOptions {
  verbose?: boolean;
  /** Also print errors and warnings of a ResourceList on stderr (kustomize shows only stderr). */
  logToStderr?: boolean;
  /**
   * The text is printable ASCII and line feeds only, as stdin's bytes said (stdio.ts readText):
   * the reader does not look for the characters its quick reader declines (krm/read.ts).
   */
  printable?: boolean;
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
  /** Items whose value holds only what the rules read (rules/read-plan.ts). */
  projected: ReadonlySet<number>;
}

/**
 * Read → options → items → transform; a RunOutput when the input cannot be read at all.
 * `fromKptfile`: without other options, use the secret-rollout function's in a Kptfile item.
 */
export function analyse(
  text: string,
  options: RunOptions,
  fromKptfile = false,
): Analysis | RunOutput {
  let input: Input;
  let resolved: ReturnType<typeof resolveOptions>;
  let read: ReturnType<typeof readItems>;
  try {
    input = readInput(text, undefined, options.printable);
    // Both may also throw the nesting verdict of an item, judged where it is read (krm/read.ts
    // checkItemNesting): a Kptfile item read for options, or any item.
    resolved = resolveOptions(input, options, fromKptfile);
    // No item, no read plan: an empty list's run needs no rules (build.mjs: their file).
    read = readItems(
      input,
      input.items.length > 0 ? readPlan(resolved.config ?? defaultConfig) : readWhole,
    );
  } catch (error) {
    if (error instanceof InputError) return failure(error.message);
    throw error;
  }
  const { config, source: configSource, results } = resolved;
  if (input.format === 'yaml-list' && input.listError) {
    results.push(plainResult(invalidInput, input.listError));
  }
  for (const r of read.results) results.push(r);
  const { resources, bystanders, aliased, projected, streamBroken } = read;
  if (streamBroken) {
    // Only the YAML error: what the other documents mean is unknown.
    const first = results.find((r) => r.severity === 'error' && /invalid YAML/.test(r.message));
    results.splice(0, results.length, ...(first ? [first] : []));
  }
  const planned =
    !config || streamBroken
      ? emptyPlan()
      : resources.length + bystanders.length === 0
        ? emptyPlan(config.ordering)
        : transform(resources, config, bystanders, {
            characters: text.length,
            bytes: () => Buffer.byteLength(text),
          });
  for (const r of planned.results) results.push(r);
  return { input, resources, results, planned, config, configSource, aliased, projected };
}

/** stdout as written: write() (stdio.ts) empties the list as it goes. */
export type Pieces = string[];

/** What a writer makes of an analysis; `summary`: the verbose line, without its time. */
interface Written {
  stdout: Pieces;
  stderr: string[];
  exitCode: 0 | 1;
  summary?: string;
}

interface Command<Options extends RunOptions = RunOptions> {
  /** Without other options, take those of a Kptfile in the input (`kpt fn source . | …`). */
  fromKptfile: boolean;
  /** Whether write() reads `analysis.planned.plan`; if not, it is dropped before. */
  readsPlan(analysis: Analysis): boolean;
  write(analysis: Analysis, options: Options): Written;
}

/** The pipeline every command runs: one clock from the first byte read to the last result. */
function execute<Options extends RunOptions>(
  text: string,
  options: Options,
  command: Command<Options>,
): RunOutput<Pieces> {
  // Date, not performance: loading perf_hooks costs every start ≈5 ms, and ms are all we print.
  const started = Date.now();
  const analysis = analyse(text, options, command.fromKptfile);
  if (!('planned' in analysis)) return inPieces(analysis);
  // A run's writer reads the edits, not the plan (2–13 MiB live at 10k items): unreachable from
  // here on (a new TransformOutput: the rules' own is left as they made it), it is freed by V8's
  // next mark-compact, which the writer of a large input reaches.
  if (!command.readsPlan(analysis)) {
    analysis.planned = { ...analysis.planned, plan: emptyPlan().plan };
  }
  const { stdout, stderr, exitCode, summary } = command.write(analysis, options);
  if (summary !== undefined && (options.verbose || analysis.config?.verbose)) {
    stderr.push(`${summary} in ${Date.now() - started} ms`);
  }
  return { stdout, stderr: stderr.map((l) => `${l}\n`).join(''), exitCode };
}

/** What a run writes: the input with the planned edits, and the results. */
export function run(text: string, options: RunOptions = {}): RunOutput {
  return joined(runInPieces(text, options));
}

/** run() with stdout in pieces (see writeOutput): what the process writes. */
export function runInPieces(text: string, options: RunOptions = {}): RunOutput<Pieces> {
  return execute(text, options, runCommand);
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
  return execute(text, options, checkCommand);
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
  return joined(execute(text, options, planCommand));
}

const checkMode = (analysis: Analysis) => analysis.config?.mode === 'check';

/** The run: the items with the planned edits, unless mode=check says to check them. */
const runCommand: Command = {
  fromKptfile: false,
  readsPlan: checkMode,
  write: (analysis, options) =>
    checkMode(analysis) ? checking(analysis, options) : rendered(analysis, options),
};
const checkCommand: Command = { fromKptfile: true, readsPlan: () => true, write: checking };
const planCommand: Command<PlanOptions> = {
  fromKptfile: true,
  readsPlan: () => true,
  write: planning,
};

function rendered(analysis: Analysis, options: RunOptions): Written {
  const { input, resources, results, planned, aliased, projected } = analysis;
  const edited = hasErrors(results)
    ? new Map<number, Splice[]>()
    : applyEdits(input, resources, planned.edits, results, aliased, projected);
  // An edit whose proof failed is an error too: any error leaves every item as it came in, so
  // info about planned edits would mislead.
  const failed = hasErrors(results);
  const reported = failed ? bySeverity(results, false) : bySeverity(capInfo(results), true);
  // A stream carries no results: on error print nothing a pipe could take for success.
  const written = output(input, failed ? new Map() : edited, reported, options, failed);
  const edits = failed ? [] : planned.edits;
  // List entries appended (a HelmRelease's postRenderers) are no annotations: named only when there.
  const appended = edits.filter(isListEntryEdit).length;
  const entries =
    appended > 0 ? `, ${appended} list ${appended === 1 ? 'entry' : 'entries'} appended` : '';
  const summary = `secret-rollout: ${count(input.items.length, 'item')}, ${count(edits.length - appended, 'annotation')} set${entries}, ${count(reported.length, 'result')}`;
  return { ...written, exitCode: failed ? 1 : 0, summary };
}

/**
 * Check mode: the items exactly as they came in; an error per edit a render would make. A
 * ResourceList comes back with the results; a stream prints nothing on stdout (there is nothing
 * new to pipe on), the results go to stderr.
 */
function checking(analysis: Analysis, options: RunOptions): Written {
  const { input, resources, results, planned } = analysis;
  // A render with errors writes nothing: its errors are the whole answer, as in run().
  const failed = hasErrors(results);
  const by: CheckedBy = holdsNoResults(input)
    ? 'stream'
    : options.logToStderr
      ? 'kustomize'
      : 'kpt';
  const drift = failed ? [] : checkResults(resources, planned.edits, planned.plan, by);
  const all = [...results, ...drift];
  const exitCode = hasErrors(all) ? 1 : 0;
  const reported = failed ? bySeverity(results, false) : bySeverity(capInfo(all), true);
  // On stderr, as plan: info only with --verbose (a gate's answer is its errors). A ResourceList
  // keeps every result for kpt to show.
  const verbose = options.verbose || analysis.config?.verbose;
  const onStderr = bySeverity(reported, verbose === true);
  const written = output(input, new Map(), reported, options, true, onStderr);
  const summary = `secret-rollout check: ${count(input.items.length, 'item')}, ${count(drift.length, 'change')} needed, ${count(reported.length, 'result')}`;
  return { ...written, exitCode, summary };
}

function planning(analysis: Analysis, options: PlanOptions): Written {
  const { results, planned, config, configSource } = analysis;
  const exitCode = hasErrors(results) ? 1 : 0;
  // `plan` lists every result: no cap as in run().
  const all = results.map(complete);
  // Without a valid configuration, or with an item that could not be read, nothing was planned:
  // an empty table (`ordering: none`, which no one asked for) would mislead, in any format.
  const unread = !config || results.some((r) => r.tags.rule === invalidInput.id);
  if (options.format === 'json' && !unread) {
    return { stdout: [planJson(planned.plan, all)], stderr: [], exitCode };
  }
  const stderr = all.filter((r) => options.verbose || r.severity !== 'info').map(formatResult);
  if (options.verbose && config) {
    stderr.unshift(`secret-rollout: options from ${configSource ?? 'defaults'}`);
  }
  if (unread) return { stdout: [], stderr, exitCode };
  const render = options.format === 'mermaid' ? planMermaid : planTable;
  return { stdout: [render(planned.plan)], stderr, exitCode };
}

/**
 * The items (with their edits) and the results as the input's format carries them: a
 * ResourceList holds its results (also on stderr with logToStderr, but info); a stream or a JSON
 * object has no place for them, they go to stderr, and with `quiet` (a run that failed; check,
 * which has nothing new to pipe on) nothing goes to stdout.
 */
function output(
  input: Input,
  edited: ReadonlyMap<number, Splice[]>,
  reported: readonly Result[],
  options: RunOptions,
  quiet: boolean,
  onStderr: readonly Result[] = reported,
): { stdout: Pieces; stderr: string[] } {
  const stdout = writeOutput(input, edited, reported);
  const stderr: string[] = [];
  if (holdsNoResults(input)) {
    for (const r of onStderr) stderr.push(formatResult(r));
    return { stdout: quiet ? [] : stdout, stderr };
  }
  if (options.logToStderr) {
    for (const r of onStderr) if (r.severity !== 'info') stderr.push(formatResult(r));
  }
  return { stdout, stderr };
}

/** A stream or a JSON object: no place for results, which go to stderr (what check's fix names). */
const holdsNoResults = (input: Input) =>
  input.format === 'yaml-stream' || input.format === 'json-object';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function failure(message: string): RunOutput {
  return { stdout: '', stderr: `secret-rollout: ${message}\n`, exitCode: 1 };
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
 * What transform plans for no items (test/start-up-work.test.ts holds it to that), or for none
 * read; `ordering`: the options', which `plan` prints.
 */
function emptyPlan(ordering: readonly Ordering[] = []): TransformOutput {
  const plan = {
    ordering,
    nodes: new Map(),
    stores: [],
    sources: [],
    consumersOf: new Map(),
    readersOf: new Map(),
    checksums: new Map(),
    placed: new Set<never>(),
    conflicts: new Map(),
  };
  return { edits: [], results: [], plan };
}

/** The read plan of an input without items, which readItems never asks: each item read whole. */
const readWhole: ReadPlan = {
  passesThrough: () => undefined,
  projection: () => true,
  later: { candidate: () => false, wanted: () => () => false },
  defaultNamespace: undefined,
};

/**
 * Errors first, then warnings, then info (`withInfo`), each in the run's order: kpt shows a
 * function's first results and folds the rest ("N line(s) truncated"), so an error after a
 * package's checksum infos went unseen.
 */
function bySeverity(results: readonly Result[], withInfo: boolean): Result[] {
  return severities.flatMap((severity) =>
    severity === 'info' && !withInfo ? [] : results.filter((r) => r.severity === severity),
  );
}

/** Info results kept one by one; past this a summary stands for the rest (`plan` lists all). */
export const maxInfoResults = 200;

/** Errors and warnings are always all there; thousands of info lines help no one. */
function capInfo(results: Result[]): Result[] {
  const infos = results.filter((r) => r.severity === 'info');
  if (infos.length <= maxInfoResults) return results.map(complete);
  const kept = new Set(infos.slice(0, maxInfoResults));
  const rest = infos.length - maxInfoResults;
  // By rule: `plan` lists checksums and waves, not a lint's infos, which only a severity of
  // warning shows one by one.
  const byRule = new Map<string, number>();
  for (let i = maxInfoResults; i < infos.length; i++) {
    const { rule } = (infos[i] as Result).tags;
    byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  }
  const counts = [...byRule]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
  const summary = plainResult(
    moreResults,
    `${rest} more info results like the ones above (${counts}); \`secret-rollout plan\` lists every checksum and wave, and a lint set to warning reports each of its results`,
  );
  return [...results.filter((r) => r.severity !== 'info' || kept.has(r)).map(complete), summary];
}
