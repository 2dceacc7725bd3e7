// `secret-rollout impact BASE HEAD`: its arguments, and reading BASE and HEAD (a file, or the
// .yaml/.yml files under a directory that hold Kubernetes manifests, less those .krmignore or
// --exclude leave out). The comparison itself is impact-run.ts, text in, text out.
import {
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { Ignore } from 'ignore';
import { type ArgsSpec, parseArgs } from './cli-args.js';
import {
  type ImpactFormat,
  impact,
  impactFormats,
  joinFiles,
  type Origin,
  type SideInput,
} from './impact-run.js';
import loadYaml from './krm/yaml/load-yaml.cjs';
import { quickParse } from './krm/yaml/quick-parse.js';
import loadIgnore from './load-ignore.cjs';
import type { RunOutput } from './run.js';

export const impactArgs: ArgsSpec<ImpactFormat> = {
  formats: impactFormats,
  lists: ['--exclude', '--max-chars', '--output-full'],
  positional: true,
};

const failure = (message: string): RunOutput => ({
  stdout: '',
  stderr: `secret-rollout: impact: ${message}\n`,
  exitCode: 1,
});

/**
 * `planning`: called with the larger side's length once both are read, before they are planned
 * (main.ts tunes V8 for a large input there, as it does for a run's stdin).
 */
export function impactCli(
  args: readonly string[],
  version: string,
  cwd: string,
  planning?: (largestSide: number) => void,
): RunOutput {
  const parsed = parseArgs(args, impactArgs);
  if ('error' in parsed) return failure(parsed.error);
  const { positional, settings, fnConfigPath } = parsed;
  const format: ImpactFormat = parsed.format ?? 'markdown';
  if (positional.length !== 2) {
    const n = positional.length;
    return failure(
      `needs BASE and HEAD (files or directories), got ${n} ${n === 1 ? 'path' : 'paths'}`,
    );
  }
  let fnConfig: { path: string; text: string } | undefined;
  if (fnConfigPath !== undefined) {
    const read = readFnConfig(fnConfigPath, cwd);
    if (typeof read === 'string') return failure(read);
    fnConfig = read;
  }
  const excludes = parsed.lists.get('--exclude') ?? [];
  const report = reportFlags(parsed.lists, format);
  if (typeof report === 'string') return failure(report);
  const sides: SideInput[] = [];
  /** Every file read, to never write the full report over one. */
  const inputs = fnConfig ? [path.resolve(cwd, fnConfig.path)] : [];
  let skipped = '';
  for (const [label, given] of [
    ['BASE', positional[0]],
    ['HEAD', positional[1]],
  ] as const) {
    const side = readSide(label, given as string, cwd, excludes);
    if (typeof side === 'string') return failure(side);
    sides.push(side);
    inputs.push(...side.files);
    for (const file of side.skipped) {
      skipped += `info: impact: ${label} ${file} skipped: no Kubernetes manifest in it (no document has apiVersion and kind)\n`;
    }
    for (const file of side.unrendered) {
      skipped += `warning: impact: ${label} ${file}: ${unrenderedWarning}\n`;
    }
  }
  if (
    report.fullReport !== undefined &&
    overwritesInput(path.resolve(cwd, report.fullReport), inputs)
  ) {
    return failure(
      `--output-full ${report.fullReport} is a file the run reads (BASE, HEAD or --fn-config): refused, it would be overwritten`,
    );
  }
  const [base, head] = sides as [SideInput, SideInput];
  planning?.(Math.max(base.text.length, head.text.length));
  const { full, ...out } = impact(base, head, {
    settings,
    format,
    version,
    ...(fnConfig ? { fnConfig } : {}),
    ...report,
  });
  // The summary and the cut line always stay: with a small cap and a long FILE they alone can
  // exceed it, and a comment over the cap is one GitHub refuses.
  if (report.maxChars !== undefined && out.exitCode === 0 && out.stdout.length > report.maxChars) {
    return failure(
      `--max-chars ${report.maxChars} leaves no room for the summary and the line saying where the full report is: they take ${out.stdout.length} characters`,
    );
  }
  if (report.fullReport !== undefined && full !== undefined && out.exitCode === 0) {
    try {
      writeFileSync(path.resolve(cwd, report.fullReport), full);
    } catch (error) {
      return failure(`cannot write --output-full ${report.fullReport}: ${why(error)}`);
    }
  }
  return { ...out, stderr: skipped + out.stderr };
}

/**
 * Where a side's directory holds a kustomization that changes what it lists (kustomizationRenders):
 * a line on stderr, as the skipped files' are. The reports stay the plans' comparison, and the
 * exit code 0 (a report, not a gate); docs/commands.md says why.
 */
const unrenderedWarning =
  'a kustomization that changes what it lists when rendered (patches, an overlay of another ' +
  'directory, prefixes, labels, generators): impact reads the files as they are, unrendered, so the ' +
  'report misses what the render changes; render each side first (kubectl kustomize DIR > FILE) ' +
  'and compare the two files';

/**
 * Whether writing `target` would replace one of the files read (named another way, or through a
 * link): CI may pass the report's path from a variable, and a typo must not destroy a manifest.
 * Real paths are compared only when the target exists: a file that does not is no input.
 */
function overwritesInput(target: string, inputs: readonly string[]): boolean {
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return false;
  }
  return inputs.some((file) => {
    try {
      return realpathSync(file) === real;
    } catch {
      return false;
    }
  });
}

