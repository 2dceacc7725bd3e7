// What `--help` prints: the top-level help (README.md's mdtogo blocks, put in by build.mjs, around
// the function's usage and flags and the list of commands) and each command's own usage, flags
// and examples. Text only: main.ts decides which to print, and each command's parser spec lives
// where the command is parsed.
import type { ReadmeHelp } from './readme-help.js';

/** The commands (`run`: no command word, the KRM function itself). */
export type Command = 'run' | 'plan' | 'check' | 'impact' | 'health';

/** Command words as typed, the old name `argocd-health` included. */
export const commandWords: Readonly<Record<string, Exclude<Command, 'run'>>> = {
  plan: 'plan',
  check: 'check',
  impact: 'impact',
  health: 'health',
  'argocd-health': 'health',
};

/** Flags as written in a usage, and what each does. */
type Flags = readonly (readonly [string, string])[];

interface CommandHelp {
  /** Its usage: `secret-rollout` and the words after it, the lines of a long one aligned by usageLines. */
  usage: readonly string[];
  /** One line for the top-level help's list of commands. */
  summary: string;
  about: string;
  flags: Flags;
  examples: string;
}

const input = '[--fn-config FILE | key=value ...] < input.yaml';
const optionFlags = [
  ['--fn-config FILE', 'options from a file: a ConfigMap or a SecretRollout'],
  ['key=value', 'one option (README: Options); each at most once'],
] as const;
const verbose = ['--verbose', 'a summary line on stderr'] as const;
const help = ['-h, --help', 'this help'] as const;
const version = ['-V, --version', 'print the version'] as const;

/** The function itself (no command word): `secret-rollout --help` is the top-level help. */
const runUsage = [`secret-rollout [--verbose] ${input}`];
const runFlags: Flags = [verbose, ...optionFlags, help, version];

const commands: Readonly<Record<Exclude<Command, 'run'>, CommandHelp>> = {
  plan: {
    usage: ['secret-rollout plan [--format table|mermaid|json] [--mermaid] [--verbose]', input],
    summary: 'print what a run would write: waves, checksums, results',
    about: `Prints what a run would write: the waves (stores, sources, consumers) and the checksums,
then the results. Changes nothing. Also reads options from a Kptfile in the input.`,
    flags: [
      ['--format table|mermaid|json', 'the output: a table (default), a Mermaid picture, JSON'],
      ['--mermaid', 'the same as --format mermaid'],
      ['--verbose', 'info results too, and where the options came from'],
      ...optionFlags,
      help,
      version,
    ],
    examples: `kustomize build overlays/prod | secret-rollout plan
kpt fn source pkg/ | secret-rollout plan --format json`,
  },
  check: {
    usage: [`secret-rollout check [--verbose] ${input}`],
    summary: 'change nothing; an error for every edit a run would make (a CI gate)',
    about: `Changes nothing: an error for every edit a run would make (a missing or stale checksum or
wave), exit 1 if there is any. A CI gate on committed manifests, as option mode=check is inside
kpt or kustomize. Also reads options from a Kptfile in the input, as plan.`,
    flags: [['--verbose', 'info results too, and a summary line'], ...optionFlags, help, version],
    examples: `secret-rollout check < rendered/prod.yaml
kpt fn source pkg/ | secret-rollout check`,
  },
  impact: {
    usage: [
      'secret-rollout impact BASE HEAD [--format markdown|json|sarif] [--exclude PATTERN ...]',
      '[--max-chars N] [--output-full FILE] [--fn-config FILE | key=value ...]',
    ],
    summary: 'what the change from BASE to HEAD restarts: markdown, JSON or SARIF',
    about: `What the change from BASE to HEAD restarts: each a file, or a directory whose .yaml and
.yml files are read as they are: no kustomization is rendered (a patch reads as a resource of
its own), and one that does more than list files is named on stderr; render each side first
(kubectl kustomize) to compare overlays. They are paths, not git revisions: check a revision out
(git worktree add) or render it to a file, as examples/ci/impact.sh does. In a directory, files
that are not Kubernetes manifests (no apiVersion and kind: Helm's Chart.yaml, values.yaml, an
app's config) are skipped with one info line each on stderr, and files matched by .krmignore
(as kpt reads it) or --exclude are not read. A markdown report spanning several applications (a
directory with a kustomization.yaml or Kptfile, else a top directory) sums up by reason first, then
folds each application; past --max-chars it is cut, saying where the full report is.`,
    flags: [
      ['--format markdown|json|sarif', 'the report: markdown (default), JSON, SARIF 2.1.0'],
      [
        '--exclude PATTERN',
        'skip files matching a .gitignore-style pattern, relative to BASE or HEAD; repeatable',
      ],
      [
        '--max-chars N',
        "markdown: cut the report to N characters, a comment's cap (65536, GitHub's)",
      ],
      ['--output-full FILE', 'markdown: write the full report, never cut, to FILE'],
      ...optionFlags,
      help,
      version,
    ],
    examples: `secret-rollout impact base/ head/ --output-full impact-full.md > impact.md
secret-rollout impact old.yaml new.yaml --format json
secret-rollout impact main-tree/ pr-tree/ --exclude 'charts/*/templates/' --format sarif`,
  },
  health: {
    usage: ['secret-rollout health [--for argocd|flux|kapp|kstatus]'],
    summary: 'print the ExternalSecret readiness check for a deployer (alias: argocd-health)',
    about: `Prints the generation-aware ExternalSecret readiness check in the deployer's own form: ready
only once ESO has synced the current generation, so that what waits on it does not start on the
old Secret. Reads no input. The old name argocd-health still works.
  argocd   an argocd-cm patch with the Lua health check (the default)
  flux     a Kustomization patch: spec.wait and a healthCheckExprs entry (CEL)
  kapp     a kapp Config with a wait rule (a ytt function, kapp 0.48.0 or later)
  kstatus  why kpt live apply and Config Sync cannot wait for it, and what to do instead`,
    flags: [['--for DEPLOYER', 'argocd (default), flux, kapp or kstatus'], help, version],
    examples: `secret-rollout health > argocd-cm-patch.yaml
kubectl -n argocd patch configmap argocd-cm --type merge --patch-file argocd-cm-patch.yaml
secret-rollout health --for flux > flux-patch.yaml
kubectl -n flux-system patch kustomization secrets --type merge --patch-file flux-patch.yaml
secret-rollout health --for kapp > kapp-config.yaml && kapp deploy -a app -f manifests/ -f kapp-config.yaml`,
  },
};

