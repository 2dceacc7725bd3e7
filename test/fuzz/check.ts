// The invariants every input must keep, valid or not, checked on one run() in this process:
//  - no exception escapes run(); the exit code is 0 or 1;
//  - exit 1: stdout is empty (stream, JSON object) or a ResourceList whose results hold an error
//    and whose items are exactly the input's (text for YAML, values for JSON);
//  - exit 0: (a) every input line survives in order (test/property/checks.ts `lineDiff`: only
//    inserted annotation lines, in-place checksum updates, flow entries), (b) a second run on the
//    output gives byte-identical output.
// A violation is a Problem; its `signature` groups violations that are likely the same bug.
// Nothing here judges time, so `npm test` (regressions.test.ts) asserts none: how long a run may
// take is the fuzzer's cost oracle (cost.ts), in `npm run fuzz` and the benchmark only. What
// stays are guards against a runaway, which can only end a run that would otherwise never end:
// `hangMs` below, and `bounded` around the checker's own lineDiff, whose timeout gives no verdict
// (the input passes) or only shortens a failure's detail, so it never fails a test.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import vm from 'node:vm';
import { type EventType, load, loadAll, type State } from 'js-yaml';
import { parseAllDocuments } from 'yaml';
import { type RunOutput, run } from '../../src/run.js';
import { testTimeoutMs } from '../depth.js';
import { lineDiff, withoutResults } from '../property/checks.js';
import { dependenciesKey } from '../property/model.js';
import { root } from './seeds.js';

/**
 * A run still going after this is interrupted and reported as a hang: half the suite's test
 * timeout (test/depth.ts), which vitest cannot apply to a synchronous call. The slowest saved
 * finding runs in ≈1 s here (2.5 s with another job running), so only a runaway reaches it.
 */
const hangMs = testTimeoutMs / 2;

export interface Problem {
  category: string;
  detail: string;
  /** Category plus what distinguishes this failure: findings are de-duplicated on it. */
  signature: string;
}

interface Timed {
  out?: RunOutput;
  error?: unknown;
  timedOut: boolean;
  ms: number;
}

const sandbox: {
  run: typeof run;
  text: string;
  result: RunOutput | undefined;
  task: () => unknown;
  value: unknown;
} = { run, text: '', result: undefined, task: () => undefined, value: undefined };
const context = vm.createContext(sandbox);
const script = new vm.Script('result = run(text)');
const taskScript = new vm.Script('value = task()');

/** `task()`, or `timedOut` when it takes longer than `ms` (lineDiff is quadratic on some lines). */
function bounded<T>(task: () => T, ms: number): T | typeof timedOut {
  sandbox.task = task;
  try {
    taskScript.runInContext(context, { timeout: ms });
    return sandbox.value as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return timedOut;
    throw error;
  } finally {
    sandbox.task = () => undefined;
    sandbox.value = undefined;
  }
}
const timedOut = Symbol('timed out');

/** Calls of run() so far, for the executions/s figure. */
export const stats = { runs: 0 };

/** run(text) interrupted after `hangMs` (V8 terminates whatever the vm script is executing). */
export function timedRun(text: string): Timed {
  stats.runs++;
  sandbox.text = text;
  sandbox.result = undefined;
  const started = performance.now();
  try {
    script.runInContext(context, { timeout: hangMs });
  } catch (error) {
    const ms = performance.now() - started;
    const timedOut = (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    return { error, timedOut, ms };
  } finally {
    sandbox.text = '';
  }
  const out = sandbox.result;
  sandbox.result = undefined;
  return { out, timedOut: false, ms: performance.now() - started };
}

const normalise = (s: string) =>
  s
    .slice(0, 300)
    .replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, 'Q')
    .replace(/[\w.-]*\/[\w./-]*/g, 'P')
    .replace(/\b[A-Z][A-Za-z]+\b/g, 'K')
    .replace(/\d+/g, 'N')
    .slice(0, 120);

function problem(category: string, detail: string, fine = ''): Problem {
  return { category, detail, signature: fine ? `${category}|${fine}` : category };
}