/**
 * GitHub's cap on a pull-request comment's body, in characters (docs/commands.md cites it); the
 * report counts UTF-16 code units, never fewer than characters, so it stays under it.
 */
export const commentLimit = 65536;
/** Under this a cap leaves no room for the summary and the line saying the report is cut. */
const minMaxChars = 1000;

/** `--max-chars N` and `--output-full FILE` (markdown only, each at most once). */
function reportFlags(
  lists: ReadonlyMap<string, readonly string[]>,
  format: ImpactFormat,
): { maxChars?: number; fullReport?: string } | string {
  const once = (flag: string) => {
    const values = lists.get(flag) ?? [];
    if (values.length > 1) return { problem: `${flag} given twice` };
    if (values.length === 1 && format !== 'markdown') {
      return { problem: `${flag} is for --format markdown (the comment), got --format ${format}` };
    }
    return { value: values[0] };
  };
  const max = once('--max-chars');
  const output = once('--output-full');
  if (max.problem ?? output.problem) return (max.problem ?? output.problem) as string;
  if (format !== 'markdown') return {};
  let maxChars = commentLimit;
  if (max.value !== undefined) {
    maxChars = /^[0-9]{1,9}$/.test(max.value) ? Number(max.value) : Number.NaN;
    if (!(maxChars >= minMaxChars)) {
      return `--max-chars must be a whole number of characters, at least ${minMaxChars}`;
    }
  }
  return { maxChars, ...(output.value === undefined ? {} : { fullReport: output.value }) };
}

/**
 * A file as it is, or a directory's .yaml/.yml files (sorted by path, dot-directories skipped)
 * joined into one YAML stream, with the directory's files that hold no Kubernetes manifest
 * (`skipped`, as shown). A message naming the path when it cannot be read: never a file's
 * content, and never where a refused link points. `excludes` (.gitignore patterns, relative to
 * the directory) apply to a directory's files, not to a file given.
 */
