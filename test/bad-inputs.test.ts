// Every file in test/bad-inputs/ is the raw stdin of a run that must fail cleanly, through run()
// and through the built CLI (dist/secret-rollout.cjs): exit code 1; one clear error naming the
// item and field (an error result when a ResourceList was read, else a line on stderr); no stack
// trace; stdout empty or a ResourceList whose results hold that error, never something a pipeline
// could take for success. How long each takes is not asserted here (a busy machine would fail it):
// `npm run bench` times every file against a 10 s bound (bench/adversarial.mjs).
//
// The CLI runs in a child process with a heap limit; run() runs in this process inside a vm
// context. Both are stopped after the suite's own test timeout, which vitest cannot apply to a
// synchronous call or a child: a guard against a hang, so that it fails its case, not the suite.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunOutput, run } from '../src/run.js';
import { testTimeoutMs } from './depth.js';
import { resultsOf } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = path.join(root, 'test/bad-inputs');
const cli = path.join(root, 'dist/secret-rollout.cjs');
/**
 * The guard: half the suite's test timeout (test/depth.ts), so that it, not vitest, ends a hung
 * case; each case takes under a second here (about 2 s with the machine loaded 7 times over).
 */
const boundMs = testTimeoutMs / 2;
/** Heap limit for each child: an input that explodes memory fails fast instead of swapping. */
const heapMb = 1024;

interface Case {
  file: string;
  message: string;
  where?: string[];
  cliOnly?: boolean;
}

const cases = parse(readFileSync(path.join(casesDir, 'cases.yaml'), 'utf8')) as Case[];

interface Outcome {
  stdout: string;
  stderr: string;
  code: number | null;
  timedOut: boolean;
  ms: number;
}

/** The CLI with `file` as its stdin (a file, not a pipe: see the pipe test below). */
function runCli(file: string): Promise<Outcome> {
  const fd = openSync(file, 'r');
  return runChild([cli], fd).finally(() => closeSync(fd));
}

function runChild(args: string[], stdin: number | Buffer, writeDelayMs = 0): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, ...args], {
      stdio: [typeof stdin === 'number' ? stdin : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, boundMs);
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code,
        timedOut,
        ms: Math.round(performance.now() - started),
      });
    });
    if (typeof stdin !== 'number') {
      child.stdin?.on('error', () => {}); // the child may exit before reading everything
      setTimeout(() => child.stdin?.end(stdin), writeDelayMs);
    }
  });
}

/**
 * run() in this process, as the CLI calls it (stdin decoded as UTF-8), interrupted after the bound
 * by running the call inside a vm context with a timeout (V8 terminates whatever is executing).
 */
function runInProcess(input: Buffer): Outcome {
  const started = performance.now();
  const text = new TextDecoder('utf-8', { fatal: true }).decode(input);
  const sandbox: { run: typeof run; text: string; result?: RunOutput } = { run, text };
  try {
    vm.runInNewContext('result = run(text)', sandbox, { timeout: boundMs });
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const message = (error as Error).message ?? String(error);
    if (/timed out/.test(message))
      return { stdout: '', stderr: '', code: null, timedOut: true, ms };
    // A throw out of run() is a crash: report it with its stack, which check() rejects.
    return {
      stdout: '',
      stderr: String((error as Error).stack ?? message),
      code: null,
      timedOut: false,
      ms,
    };
  }
  const result = sandbox.result as RunOutput;
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    code: result.exitCode,
    timedOut: false,
    ms: Math.round(performance.now() - started),
  };
}

type Obj = Record<string, unknown>;

/**
 * The output as a ResourceList, if it is one (YAML or JSON). Items that were invalid YAML in the
 * input are written back unchanged, so the whole may not parse; then its envelope and its
 * appended top-level `results:` are read on their own.
 */
function asResourceList(stdout: string): Obj | undefined {
  const read = (text: string) => {
    const value = (text.trimStart().startsWith('{') ? JSON.parse(text) : load(text)) as Obj;
    return value && value.kind === 'ResourceList' ? value : undefined;
  };
  try {
    return read(stdout);
  } catch {
    const at = stdout.lastIndexOf('\nresults:\n');
    const head = /^apiVersion: \S+\nkind: ResourceList\n/.exec(stdout)?.[0];
    if (at < 0 || !head) return undefined;
    try {
      return read(head + stdout.slice(at + 1));
    } catch {
      return undefined;
    }
  }
}