function exceptionProblem(which: string, error: unknown): Problem {
  const e = error as Error;
  const frame = /\((?:.*\/)?(src\/[^):]+):\d+:\d+\)|at (?:.*\/)?(src\/[^):]+):\d+:\d+/.exec(
    String(e?.stack ?? ''),
  );
  const where = frame ? (frame[1] ?? frame[2]) : '?';
  const message = `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`;
  return problem(
    `exception${which}`,
    `${message.slice(0, 300)} at ${where}`,
    `${normalise(message)} @${where}`,
  );
}

/** One run, and how long it took; a hang or an exception as a Problem. */
function guarded(text: string, which: string): { out: RunOutput; ms: number } | Problem {
  const t = timedRun(text);
  if (t.timedOut) return problem('hang', `${which || 'first'} run still going after ${hangMs} ms`);
  if (t.error !== undefined) return exceptionProblem(which, t.error);
  return { out: t.out as RunOutput, ms: t.ms };
}

const isProblem = (x: object): x is Problem => 'category' in x;

const topLevelResults = /^(?:results|"results"|'results')[ \t]*:/m;

/**
 * The input's own top-level `results:` block, which the output replaces: indented lines, `- `
 * entries at column 0, comments and blank lines, and in valid YAML every line up to where the
 * parser ends the value (a quoted scalar's continuation lines may start at column 0). In invalid
 * YAML, also the lines up to the next `key:` at column 0: what they mean is anyone's guess, and
 * results are replaced anyway.
 */