export function readSide(
  label: string,
  given: string,
  cwd: string,
  excludes: readonly string[] = [],
): (SideInput & { skipped: string[]; files: string[]; unrendered: string[] }) | string {
  const full = path.resolve(cwd, given);
  const shown = (file: string) => {
    const relative = path.relative(cwd, file);
    return (isBelow(relative) ? relative : file).split(path.sep).join('/');
  };
  let files: { read: string; shown: string; application?: string }[];
  let kustomizations: { read: string | undefined; shown: string }[] = [];
  let directory = false;
  try {
    if (leavesCwd(full, cwd)) return `${label} ${given}: ${outOfCwd}`;
    if (!statSync(full).isDirectory()) files = [{ read: full, shown: shown(full) }];
    else {
      const found = yamlFiles(full, excludes);
      if (typeof found === 'string') return `${label} ${given}: ${found}`;
      files = found.files.map((f) => ({
        read: f.read,
        shown: shown(f.at),
        application: f.application,
      }));
      kustomizations = found.kustomizations.map((f) => ({ read: f.read, shown: shown(f.at) }));
      directory = true;
    }
  } catch (error) {
    // `impact HEAD~1 HEAD` reads paths, not revisions: say how to make a tree of a revision.
    const revision = errorCode(error) === 'ENOENT' ? ` ${revisionHint}` : '';
    return `cannot read ${label} ${given}: ${why(error)}${revision}`;
  }
  if (files.length === 0) return `${label} ${given}: no .yaml or .yml file in the directory`;
  const kept: Omit<Origin, 'offset' | 'line'>[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const own = readText(file.read);
    if (typeof own !== 'string') return `cannot read ${label} ${file.shown}: ${own.why}`;
    if (directory && holdsNoManifest(own)) {
      skipped.push(file.shown);
      continue;
    }
    kept.push({
      path: file.shown,
      text: own,
      ...(file.application === undefined ? {} : { application: file.application }),
    });
  }
  const { text, origins } = joinFiles(kept, files.length > 1);
  if (origins.length === 0 && skipped.length > 0) {
    return `${label} ${given}: no Kubernetes manifest in the directory (${skipped.length} YAML files without apiVersion and kind)`;
  }
  const unrendered: string[] = [];
  for (const file of kustomizations) {
    const own = file.read === undefined ? undefined : readText(file.read);
    // Not read as a manifest: one that cannot be read (not UTF-8) renders unknown, a warning as
    // any, not a refusal of the side (0c4fb3f skipped it unread).
    if (own === undefined || typeof own === 'object' || kustomizationRenders(own)) {
      unrendered.push(file.shown);
    }
  }
  const read = files.map((f) => f.read);
  return { label: `${label} ${given}`, text, origins, skipped, files: read, unrendered };
}

/**
 * The fields of a kustomization that list what to read, and `namespace`: it moves every resource
 * listed alike (what reads what stays), and manifests committed with it often carry it already
 * (examples/ci/impact).
 */
const listingFields: ReadonlySet<string> = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'namespace',
  'resources',
]);

/**
 * Whether a kustomization's render differs from its directory's files read as they are: any
 * field but those listing them (patches, name prefixes, labels, generators, components,
 * replacements…), or a resource that is not a YAML file below its directory (an
 * overlay's `../base`, another directory, a URL). One that cannot be read as a mapping renders
 * unknown: it counts. Empty, it renders nothing, and impact reads nothing more.
 */
function kustomizationRenders(text: string): boolean {
  // The quick reader first (a kustomization is a few block lines): the `yaml` library, loaded and
  // compiled for the first one, made impact on 500 applications 20 % slower (bench/monorepo.mjs).
  let value: unknown = quickParse(text, 0, text.length, false);
  if (value === undefined) {
    try {
      // parseDocument, not parse: parse hands the document's warnings to process.emitWarning,
      // which prints them with the line they are about (text of the file).
      const doc = loadYaml().parseDocument(text);
      if (doc.errors.length > 0) return true;
      value = doc.toJS();
    } catch {
      // Too deep for the parser's stack, or too many aliases: unknown, so it counts.
      return true;
    }
  }
  if (value === null || value === undefined) return false;
  if (typeof value !== 'object' || Array.isArray(value)) return true;
  const fields = value as Record<string, unknown>;
  if (Object.keys(fields).some((key) => !listingFields.has(key))) return true;
  const { resources = [] } = fields;
  return (
    !Array.isArray(resources) ||
    resources.some(
      (entry) =>
        typeof entry !== 'string' ||
        !/\.ya?ml$/.test(entry) ||
        entry.includes('://') ||
        path.posix.isAbsolute(entry) ||
        entry.split('/').includes('..'),
    )
  );
}

/**
 * A repository holds YAML that is no manifest (Helm's Chart.yaml and values.yaml, an app's
 * config): a file none of whose documents is a mapping with `apiVersion` and `kind` is skipped.
 * A file with at least one such document is read whole, so a document without them is still an
 * error naming it (a broken manifest must not vanish), and so is a file that is not valid YAML.
 * Most manifests have both keys at the start of a line, and are not parsed here.
 */
