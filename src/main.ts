// The thin entry point: arguments, stdin, stdout/stderr, exit code. Everything else is in run().
import { fstatSync } from 'node:fs';
import { nearness, parseArgs } from './cli-args.js';
import { deployers, healthFor, isDeployer } from './health.js';
import { type Command, commandHelp, commandWords, topHelp, usageOf } from './help.js';
import { impactCli, readFnConfig } from './impact-cli.js';
import { whenJudgingMuch } from './krm/yaml/parse.js';
import { nearest } from './model/near.js';
import type { ReadmeHelp } from './readme-help.js';
import { checkInPieces, type PlanFormat, plan, runInPieces } from './run.js';
import { allWritten, brokenPipeStatus, readText, stdoutClosed, write } from './stdio.js';

/** package.json's version, put in by build.mjs (esbuild `define`): no package.json read at run time. */
declare const SECRET_ROLLOUT_VERSION: string;
/** README.md's mdtogo blocks as terminal text, put in by build.mjs the same way. */
declare const SECRET_ROLLOUT_README: ReadmeHelp;

const formats: readonly PlanFormat[] = ['table', 'mermaid', 'json'];

async function main(argv: readonly string[]): Promise<number> {
  if (stdoutClosed()) {
    write(
      2,
      'secret-rollout: stdout is closed, the output would be lost (to discard it: >/dev/null)\n',
    );
    return 1;
  }
  const word = argv[0] ?? '';
  const command: Command = Object.hasOwn(commandWords, word)
    ? (commandWords[word] as Command)
    : 'run';
  // Before anything else, and anywhere in the arguments: `plan --help` and `health --help` must
  // not read stdin or print a patch.
  if (argv.includes('--help') || argv.includes('-h')) {
    return emit(command === 'run' ? topHelp(SECRET_ROLLOUT_README) : commandHelp(command));
  }
  if (argv.includes('--version') || argv.includes('-V')) {
    return emit(`${SECRET_ROLLOUT_VERSION}\n`);
  }
  const args = command === 'run' ? argv : argv.slice(1);
  if (command === 'run' && /^[^-=]+$/.test(word)) return usageError('run', unknownCommand(word));
  if (command === 'impact') {
    // Each side is planned as a run plans its input: tuned when it is as large.
    const planning = (largest: number) => {
      if (largest > largeInput) tuneForLargeInput(largest);
    };
    return emit(impactCli(args, SECRET_ROLLOUT_VERSION, process.cwd(), planning));
  }
  const planning = command === 'plan';
  if (command === 'health') return health(args);
  const parsed = parseArgs(args, {
    ...(planning ? { formats } : {}),
    flags: planning ? ['--verbose', '--mermaid'] : ['--verbose'],
  });
  if ('error' in parsed) return usageError(command, parsed.error, parsed.usage);
  const { settings, fnConfigPath } = parsed;
  const verbose = parsed.flags.has('--verbose');
  const format: PlanFormat = parsed.format ?? (parsed.flags.has('--mermaid') ? 'mermaid' : 'table');
  const fnConfig =
    fnConfigPath === undefined ? undefined : readFnConfig(fnConfigPath, process.cwd());
  if (typeof fnConfig === 'string') {
    write(2, `secret-rollout: ${fnConfig}\n`);
    return 1;
  }
  if (stdinIsTerminal()) return usageError(command, 'no input on stdin');
  const read = await readText();
  if (read === undefined) {
    write(2, 'secret-rollout: stdin is not valid UTF-8\n');
    return 1;
  }
  const { text, printable } = read;
  if (text.length > largeInput) tuneForLargeInput(text.length);
  // kustomize sets LOG_TO_STDERR and shows only stderr when a function fails.
  const logToStderr = process.env.LOG_TO_STDERR === 'true';
  const options = {
    settings,
    verbose,
    printable,
    ...(fnConfig ? { fnConfig } : {}),
  };
  const result = planning
    ? plan(text, { ...options, format })
    : command === 'check'
      ? checkInPieces(text, { ...options, logToStderr })
      : runInPieces(text, { ...options, logToStderr });
  return emit(result);
}

/** `health [--for DEPLOYER]`: the readiness check for that deployer, Argo CD's by default. */
function health(args: readonly string[]): number {
  const parsed = parseArgs(args, { lists: ['--for'] });
  if ('error' in parsed) return usageError('health', parsed.error, parsed.usage);
  // Options would be silently ignored: refused.
  if (parsed.fnConfigPath !== undefined || Object.keys(parsed.settings).length > 0) {
    return usageError('health', 'health takes no options');
  }
  const given = parsed.lists.get('--for') ?? [];
  if (given.length > 1) return usageError('health', '--for given twice', false);
  const deployer = given[0] ?? 'argocd';
  if (!isDeployer(deployer)) {
    const near = nearest(deployer, deployers, nearness(deployer));
    const hint = near === undefined ? '' : `: did you mean ${near}?`;
    // Not quoted, as no value given is (a key=value's is elided too): a message names, never quotes.
    return usageError('health', `--for must be one of ${deployers.join(', ')}${hint}`);
  }
  return emit(healthFor(deployer));
}

