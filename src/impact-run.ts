// `secret-rollout impact`: two inputs' text in, the report out. Plans both sides with the pure core
// (the same analysis `run` and `plan` use) and compares them; no process I/O here, so tests drive
// it directly. impact-cli.ts reads the files and directories.

import { contentStart, lineNumberAt } from './krm/yaml/lines.js';
import { defaultConfig } from './model/config.js';
import type { Resource } from './model/resource.js';
import { formatResult, type Result } from './model/results.js';
import {
  type ApplicationGroups,
  applicationGroups,
  compareSides,
  type ImpactSide,
  impactJson,
  joinGroups,
} from './report/impact.js';
import { impactReports } from './report/impact-markdown.js';
import { impactSarif } from './report/impact-sarif.js';
import { describeRef, type Ref } from './report/ref.js';
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
  /** Line (1-based) and file of the item of the resource a result names. */
  locate(ref: Ref): { uri: string; line: number } | undefined;
}

/** The report, and with markdown the full report when the comment is cut (else the same). */
export type ImpactOutput = RunOutput & { full?: string };

export function impact(
  base: SideInput,
  head: SideInput,
  options: ImpactOptions = {},
): ImpactOutput {
  let pairs = planSides([base, head], options);
  if (!Array.isArray(pairs)) return pairs;
  // Directories only: a file is one application.
  const directories = [base, head].every(
    (side) => side.origins.length > 0 && side.origins.every((o) => o.application !== undefined),
  );
  const groups = directories ? applicationGroups(pairs[0] as [Planned, Planned]) : undefined;
  if (groups !== undefined) {
    const split = [base, head].map((side) => groupsOf(side, groups));
    pairs = planSides(split, options);
    if (!Array.isArray(pairs)) return pairs;
  }
  const compared = joinGroups(pairs.map(([before, after]) => compareSides(before, after)));
  const format = options.format ?? 'markdown';
  if (format === 'json') return ok(impactJson(compared));
  if (format === 'markdown') {
    const { comment, full } = impactReports(compared, {
      ...(options.maxChars === undefined ? {} : { maxChars: options.maxChars }),
      ...(options.fullReport === undefined ? {} : { fullReport: options.fullReport }),
    });
    return { ...ok(comment), full };
  }
  // Each lint is located in its own application's HEAD.
  const sideOf = new Map<Result, Planned>();
  for (const [, after] of pairs) for (const r of after.results) sideOf.set(r, after);
  const locate = (result: Result) => {
    const ref = result.resourceRef;
    return ref && sideOf.get(result)?.locate(ref);
  };
  return ok(impactSarif(compared.lints, { version: options.version ?? '0.0.0', locate }));
}

/**
 * BASE's and HEAD's plans, each side one text or one per group of applications (the same
 * groups on both); BASE's first, so a problem in BASE is the one reported.
 */
function planSides(
  sides: readonly (SideInput | readonly SideInput[])[],
  options: ImpactOptions,
): [Planned, Planned][] | RunOutput {
  const planned: Planned[][] = [];
  for (const side of sides) {
    const own: Planned[] = [];
    for (const part of Array.isArray(side) ? side : [side]) {
      const plan = planSide(part as SideInput, options);
      if ('exitCode' in plan) return plan;
      own.push(plan);
    }
    planned.push(own);
  }
  const [before, after] = planned as [Planned[], Planned[]];
  return before.map((plan, i) => [plan, after[i] as Planned]);
}

const emptyList = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n';

/**
 * A directory's side as one side per group of applications (applicationGroups): its files,
 * joined as impact-cli.ts joins them; a group none of whose files the side has is empty. A file
 * whose application holds no resource is in the first group.
 */
function groupsOf(side: SideInput, { of, count }: ApplicationGroups) {
  const files: Origin[][] = Array.from({ length: count }, () => []);
  for (const origin of side.origins) {
    (files[of.get(origin.application as string) ?? 0] as Origin[]).push(origin);
  }
  // A group none of whose files the side has: an empty list, as a stream of nothing is no input.
  return files.map((own) =>
    own.length === 0
      ? { label: side.label, text: emptyList, origins: [] }
      : { label: side.label, ...joinFiles(own) },
  );
}

/**
 * Files joined into one YAML stream, remembering where each starts. With more than one, each is
 * its own documents (a separator unless the file starts with one), without its byte order mark
 * and ending with a line break: joining files already joined so changes nothing.
 */
export function joinFiles(
  files: readonly Omit<Origin, 'offset' | 'line'>[],
  several = files.length > 1,
): { text: string; origins: Origin[] } {
  const origins: Origin[] = [];
  let text = '';
  let line = 0;
  for (const file of files) {
    let own = file.text;
    if (several) {
      if (text !== '' && !/^(---|%)/.test(own.replace(/^\uFEFF/, ''))) {
        text += '---\n';
        line++;
      }
      own = own.replace(/^\uFEFF/, '');
      if (own !== '' && !own.endsWith('\n')) own += '\n';
    }
    origins.push({ ...file, offset: text.length, line, text: own });
    text += own;
    line += own.split('\n').length - 1;
  }
  return { text, origins };
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
  let byRef: Map<string, Resource> | undefined;
  const refKey = (ref: Ref) => `${ref.apiVersion} ${describeRef(ref)}`;
  const locate = (ref: Ref) => {
    if (byRef === undefined) {
      byRef = new Map();
      for (const r of resources) if (!byRef.has(refKey(r))) byRef.set(refKey(r), r);
    }
    const resource = byRef.get(refKey(ref));
    const start = resource && input.items[resource.index]?.span?.start;
    if (start === undefined) return undefined;
    // 0-based, as the origins count their lines.
    const line = lineNumberAt(input.text, contentStart(input.text, start)) - 1;
    const origin = [...side.origins].reverse().find((o) => o.line <= line);
    return origin && { uri: origin.path, line: line - origin.line + 1 };
  };
  const originOf = (resource: Resource) => {
    const start = input.items[resource.index]?.span?.start;
    if (start === undefined) return undefined;
    // The last file starting at or before the item's first line: a binary search, as a
    // directory's resources are each asked for theirs (applicationGroups).
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
    applicationOf: (resource) => originOf(resource)?.application,
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