function holdsNoManifest(text: string): boolean {
  if (/^apiVersion[ \t]*:/m.test(text) && /^kind[ \t]*:/m.test(text)) return false;
  const { isMap, parseAllDocuments } = loadYaml();
  try {
    const docs = parseAllDocuments(text);
    // Comments only: nothing to skip, and nothing to say.
    if (docs.every((doc) => doc.contents === null) || docs.some((doc) => doc.errors.length > 0)) {
      return false;
    }
    return !docs.some(
      (doc) => isMap(doc.contents) && doc.contents.has('apiVersion') && doc.contents.has('kind'),
    );
  } catch {
    // Too deep for the parser's stack: the run reads it with its own bounds and says what it is.
    return false;
  }
}

/**
 * `--fn-config FILE` (for every command), read as BASE and HEAD are. A message naming the file
 * when it cannot be read, never its content.
 */
export function readFnConfig(given: string, cwd: string): { path: string; text: string } | string {
  const full = path.resolve(cwd, given);
  let text: string | { why: string };
  try {
    text = leavesCwd(full, cwd) ? { why: outOfCwd } : readText(full);
  } catch (error) {
    text = { why: why(error) };
  }
  return typeof text === 'string'
    ? { path: given, text }
    : `cannot read --fn-config ${given}: ${text.why}`;
}

/** A file's text, or why it has none (its error code, or invalid UTF-8). */
function readText(file: string): string | { why: string } {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    return { why: error instanceof TypeError ? 'not valid UTF-8' : why(error) };
  }
}

const outOfCwd = 'a symbolic link out of the working directory (refused)';

/**
 * A path given below the working directory (as CI passes a directory of the pull request's
 * tree) must stay below it, however it is written: the tree can make it, or a directory on its
 * way, a link to anywhere. Paths outside the working directory are read where they lead. Throws
 * (ENOENT) when the path does not exist.
 */
const leavesCwd = (full: string, cwd: string) =>
  isBelow(path.relative(cwd, full)) &&
  !isBelow(path.relative(realpathSync(cwd), realpathSync(full)));

/** A relative path that leads below where it starts (not to it, not up and out). */
const isBelow = (relative: string) =>
  relative !== '' &&
  relative !== '..' &&
  !relative.startsWith(`..${path.sep}`) &&
  !path.isAbsolute(relative);

/** The error's code (ENOENT, EACCES, …): the message of some errors quotes more than the path. */
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'cannot be read';

/** The common codes in words, as the C library says them; any other as its code. */
const codeWords: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};
const why = (error: unknown) => {
  const code = errorCode(error);
  return codeWords[code] ?? code;
};

const revisionHint =
  '(BASE and HEAD are paths: for a git revision, check it out first with git worktree add or git archive)';

/** Where a link found in the directory `root` (its real path) points, if it may be read. */
function followLink(link: string, named: string, root: string): string | { problem: string } {
  let target: string;
  try {
    target = realpathSync(link);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') return { problem: `${named} is a symbolic link loop` };
    if (code === 'ENOENT') return { problem: `${named} is a symbolic link to nothing` };
    return { problem: `cannot read ${named}: ${why(error)}` };
  }
  if (isBelow(path.relative(root, target))) return target;
  return { problem: `${named} is a symbolic link out of the directory (refused)` };
}

/** kustomize's own files (the names it looks for): how to build resources, not one. */
const kustomizationFile = /^(kustomization\.ya?ml|Kustomization)$/;
/** A directory holding one of these is an application (kustomize's names, kpt's). */
const applicationFile = /^(kustomization\.ya?ml|Kustomization|Kptfile)$/;

/** .gitignore patterns and the directory they are relative to. */
interface Patterns {
  base: string;
  ignore: Ignore;
}

/**
 * .yaml/.yml files under a directory (`at`: where it is found, `read`: the file to read), sorted
 * by path (code-unit order), dot-directories and kustomize's own files skipped, and those that
 * `.krmignore` or `excludes` match. `.krmignore` is read as kpt reads it (kyaml's
 * LocalPackageReader): in the directory given and in each directory with a Kptfile (a
 * subpackage), whose own file (or none) replaces its parent's for the files below it. A file that
 * is a symbolic link is read where it points when that is inside the directory too (a tree may
 * share a file that way, and it can be read anyway); one that leads out of the directory is
 * refused, as it would let the tree read any file on the machine. Links to directories are not
 * followed. Each file's `application`: the directory nearest above it (relative, `.` for `dir`)
 * that holds a kustomization.yaml or Kptfile, else its top directory under `dir` (`.` for a file
 * in `dir`). Beside them, `kustomizations`: kustomize's own files (kustomization.yaml,
 * kustomization.yml, Kustomization), found and followed as the others (one whose link cannot be
 * followed with no file to read, not refused), in walk order, for readSide to say which it reads
 * unrendered. Else a message naming the file, relative to the directory.
 */