/**
 * A first word that is no command (the input comes on stdin, never as a file argument): the
 * nearest command when it looks misspelt. The word is the user's own, typed on the command line.
 */
function unknownCommand(word: string): string {
  const near = nearest(word, Object.keys(commandWords), nearness(word));
  const commands = [...new Set(Object.values(commandWords))].join(', ');
  return near === undefined
    ? `unknown command ${JSON.stringify(word)} (commands: ${commands}; the input comes on stdin)`
    : `unknown command ${JSON.stringify(word)}, did you mean ${near}?`;
}

/** A one-line error, then (when it helps) the command's usage, on stderr: exit 1. */
function usageError(command: Command, error: string, usage = true): number {
  write(2, `secret-rollout: ${error}\n${usage ? usageOf(command) : ''}`);
  return 1;
}

/**
 * Writes a command's output and returns its exit status: brokenPipeStatus, with nothing more
 * said, when the reader of stdout stops before the end (`| head`). stderr is still written: its
 * results are the run's own, whoever reads stdout.
 */
function emit(
  out: string | { stdout: string | string[]; stderr: string; exitCode: number },
): number {
  const { stdout, stderr, exitCode } =
    typeof out === 'string' ? { stdout: out, stderr: '', exitCode: 0 } : out;
  const whole = write(1, stdout);
  write(2, stderr);
  return whole ? exitCode : brokenPipeStatus;
}

/** Characters past which an input is large (tuneForLargeInput). */
const largeInput = 1 << 20;
/** Characters past which the young generation may grow again (tuneForLargeInput). */
const hugeInput = 1 << 26;
/** Characters the `yaml` library judges past which the young generation may grow again. */
const muchJudged = 1 << 18;

/**
 * Two V8 settings for large inputs (a run's stdin, an impact side; `size`: its characters), both
 * read by V8 where they act, so they take effect when set at run time. Only for large inputs:
 * loading node:v8 costs ≈5 ms.
 * - The young generation stays at its first size (`--semi-space-growth-factor=1`): V8 grows it
 *   (to 2 × 16 MB) while most of what survives a scavenge stays, and what survives here is the
 *   parsed items, which do stay: the growth buys resident memory only (20–25 MiB on 10k items),
 *   no speed, on every bench shape but fan-in (ARCHITECTURE.md, GC settings: the numbers). Past
 *   64 Mi characters (100k items: 125–300 MB) it may grow: there the scavenges it saves are many
 *   and its megabytes few against a heap of 500 MB–1 GB (bench shapes at 100k: fan-in 13 % less
 *   wall time, the others within ±5 %; peak RSS 14–43 MiB lower, mixed the same). Nor once the
 *   conforming reader (the `yaml` library) has judged 256 Ki characters (deep flow, anchors, tags:
 *   what the quick reader declines): that library's tokens, CST and documents die within the
 *   item, and a 1 MB young generation scavenged them thousands of times (bench/adversarial
 *   values-annotations 8 MB: 13.4 → 8.4 s, peak RSS 485 → 272 MiB).
 * - The optimising compiler does not inline (`--no-turbo-inlining`): inlined graphs are large,
 *   their memory is malloc'd on compiler threads and stays resident, and this short batch run
 *   does not gain from them (measured on 10k items: ≈6 MB less peak RSS, CPU time the same or
 *   less; on 50k the same time).
 */
function tuneForLargeInput(size: number): void {
  const v8 = require('node:v8') as typeof import('node:v8');
  if (size <= hugeInput) {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    whenJudgingMuch(muchJudged, () => v8.setFlagsFromString('--semi-space-growth-factor=2'));
  }
  v8.setFlagsFromString('--no-turbo-inlining');
}

/**
 * An internal error's message on one line. A library file missing from dist/ (a partial copy of
 * an install) is Node's "Cannot find module" with a "Require stack:" of install paths after it.
 */
function internalMessage(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const first = String(message).split('\n', 1)[0] ?? '';
  return code === 'MODULE_NOT_FOUND' ? `${first} (the install is incomplete: reinstall)` : first;
}

/**
 * Nothing piped in. `node:tty` loads Node's streams and net (≈4 ms at every start), so it is
 * imported only when stdin is a character device, as a terminal (or /dev/null) is.
 */
function stdinIsTerminal(): boolean {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  // A plain require: the bundle runs in a vm.Script (src/launch.cjs), which has no import().
  return (require('node:tty') as typeof import('node:tty')).isatty(0);
}

main(process.argv.slice(2)).then(
  (code) => {
    // All written: exit now. Ending the event loop instead runs the tasks V8 queued meanwhile,
    // such as a scavenge of what the start allocated (≈1 ms of an empty list's ≈8).
    if (allWritten()) process.exit(code);
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug, not bad input: still one line and exit 1, never a stack trace an orchestrator shows.
    write(2, `secret-rollout: internal error: ${internalMessage(error)}\n`);
    process.exitCode = 1;
  },
);
