// Text in, text out: reads the input, runs the pure core, proves and writes the edits. No process
// I/O here, so tests drive it directly.
import { type Config, ConfigError, readConfig } from './config.js';
import { applyToValue, EditError, editText } from './io/edit.js';
import { type Input, InputError, parseItem, readInput } from './io/input.js';
import { lineBreakOf } from './io/lines.js';
import { writeOutput } from './io/output.js';
import { passesThrough } from './io/pass-through.js';
import type { MappingEdit } from './plan/edits.js';
import { planMermaid, planTable } from './plan/report.js';
import { ItemError, isObject, type Resource, toResource } from './resource.js';
import { formatResult, hasErrors, type Result } from './results.js';
import { type TransformOutput, transform } from './transform.js';

export interface RunOutput {
  stdout: string;
  stderr: string;
  exitCode: 0 | 1;
}

export interface RunOptions {
  /** `key=value` options for stream input, which carries no functionConfig. */
  settings?: Readonly<Record<string, string>>;
  verbose?: boolean;
  /** Also print errors and warnings of a ResourceList on stderr (kustomize shows only stderr). */
  logToStderr?: boolean;
}

interface Analysis {
  input: Input;
  resources: Resource[];
  /** Reading and configuration errors, then the plan's results. */
  results: Result[];
  planned: TransformOutput;
}

/** Reads and plans; a RunOutput when the input cannot be read at all. */
function analyse(text: string, options: RunOptions): Analysis | RunOutput {
  let input: Input;
  try {
    input = readInput(text);
  } catch (error) {
    if (error instanceof InputError) return failure(error.message);
    throw error;
  }
  const results: Result[] = [];
  const config = configOf(input, options, results);
  if (input.format === 'yaml-list' && input.listError) {
    results.push({ severity: 'error', message: input.listError });
  }

  const resources: Resource[] = [];
  input.items.forEach((item, index) => {
    const where = `item ${index}`;
    let value = item.value;
    if (value === undefined && item.span) {
      const { span } = item;
      if (passesThrough(input.text.slice(span.start, span.end), span.entry)) return;
      const parsed = parseItem(input.text, span);
      if ('error' in parsed) {
        results.push({ severity: 'error', message: `${where}: ${parsed.error}` });
        return;
      }
      value = parsed.value;
    }
    try {
      resources.push(toResource(index, value));
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      results.push({ severity: 'error', message: `${where}${nameOf(value)}: ${error.message}` });
    }
  });

  const planned = config ? transform(resources, config) : emptyPlan();
  results.push(...planned.results);
  return { input, resources, results, planned };
}

export function run(text: string, options: RunOptions = {}): RunOutput {
  const started = performance.now();
  const analysis = analyse(text, options);
  if (!('planned' in analysis)) return analysis;
  const { input, resources, results, planned } = analysis;
  const edited = hasErrors(results)
    ? new Map()
    : applyEdits(input, resources, planned.edits, results);
  const exitCode = hasErrors(results) ? 1 : 0;
  // Any error leaves every item as it came in, so info about planned edits would mislead.
  const reported = exitCode === 0 ? results : results.filter((r) => r.severity !== 'info');
  const output = writeOutput(input, exitCode === 0 ? edited : new Map(), reported);

  const stderr: string[] = [];
  let stdout = output;
  if (input.format === 'yaml-stream' || input.format === 'json-object') {
    stderr.push(...reported.map(formatResult));
    // A stream carries no results: on error print nothing a pipe could take for success.
    if (exitCode === 1) stdout = '';
  } else if (options.logToStderr) {
    stderr.push(...reported.filter((r) => r.severity !== 'info').map(formatResult));
  }
  if (options.verbose) {
    const ms = Math.round(performance.now() - started);
    stderr.push(
      `secret-rollout: ${input.items.length} items, ${exitCode === 0 ? planned.edits.length : 0} annotations set, ${reported.length} results in ${ms} ms`,
    );
  }
  return { stdout, stderr: stderr.map((l) => `${l}\n`).join(''), exitCode };
}

function configOf(input: Input, options: RunOptions, results: Result[]): Config | undefined {
  const functionConfig =
    input.format === 'yaml-list'
      ? input.functionConfig
      : input.format === 'json-list'
        ? input.value.functionConfig
        : undefined;
  const settings = options.settings ?? {};
  try {
    if (Object.keys(settings).length > 0) {
      if (functionConfig !== undefined) {
        throw new ConfigError(
          'key=value arguments are for YAML streams; this ResourceList has a functionConfig',
        );
      }
      return readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { ...settings } });
    }
    return readConfig(functionConfig);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const result: Result = { severity: 'error', message: `functionConfig: ${error.message}` };
    if (error.field) result.field = { path: error.field };
    results.push(result);
    return undefined;
  }
}

/** Edited text per item; a failed proof becomes an error result. */
function applyEdits(
  input: Input,
  resources: readonly Resource[],
  edits: readonly MappingEdit[],
  results: Result[],
): Map<number, string> {
  const byItem = new Map<number, MappingEdit[]>();
  for (const edit of edits) byItem.set(edit.item, [...(byItem.get(edit.item) ?? []), edit]);
  const edited = new Map<number, string>();
  const lineBreak = lineBreakOf(input.text);
  for (const resource of resources) {
    const itemEdits = byItem.get(resource.index);
    if (!itemEdits) continue;
    for (const edit of itemEdits) applyToValue(resource.value, edit);
    const span = input.items[resource.index]?.span;
    if (!span) continue; // JSON: the value itself is the output
    try {
      const text = input.text.slice(span.start, span.end);
      edited.set(resource.index, editText(text, span.entry, itemEdits, resource.value, lineBreak));
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      results.push({
        severity: 'error',
        message: `item ${resource.index} (${resource.kind} ${resource.name}): ${error.message}`,
      });
    }
  }
  return edited;
}

function failure(message: string): RunOutput {
  return { stdout: '', stderr: `secret-rollout: ${message}\n`, exitCode: 1 };
}

/** `secret-rollout plan`: the wave plan as a table, or a Mermaid flowchart. */
export function plan(text: string, options: RunOptions & { mermaid?: boolean } = {}): RunOutput {
  const analysis = analyse(text, options);
  if (!('planned' in analysis)) return analysis;
  const errors = analysis.results.filter((r) => r.severity === 'error');
  if (errors.length > 0) {
    return { stdout: '', stderr: errors.map((r) => `${formatResult(r)}\n`).join(''), exitCode: 1 };
  }
  const render = options.mermaid ? planMermaid : planTable;
  return { stdout: render(analysis.planned.plan), stderr: '', exitCode: 0 };
}

function emptyPlan(): TransformOutput {
  const plan = {
    nodes: new Map(),
    stores: [],
    sources: [],
    consumersOf: new Map(),
    checksums: new Map(),
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