function yamlFiles(
  dir: string,
  excludes: readonly string[],
):
  | {
      files: { at: string; read: string; application: string }[];
      kustomizations: { at: string; read: string | undefined }[];
    }
  | string {
  const root = realpathSync(dir);
  const found: { at: string; read: string; application: string }[] = [];
  const kustomizations: { at: string; read: string | undefined; application: string }[] = [];
  const named = (full: string) => path.relative(dir, full).split(path.sep).join('/');
  const excluded: Patterns | undefined =
    excludes.length === 0 ? undefined : { base: dir, ignore: loadIgnore()().add(excludes) };
  /** Whether the patterns leave out this path (a directory's with a trailing `/`). */
  const skips = (patterns: Patterns | undefined, full: string, isDirectory: boolean) => {
    if (patterns === undefined) return false;
    const relative = path.relative(patterns.base, full).split(path.sep).join('/');
    return patterns.ignore.ignores(`${relative}${isDirectory ? '/' : ''}`);
  };
  const walk = (
    at: string,
    inherited: Patterns | undefined,
    above: string | undefined,
  ): string | undefined => {
    const entries = readdirSync(at, { withFileTypes: true });
    // Name order: the first problem reported is the same on every file system.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const marked = entries.some((e) => !e.isDirectory() && applicationFile.test(e.name));
    const here = at === dir ? '.' : named(at);
    const application = marked ? here : (above ?? here);
    let krmignore = inherited;
    if (at === dir || entries.some((e) => e.name === 'Kptfile')) {
      const read = readKrmignore(at, named, root);
      if (typeof read === 'string') return read;
      krmignore = read;
    }
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      const isDirectory = entry.isDirectory();
      if (skips(excluded, full, isDirectory) || skips(krmignore, full, isDirectory)) continue;
      if (isDirectory) {
        const problem = entry.name.startsWith('.')
          ? undefined
          : walk(full, krmignore, marked || at !== dir ? application : undefined);
        if (problem) return problem;
        continue;
      }
      const kustomization = kustomizationFile.test(entry.name);
      if (!kustomization && !/\.ya?ml$/.test(entry.name)) continue;
      const into = kustomization ? kustomizations : found;
      if (entry.isFile()) into.push({ at: full, read: full, application });
      else if (entry.isSymbolicLink()) {
        const target = followLink(full, named(full), root);
        // A kustomization is never a manifest: one that cannot be followed is not read, and is
        // named as one whose render impact cannot tell (readSide), not refused.
        if (typeof target !== 'string') {
          if (!kustomization) return target.problem;
          kustomizations.push({ at: full, read: undefined, application });
        } else if (statSync(target).isFile()) into.push({ at: full, read: target, application });
      }
    }
    return undefined;
  };
  const problem = walk(dir, undefined, undefined);
  if (problem) return problem;
  // Each key once: path.relative in the comparator ran for every comparison (15,006 calls on
  // bench/monorepo.mjs's 500 applications, 7,012 now).
  const keyed = found.map((f) => ({ f, key: named(f.at) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { files: keyed.map(({ f }) => f), kustomizations };
}

/**
 * The `.krmignore` of a directory, undefined when it has none; a link is followed as a YAML
 * file's is. Its lines are patterns (.gitignore syntax, relative to the directory), never shown.
 */
function readKrmignore(
  at: string,
  named: (full: string) => string,
  root: string,
): Patterns | undefined | string {
  const file = path.join(at, '.krmignore');
  let read = file;
  try {
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) {
      const target = followLink(file, named(file), root);
      if (typeof target !== 'string') return target.problem;
      read = target;
    } else if (!stat.isFile()) return `cannot read ${named(file)}: not a regular file`;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    return `cannot read ${named(file)}: ${why(error)}`;
  }
  const text = readText(read);
  if (typeof text !== 'string') return `cannot read ${named(file)}: ${text.why}`;
  return { base: at, ignore: loadIgnore()().add(text) };
}