export function stripResults(text: string): string {
  const lines = text.split(/(?<=\n)/);
  const start = lines.findIndex((l) =>
    /^(?:results|"results"|'results')[ \t]*:(?:[ \t].*)?\r?\n?$/.test(l),
  );
  if (start < 0) return text;
  const valid = validYaml(text);
  const inBlock = (line: string) =>
    !/^(?:---|\.\.\.)(?:[ \t]|\r?\n?$)/.test(line) &&
    (/^(?:[ \t-]|#|\r?\n?$)/.test(line) ||
      (!valid && !/^[\w"'][^:]*:(?:[ \t]|\r?\n?$)/.test(line)));
  let end = start + 1;
  while (end < lines.length && inBlock(lines[end] as string)) end++;
  if (valid) {
    const from = lines.slice(0, start).join('').length;
    const to = topLevelValueEnd(text, 'results', from, from + (lines[start] as string).length);
    if (to !== undefined) {
      let line = start;
      for (let at = from; line < lines.length && at < to; line++)
        at += (lines[line] as string).length;
      end = Math.max(end, line);
    }
  }
  return [...lines.slice(0, start), ...lines.slice(end)].join('');
}

/**
 * Where js-yaml ends the value of the top-level `key` written in [lineStart, lineEnd): the offset
 * its parser stopped at after the value, or undefined (no such key there, or invalid YAML).
 */
function topLevelValueEnd(
  text: string,
  key: string,
  lineStart: number,
  lineEnd: number,
): number | undefined {
  let keyFound = false;
  let end: number | undefined;
  let children = 0;
  const listener = (event: EventType, state: State) => {
    // The root node of a document is at depth 1; its keys and values, in turn, at depth 2.
    const { depth } = state as State & { depth: number };
    if (event === 'open' && depth === 1) children = 0;
    if (event !== 'close' || depth !== 2 || end !== undefined) return;
    if (children++ % 2 === 1) {
      if (keyFound) end = state.position;
    } else {
      keyFound = state.result === key && state.position > lineStart && state.position <= lineEnd;
    }
  };
  try {
    loadAll(text, undefined, { listener });
  } catch {
    return undefined;
  }
  return end;
}

/** The output without the function's results block: the last `results:` at column 0. */
function withoutOwnResults(stdout: string): string {
  const lines = stdout.split(/(?<=\n)/);
  let start = -1;
  lines.forEach((l, i) => {
    if (/^results:\r?\n?$/.test(l)) start = i;
  });
  if (start < 0) return stdout;
  let end = start + 1;
  while (end < lines.length && /^(?: {2}|- )/.test(lines[end] as string)) end++;
  return [...lines.slice(0, start), ...lines.slice(end)].join('');
}

/**
 * Valid as the function decides it: the conforming reader (the `yaml` library) finds no error.
 * js-yaml accepts some invalid YAML, such as a quoted value continued at column 0 inside a
 * block sequence, and must also read it here, for topLevelValueEnd.
 */
function validYaml(text: string): boolean {
  if (parseAllDocuments(text, { prettyErrors: false }).some((d) => d.errors.length > 0)) {
    return false;
  }
  try {
    loadAll(text);
    return true;
  } catch {
    return false;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function loadYaml(text: string): unknown {
  try {
    return load(text);
  } catch {
    return undefined;
  }
}

const itemsOf = (v: unknown) =>
  typeof v === 'object' && v !== null ? (v as { items?: unknown }).items : undefined;

/** Annotation keys the output may set: the default checksum key, or the one configured. */
function checksumKeys(text: string): string[] {
  const keys = ['checksum/external-secrets'];
  for (const m of text.matchAll(/checksumAnnotation["']?\s*:\s*["']?([^"'\s,}#]+)/g)) {
    if (m[1] && !keys.includes(m[1])) keys.push(m[1]);
  }
  return keys;
}

function errorRun(text: string, out: RunOutput): Problem | undefined {
  if (out.stdout === '') return undefined;
  const json = parseJson(out.stdout);
  if (json !== undefined) {
    const results = (json as { results?: unknown }).results;
    if (!JSON.stringify(results ?? null).includes('"severity":"error"')) {
      return problem('exit1-no-error-result', 'exit 1 with a JSON ResourceList without an error');
    }
    if (!isDeepStrictEqual(itemsOf(json), itemsOf(parseJson(text)))) {
      return problem('exit1-items-changed', 'exit 1 but the JSON items differ from the input');
    }
    return undefined;
  }
  if (!/^kind:|\nkind:|ResourceList/.test(out.stdout)) {
    return problem('exit1-stdout', `exit 1 with a non-empty stdout: ${out.stdout.slice(0, 80)}`);
  }
  const body = withoutResults(text, out.stdout);
  // The results are what withoutResults took out: where the output first differs from the body,
  // as long as the difference (before a closing `...` marker, not at the end: FUZZ_SEED=20261126
  // had three, and the end's slice began inside `severity`).
  let from = 0;
  while (from < body.length && body[from] === out.stdout[from]) from++;
  const results = out.stdout.slice(from, from + out.stdout.length - body.length);
  if (!/severity: error/.test(results)) {
    return problem('exit1-no-error-result', 'exit 1 with a ResourceList without an error result');
  }
  if (body === text) return undefined;
  // Results go before a closing `---` or `...`, after a line break added to a last line
  // without one (a lone CR counts as none).
  const items = withoutOwnResults(out.stdout);
  if (items === text || (!text.endsWith('\n') && /^(?:\r?\n)?$/.test(items.slice(text.length)))) {
    if (items.startsWith(text)) return undefined;
  }
  if (topLevelResults.test(text)) {
    // The input's results were replaced: compare what is left.
    if (body === stripResults(text)) return undefined;
    const a = loadYaml(text);
    if (a === undefined || isDeepStrictEqual(itemsOf(loadYaml(out.stdout)), itemsOf(a))) {
      return undefined;
    }
  }
  const found = bounded(() => lineDiff(text, body, { checksum: '\0' }), 10_000);
  const diff = typeof found === 'string' ? found : 'text differs';
  return problem('exit1-items-changed', `exit 1 but the items changed: ${diff}`);
}

/** The pairs (input, output) lineDiff compares; the input passes when one of them passes. */
function comparisons(text: string, stdout: string, keys: readonly string[]): [string, string][] {
  // Mixed line breaks: the function writes new lines with the input's first line break, which
  // cannot match every neighbour. Compare such inputs with CRLF read as LF.
  const mixed = /\r\n/.test(text) && /(?<!\r)\n/.test(text);
  const lf = (s: string) => (mixed ? s.replace(/\r\n/g, '\n') : s);
  const brk = /\r\n/.test(text) ? '\r\n' : '\n';
  // lineDiff compares an inserted line's CR with the next input line's, and reads a plain value
  // only up to a comma (`sta,le` → `"…",le` would pass): lines of our own at the end, and every
  // block `checksum: value` written as `checksum: "0…0"` (a checksum, for a block scalar's
  // replacement) on both sides, take those cases out. Blanks after the value stay on both sides:
  // they are not the value's (a plain one ends before them), and the edit keeps them.
  const end = `#~end~${brk}`;
  const blank = (s: string) =>
    keys.reduce(
      (acc, key) =>
        acc.replace(
          new RegExp(
            `^( *(?:- )?)(["']?)${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\2:([ \\t]+)(?:"[^"\\r\\n]*"|'[^'\\r\\n]*'|[^\\s"'#&*!|>{[][^#\\r\\n]*?)([ \\t]*?)([ \\t]+#[^\\r\\n]*)?(\\r?)$`,
            'gm',
          ),
          (_, indent: string, q: string, sep: string, trail: string, comment = '', cr: string) =>
            `${indent}${q}${key}${q}:${sep}"${'0'.repeat(64)}"${trail}${comment}${cr}`,
        ),
      s,
    );
  const pairs: [string, string][] = [];
  const inputs = topLevelResults.test(text) ? [text, stripResults(text)] : [text];
  for (const input of inputs) {
    for (const body of [stdout, withoutResults(input, stdout), withoutOwnResults(stdout)]) {
      // A last line without a line break says nothing about CRs: give it the file's, so that
      // lines inserted next to it must have it too. A lone CR at the end is a line break already
      // (appending `\n` to it would make it a CRLF the input does not have).
      const variants: [string, string][] = /[\n\r]$/.test(input)
        ? [
            [input, body],
            [input + end, body + end],
          ]
        : [[input + brk + end, body + (/\n$/.test(body) ? '' : brk) + end]];
      for (const [a, b] of variants) pairs.push([lf(blank(a)), lf(blank(b))]);
    }
  }
  return pairs;
}

function lineProblem(text: string, stdout: string): Problem | undefined {
  if (parseJson(text) !== undefined && parseJson(stdout) !== undefined) return undefined;
  const input = text;
  // Of the failed comparisons, report the one that got furthest through the input.
  let detail = '';
  let furthest = -1;
  for (const checksum of checksumKeys(text)) {
    // An ExternalSecret's checksum/dependencies is rewritten like a checksum, with any of them.
    for (const [a, b] of comparisons(text, stdout, [checksum, dependenciesKey])) {
      const diff = bounded(() => lineDiff(a, b, { checksum }), 5_000);
      // The checker, not the function, is too slow here: no verdict.
      if (diff === timedOut) return undefined;
      if (diff === undefined) return undefined;
      const at = Number(/^input line (\d+)/.exec(diff)?.[1] ?? 0);
      if (at > furthest) [detail, furthest] = [diff, at];
    }
  }
  const kind = /^(input line \d+ .* is missing|input line \d+ .* became|extra output line)/.exec(
    detail,
  );
  const line = /^input line (\d+)/.exec(detail);
  const shape = line
    ? (input.split('\n')[Number(line[1]) - 1] ?? '')
        .replace(/[A-Za-z0-9_./-]+/g, 'a')
        .replace(/\s+/g, ' ')
        .slice(0, 40)
    : '';
  const what = kind?.[1]?.includes('missing')
    ? 'missing'
    : kind?.[1]?.includes('became')
      ? 'changed'
      : 'extra';
  return problem('lines', `exit 0 but ${detail.slice(0, 300)}`, `${what} ${shape}`);
}

/** The first invariant `text` breaks, or undefined. */
export function check(text: string): Problem | undefined {
  return inspect(text).problem;
}

/**
 * check(), with the first run's output and its time in ms when there was one (for the fuzzer's
 * cost oracle; check() ignores it).
 */
export function inspect(text: string): { problem?: Problem; out?: RunOutput; ms?: number } {
  const first = guarded(text, '');
  if (isProblem(first)) return { problem: first };
  const { out, ms } = first;
  const found = invariants(text, out);
  // Lone CRs (line breaks to YAML, not to a line reader) break several invariants at once: one
  // signature per category for all of them, so that they do not hide other problems.
  if (found && /\r(?!\n)/.test(text)) found.signature = `${found.category}|lone CR`;
  return found ? { problem: found, out, ms } : { out, ms };
}

export function invariants(text: string, first: RunOutput): Problem | undefined {
  if (first.exitCode !== 0 && first.exitCode !== 1) {
    return problem('exit-code', `exit code ${String(first.exitCode)}`);
  }
  if (first.exitCode === 1) return errorRun(text, first);
  const lines = lineProblem(text, first.stdout);
  if (lines) return lines;
  const again = guarded(first.stdout, ' (second run)');
  if (isProblem(again)) return again;
  const second = again.out;
  if (second.exitCode !== 0) {
    const why = (second.stderr || second.stdout.slice(second.stdout.indexOf('results:'))).trim();
    return problem(
      'idempotency-exit',
      `the second run, on the output, exits ${second.exitCode}: ${why.slice(0, 300)}`,
      normalise(why.split('\n').find((l) => /error/.test(l)) ?? ''),
    );
  }
  if (second.stdout !== first.stdout) {
    const a = first.stdout.split('\n');
    const b = second.stdout.split('\n');
    const at = a.findIndex((l, i) => l !== b[i]);
    // The keys of the changed lines tell bugs apart (a checksum that moves, results that pile
    // up), their values do not.
    const shape = (line = '<end>') => normalise(line).replace(/:[ \t].*|:$/, ':');
    return problem(
      'idempotency-diff',
      `the second run changes line ${at + 1}: ${JSON.stringify(a[at])} → ${JSON.stringify(b[at])}`,
      `${shape(a[at])} → ${shape(b[at])}`,
    );
  }
  return undefined;
}

/**
 * A smaller input with the same problem (same signature, or for line and idempotency problems the
 * same category): whole lines removed, ddmin style, then single lines; for at most `budgetMs`.
 */
export function minimise(text: string, found: Problem, budgetMs = 60_000): string {
  // A timing finding keeps its size: time per KB is what it shows.
  if (['cost', 'slow', 'hang'].includes(found.category)) return text;
  const deadline = performance.now() + budgetMs;
  const same = (candidate: string) => {
    if (performance.now() > deadline) return false;
    const p = check(candidate);
    if (!p) return false;
    return found.category.startsWith('exception')
      ? p.signature === found.signature
      : p.category === found.category;
  };
  let lines = text.split(/(?<=\n)/);
  let chunk = Math.max(1, Math.floor(lines.length / 2));
  while (chunk >= 1) {
    let removed = false;
    for (let at = 0; at < lines.length; ) {
      const candidate = [...lines.slice(0, at), ...lines.slice(at + chunk)];
      if (candidate.length > 0 && same(candidate.join(''))) {
        lines = candidate;
        removed = true;
      } else {
        at += chunk;
      }
    }
    if (!removed || chunk === 1) chunk = Math.floor(chunk / 2);
  }
  // Then inside lines: drop trailing comments and shorten long runs.
  let best = lines.join('');
  for (const shrink of [
    (s: string) => s.replace(/[ \t]+#[^\n"']*$/gm, ''),
    (s: string) => s.replace(/(.)\1{63,}/g, '$1$1$1$1$1$1$1$1'),
  ]) {
    const candidate = shrink(best);
    if (candidate !== best && same(candidate)) best = candidate;
  }
  return best;
}

export const findingsDir = path.join(root, 'test/fuzz/findings');

export interface Finding {
  hash: string;
  text: string;
  description: string;
  /** The input it was mutated from (`<hash>.parent`), saved for cost findings (cost.ts). */
  parent?: string;
}

export function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * Saves `<hash>.yaml` (the input, byte for byte), `<hash>.txt` (one line) and, when given, the
 * parent it was mutated from as `<hash>.parent` (byte for byte).
 */
export function saveFinding(text: string, description: string, parent?: string): string {
  mkdirSync(findingsDir, { recursive: true });
  const hash = hashOf(text);
  writeFileSync(path.join(findingsDir, `${hash}.yaml`), text);
  writeFileSync(path.join(findingsDir, `${hash}.txt`), `${description.replace(/\s+/g, ' ')}\n`);
  if (parent !== undefined) writeFileSync(path.join(findingsDir, `${hash}.parent`), parent);
  return hash;
}

export function loadFindings(): Finding[] {
  if (!existsSync(findingsDir)) return [];
  return readdirSync(findingsDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const hash = f.slice(0, -'.yaml'.length);
      const txt = path.join(findingsDir, `${hash}.txt`);
      const parent = path.join(findingsDir, `${hash}.parent`);
      return {
        hash,
        text: readFileSync(path.join(findingsDir, f), 'utf8'),
        description: existsSync(txt) ? readFileSync(txt, 'utf8').trim() : '',
        ...(existsSync(parent) ? { parent: readFileSync(parent, 'utf8') } : {}),
      };
    });
}
