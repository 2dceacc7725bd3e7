// The command line's words, one parser for every subcommand: `key=value` options (each at most
// once), `--fn-config FILE`, `--format F` (where the command has formats), plain flags, repeatable
// flags with a value (`--exclude GLOB`), and positional paths (where the command takes them).
// No I/O: main.ts and impact-cli.ts print.
import { nearest } from './model/near.js';

export interface Args<F extends string> {
  settings: Record<string, string>;
  fnConfigPath: string | undefined;
  format: F | undefined;
  flags: Set<string>;
  /** Each repeatable flag's values, in the order given (every flag of the spec has an entry). */
  lists: Map<string, string[]>;
  positional: string[];
}

/** A word that cannot be read; `usage` when printing the usage would help. */
export interface ArgsError {
  error: string;
  usage: boolean;
}

export interface ArgsSpec<F extends string> {
  formats?: readonly F[];
  flags?: readonly string[];
  /** Flags that take a value and may be given more than once (`--exclude GLOB`). */
  lists?: readonly string[];
  positional?: boolean;
}

/** Flags every command takes; main.ts answers them before any command runs. */
export const globalFlags = ['--help', '-h', '--version', '-V'] as const;

export function parseArgs<F extends string>(
  args: readonly string[],
  spec: ArgsSpec<F>,
): Args<F> | ArgsError {
  const parsed: Args<F> = {
    // No prototype: `__proto__=x` is then a key like any other (an unknown option), not a setter.
    settings: Object.create(null),
    fnConfigPath: undefined,
    format: undefined,
    flags: new Set(),
    lists: new Map((spec.lists ?? []).map((flag) => [flag, []])),
    positional: [],
  };
  const fail = (error: string, usage = true): ArgsError => ({ error, usage });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    // `--flag value` or `--flag=value`; null: not this flag.
    const flagValue = (flag: string) =>
      arg === flag
        ? (args[++i] ?? '')
        : arg.startsWith(`${flag}=`)
          ? arg.slice(flag.length + 1)
          : null;
    const format = spec.formats ? flagValue('--format') : null;
    const fnConfig = format === null ? flagValue('--fn-config') : null;
    const listFlag = spec.lists?.find((flag) => arg === flag || arg.startsWith(`${flag}=`));
    if (spec.flags?.includes(arg)) parsed.flags.add(arg);
    else if (format !== null) {
      const { formats = [] } = spec;
      if (!formats.includes(format as F)) {
        return fail(`--format must be one of ${formats.join(', ')}`);
      }
      parsed.format = format as F;
    } else if (fnConfig !== null) {
      if (!fnConfig) return fail('--fn-config needs a file');
      parsed.fnConfigPath = fnConfig;
    } else if (listFlag !== undefined) {
      const value = flagValue(listFlag);
      if (!value) return fail(`${listFlag} needs a value`);
      parsed.lists.get(listFlag)?.push(value);
    } else if (/^[A-Za-z_]\w*=/.test(arg)) {
      const eq = arg.indexOf('=');
      const key = arg.slice(0, eq);
      // The last one winning would hide a typo'd pipeline or a clash with a CI default.
      if (Object.hasOwn(parsed.settings, key)) return fail(`option ${key} given twice`, false);
      parsed.settings[key] = arg.slice(eq + 1);
    } else if (spec.positional && !(arg.startsWith('-') && arg !== '-')) {
      parsed.positional.push(arg);
    } else {
      // Up to its `=`: what follows may be a value (a mistyped --secretChecksumKey=…).
      const word = arg.replace(/=.*/s, '');
      const near = word.startsWith('-') ? nearest(word, flagsOf(spec), nearness(word)) : undefined;
      // `--storeWave=-3`: an option written as a flag.
      const option = /^--?[A-Za-z_]\w*=/.test(arg)
        ? ', options are written key=value, without dashes'
        : '';
      // A path where no command takes one: the input's file (`check in.yaml`), which is stdin.
      const stdin =
        !word.startsWith('-') && /[./]/.test(word) ? ', the input comes on stdin (< FILE)' : '';
      const hint = near === undefined ? option || stdin : `, did you mean ${near}?`;
      return fail(`unknown argument ${JSON.stringify(arg.replace(/=.*/s, '=…'))}${hint}`);
    }
  }
  return parsed;
}

/**
 * Every long flag a command with this spec takes: the candidates for "did you mean" (`-h` and `-V`
 * are one letter from anything short).
 */
export function flagsOf(spec: ArgsSpec<string>): string[] {
  return [
    ...(spec.flags ?? []),
    ...(spec.formats ? ['--format'] : []),
    '--fn-config',
    ...(spec.lists ?? []),
    ...globalFlags,
  ].filter((flag) => flag.startsWith('--'));
}

/** How many edits still look like a typo: two edits turn most short words into others. */
export const nearness = (word: string) => (word.replace(/^-+/, '').length <= 4 ? 1 : 2);