/** One error, as text: message, resource and field together. */
function errorTexts(outcome: Outcome): string[] {
  const list = asResourceList(outcome.stdout);
  if (list) {
    const results = Array.isArray(list.results) ? (list.results as Obj[]) : [];
    return results
      .filter((r) => r.severity === 'error')
      .map((r) => {
        const ref = (r.resourceRef ?? {}) as Obj;
        const field = (r.field ?? {}) as Obj;
        return [r.message, ref.kind, ref.namespace, ref.name, field.path]
          .filter(Boolean)
          .join(' | ');
      });
  }
  return outcome.stderr.split('\n').filter((l) => /^(error: |secret-rollout: )/.test(l));
}

function check(c: Case, outcome: Outcome, how: string): void {
  const context = `${how} on ${c.file} (${outcome.ms} ms)\n--- stdout (first 2000) ---\n${outcome.stdout.slice(0, 2000)}\n--- stderr (first 2000) ---\n${outcome.stderr.slice(0, 2000)}`;
  expect(outcome.timedOut, `still running after ${boundMs} ms (a hang): ${context}`).toBe(false);
  // No stack trace, no crash report, no "internal error" (a bug, not an answer about the input).
  const all = outcome.stdout + outcome.stderr;
  expect(all, `stack trace: ${context}`).not.toMatch(/^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$/m);
  expect(all, `crash: ${context}`).not.toMatch(/internal error|FATAL ERROR|Maximum call stack/i);
  expect(outcome.code, `exit code: ${context}`).toBe(1);

  // stdout: nothing, or a ResourceList with an error result.
  if (outcome.stdout !== '') {
    const list = asResourceList(outcome.stdout);
    expect(list, `stdout is neither empty nor a ResourceList: ${context}`).toBeDefined();
    const results = (list?.results ?? []) as Obj[];
    expect(
      results.some((r) => r.severity === 'error'),
      `ResourceList without an error result: ${context}`,
    ).toBe(true);
  }

  // One clear message: exactly one error, short, saying what and where.
  const errors = errorTexts(outcome);
  expect(errors, `expected exactly one error: ${context}`).toHaveLength(1);
  const error = errors[0] as string;
  expect(error.length, `message too long: ${context}`).toBeLessThan(600);
  expect(error, context).toContain(c.message);
  for (const part of c.where ?? [])
    expect(error, `should name ${part}: ${context}`).toContain(part);
}

describe('bad inputs', () => {
  it('has at least 40 cases, each file listed once', () => {
    const files = readdirSync(casesDir).filter((f) => f !== 'cases.yaml');
    expect(files.length).toBeGreaterThanOrEqual(40);
    expect(cases.map((c) => c.file).sort()).toEqual(files.sort());
    for (const f of files) expect(f).toMatch(/^\d\d-[a-z0-9-]+\.(yaml|json|bin)$/);
  });

  it('the CLI is built (npm run build)', () => {
    expect(existsSync(cli), `${cli} is missing: run \`npm run build\` first`).toBe(true);
  });

  describe.concurrent.each(cases)('$file', (c) => {
    const input = readFileSync(path.join(casesDir, c.file));

    it('CLI', async () => {
      if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
      check(c, await runCli(path.join(casesDir, c.file)), 'CLI');
    });

    it.skipIf(c.cliOnly)('run()', () => {
      check(c, runInProcess(input), 'run()');
    });
  });

  // An item kpt read from a file carries that file, as every other result does (the message
  // alone named `item 1`); a stream gets the fix that fits a stream, not kpt's .krmignore.
  it('an item that is no Kubernetes object: the result names its file and what to do', () => {
    const text = readFileSync(path.join(casesDir, '80-kustomization-in-kpt-package.yaml'), 'utf8');
    expect(resultsOf(run(text).stdout)).toEqual([
      {
        severity: 'error',
        message:
          "item 1 in kustomization.yaml: item has no apiVersion string: give it apiVersion and kind, or list its file in the package's .krmignore",
        tags: { rule: 'invalid-input' },
        file: { path: 'kustomization.yaml' },
      },
    ]);
    expect(run('kind: Deployment\nmetadata: {name: a}\n')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'error: document 0 (Deployment a): item has no apiVersion string: give it apiVersion and kind, or leave it out of the input (invalid-input)\n',
    });
  });

  // Not a bad input: stdin on a pipe whose writer is slower than the CLI's start-up (`helm
  // template | secret-rollout`, kpt writing a large ResourceList) must be read to the end.
  it('CLI reads a pipe whose writer is slow', async () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
    const input = Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
    const outcome = await runChild([cli], input, 500);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe(input.toString());
  });
});