/** Usage lines after `prefix`, a long usage's later lines under its first flag. */
function usageLines(usage: readonly string[], prefix: string): string {
  const [first = '', ...rest] = usage;
  const column = prefix.length + (/^secret-rollout(?: \w+)? /.exec(first)?.[0].length ?? 0);
  return [prefix + first, ...rest.map((line) => ' '.repeat(column) + line)].join('\n');
}

/** The command's usage, for an error message about its arguments. */
export function usageOf(command: Command): string {
  const more = `secret-rollout${command === 'run' ? '' : ` ${command}`} --help`;
  const usage = command === 'run' ? runUsage : commands[command].usage;
  return `${usageLines(usage, 'Usage: ')}\nMore: ${more}\n`;
}

/** A command's own help: usage, what it does, its flags, examples. */
export function commandHelp(command: Exclude<Command, 'run'>): string {
  const { usage, about, flags, examples } = commands[command];
  return [
    usageLines(usage, 'Usage: '),
    about,
    `Flags:\n${table(flags)}`,
    `Examples:\n${indent(examples)}`,
  ]
    .join('\n\n')
    .concat('\n');
}

/** `secret-rollout --help` (and `kpt fn doc`): the README's blocks around the commands. */
export function topHelp(readme: ReadmeHelp): string {
  const list = Object.entries(commands).map(([name, c]) => [name, c.summary] as const);
  return [
    `secret-rollout: ${readme.Short}`,
    // How to call it first: the README's Long block, with the options table, runs to a screenful.
    `Usage:\n${usageLines(runUsage, '  ')}\n  secret-rollout COMMAND ...   (secret-rollout COMMAND --help: its flags and examples)`,
    `Commands:\n${table(list)}`,
    `Flags:\n${table(runFlags)}`,
    readme.Long,
    `Examples:\n${readme.Examples}`,
  ]
    .join('\n\n')
    .concat('\n');
}

/** Two columns, the second aligned. */
function table(rows: Flags): string {
  const width = Math.max(...rows.map(([first]) => first.length));
  return rows.map(([first, second]) => `  ${first.padEnd(width)}  ${second}`).join('\n');
}

const indent = (text: string) => text.replace(/^(?=.)/gm, '  ');
