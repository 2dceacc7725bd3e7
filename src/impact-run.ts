// `secret-rollout impact`: two inputs' text in, the report out. Plans both sides with the pure core
// (the same analysis `run` and `plan` use) and compares them; no process I/O here, so tests drive
// it directly. impact-cli.ts reads the files and directories.

import { contentStart, lineNumberAt } from './krm/yaml/lines.js';
import { defaultConfig } from './model/config.js';
import type { Resource } from './model/resource.js';
import { formatResult, type Result } from './model/results.js';
import { compareSides, type ImpactSide, impactJson } from './report/impact.js';
import { impactReports } from './report/impact-markdown.js';
import { impactSarif } from './report/impact-sarif.js';
import { describeRef } from './report/ref.js';
import { analyse, type RunOptions, type RunOutput } from './run.js';

export type ImpactFormat = 'markdown' | 'json' | 'sarif';
export const impactFormats: readonly ImpactFormat[] = ['markdown', 'json', 'sarif'];

/** One file of a side, and where its text starts in the side's text. */
export interface Origin {
  /** As SARIF names it: relative to the working directory where it is under it, `/` separated. */
  path: string;
  /** Offset of the file's first character in the side's text. */
  offset: number;
  /** Line (0-based) of that offset in the side's text. */
  line: number;
  /** The file's own text (to find which file is invalid). */
  text: string;
  /**
   * Where the side is a directory: the file's application, the directory (relative to the side's,
   * `.` for itself) nearest above it that holds a kustomization.yaml or Kptfile, else the top
   * directory under the side's (`.` for a file directly in it).
   */
  application?: string;
}

/** What BASE or HEAD is: a file, or a directory's files joined into one YAML stream. */
export interface SideInput {
  /** `BASE path` or `HEAD path`, for messages. */
  label: string;
  text: string;
  origins: readonly Origin[];
}

export interface ImpactOptions extends RunOptions {
  format?: ImpactFormat;
  /** The markdown comment's cap in characters (`--max-chars`). */
  maxChars?: number;
  /** Where the caller writes the full markdown report (`--output-full`), named when it is cut. */
  fullReport?: string;
  /** For SARIF's tool.driver.version. */
  version?: string;
}

interface Planned extends ImpactSide {
  /** Line (1-based) and file of each resource's item. */
  locate(resource: Resource): { uri: string; line: number } | undefined;
  /** The file (origin) of each resource's item. */
  originOf(resource: Resource): Origin | undefined;
}

/** The report, and with markdown the full report when the comment is cut (else the same). */
export type ImpactOutput = RunOutput & { full?: string };

export function impact(
  base: SideInput,
  head: SideInput,
  options: ImpactOptions = {},
): ImpactOutput {
  const sides: Planned[] = [];
  for (const side of [base, head]) {
    const planned = planSide(side, options);
    if ('exitCode' in planned) return planned;
    sides.push(planned);
  }
  const [before, after] = sides as [Planned, Planned];
  const compared = compareSides(before, after);
  const format = options.format ?? 'markdown';
  if (format === 'json') return ok(impactJson(compared));
  const byRef = new Map<string, Resource>();
  for (const r of after.resources) {
    const key = `${r.apiVersion} ${describeRef(r)}`;
    if (!byRef.has(key)) byRef.set(key, r);
  }
  if (format === 'markdown') {
    const { comment, full } = impactReports(compared, {
      applicationOf: (ref) => {
        const resource = byRef.get(`${ref.apiVersion} ${describeRef(ref)}`);
        return resource && after.originOf(resource)?.application;
      },
      ...(options.maxChars === undefined ? {} : { maxChars: options.maxChars }),
      ...(options.fullReport === undefined ? {} : { fullReport: options.fullReport }),
    });
    return { ...ok(comment), full };
  }
  const locate = (result: Result) => {
    const ref = result.resourceRef;
    const resource = ref && byRef.get(`${ref.apiVersion} ${describeRef(ref)}`);
    return resource && after.locate(resource);
  };
  return ok(impactSarif(compared.lints, { version: options.version ?? '0.0.0', locate }));
}

const ok = (stdout: string): RunOutput => ({ stdout, stderr: '', exitCode: 0 });
const fail = (message: string): RunOutput => ({
  stdout: '',
  stderr: `secret-rollout: impact: ${message.replace(/^secret-rollout: /, '').trim()}\n`,
  exitCode: 1,
});

/** The plan of one side, or the one-line failure naming the file that cannot be read. */
function planSide(side: SideInput, options: ImpactOptions): Planned | RunOutput {
  const analysis = analyse(side.text, options, true);
  const problem = problemOf(analysis);
  if (problem !== undefined) {
    // A directory: name the file that is invalid on its own (bad options are no file's).
    const badOptions = 'planned' in analysis && analysis.config === undefined;
    if (side.origins.length > 1 && !badOptions) {
      for (const origin of side.origins) {
        if (origin.text.trim() === '') continue;
        const own = problemOf(analyse(origin.text, options, true));
        if (own !== undefined)
          return fail(`${side.label.replace(/ .*/s, '')} ${origin.path}: ${own}`);
      }
    }
    return fail(`${side.label}: ${problem}`);
  }
  if (!('planned' in analysis)) return fail(side.label);
  const { input, resources, planned } = analysis;
  const locate = (resource: Resource) => {
    const start = input.items[resource.index]?.span?.start;
    if (start === undefined) return undefined;
    // 0-based, as the origins count their lines.
    const line = lineNumberAt(input.text, contentStart(input.text, start)) - 1;
    const origin = [...side.origins].reverse().find((o) => o.line <= line);
    return origin && { uri: origin.path, line: line - origin.line + 1 };
  };
  const originOf = (resource: Resource) => {
    const start = input.items[resource.index]?.span?.start;
    if (start === undefined) return undefined;
    // The last file starting at or before the item's first line: a binary search, as a report
    // on a monorepo asks once per rollout among thousands of files.
    const at = contentStart(input.text, start);
    let [low, high] = [0, side.origins.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((side.origins[mid] as Origin).offset <= at) low = mid;
      else high = mid - 1;
    }
    return side.origins[low];
  };
  const { podTemplates } = analysis.config ?? defaultConfig;
  return {
    resources,
    plan: planned.plan,
    results: planned.results,
    podTemplates,
    locate,
    originOf,
  };
}

/** Why an analysed text is not valid input (reading, items, options), or undefined. */
function problemOf(analysis: ReturnType<typeof analyse>): string | undefined {
  if (!('planned' in analysis)) return analysis.stderr;
  const ruled = new Set(analysis.planned.results);
  const first = analysis.results.find((r) => r.severity === 'error' && !ruled.has(r));
  if (first) return formatResult(first).replace(/^error: /, '');
  return undefined;
}
