// `secret-rollout impact BASE HEAD`: its arguments, and reading BASE and HEAD (a file, or every
// .yaml/.yml file under a directory). The comparison itself is impact-run.ts, text in, text out.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from './cli-args.js';
import {
  type ImpactFormat,
  impact,
  impactFormats,
  type Origin,
  type SideInput,
} from './impact-run.js';
import type { RunOutput } from './run.js';

export const impactUsage = `       secret-rollout impact BASE HEAD [--format markdown|json|sarif]
                           [--fn-config FILE | key=value ...]
                                       what the change from BASE to HEAD restarts (each a file
                                       or a directory of .yaml/.yml files, rendered or not)
`;

const failure = (message: string): RunOutput => ({
  stdout: '',
  stderr: `secret-rollout: impact: ${message}\n`,
  exitCode: 1,
});

export function impactCli(args: readonly string[], version: string, cwd: string): RunOutput {
  const parsed = parseArgs(args, { formats: impactFormats, positional: true });
  if ('error' in parsed) return failure(parsed.error);
  const { positional, settings, fnConfigPath } = parsed;
  const format: ImpactFormat = parsed.format ?? 'markdown';
  if (positional.length !== 2) {
    return failure(`needs BASE and HEAD (files or directories), got ${positional.length} paths`);
  }
  let fnConfig: { path: string; text: string } | undefined;
  if (fnConfigPath !== undefined) {
    const read = readFnConfig(fnConfigPath, cwd);
    if (typeof read === 'string') return failure(read);
    fnConfig = read;
  }
  const sides: SideInput[] = [];
  for (const [label, given] of [
    ['BASE', positional[0]],
    ['HEAD', positional[1]],
  ] as const) {
    const side = readSide(label, given as string, cwd);
    if (typeof side === 'string') return failure(side);
    sides.push(side);
  }
  const [base, head] = sides as [SideInput, SideInput];
  return impact(base, head, {
    settings,
    format,
    version,
    ...(fnConfig ? { fnConfig } : {}),
  });
}

/**
 * A file as it is, or a directory's .yaml/.yml files (sorted by path, dot-directories skipped)
 * joined into one YAML stream. A message naming the path when it cannot be read: never a file's
 * content, and never where a refused link points.
 */
export function readSide(label: string, given: string, cwd: string): SideInput | string {
  const full = path.resolve(cwd, given);
  const shown = (file: string) => {
    const relative = path.relative(cwd, file);
    return (isBelow(relative) ? relative : file).split(path.sep).join('/');
  };
  let files: { read: string; shown: string }[];
  try {
    if (leavesCwd(full, cwd)) return `${label} ${given}: ${outOfCwd}`;
    if (!statSync(full).isDirectory()) files = [{ read: full, shown: shown(full) }];
    else {
      const found = yamlFiles(full);
      if (typeof found === 'string') return `${label} ${given}: ${found}`;
      files = found.map((f) => ({ read: f.read, shown: shown(f.at) }));
    }
  } catch (error) {
    return `cannot read ${label} ${given}: ${errorCode(error)}`;
  }
  if (files.length === 0) return `${label} ${given}: no .yaml or .yml file in the directory`;
  const origins: Origin[] = [];
  let text = '';
  let line = 0;
  for (const file of files) {
    let own = readText(file.read);
    if (typeof own !== 'string') return `cannot read ${label} ${file.shown}: ${own.why}`;
    if (files.length > 1) {
      // Each file its own documents: a separator unless the file starts with one.
      if (text !== '' && !/^(---|%)/.test(own.replace(/^\uFEFF/, ''))) {
        text += '---\n';
        line++;
      }
      own = own.replace(/^\uFEFF/, '');
      if (own !== '' && !own.endsWith('\n')) own += '\n';
    }
    origins.push({ path: file.shown, offset: text.length, line, text: own });
    text += own;
    line += own.split('\n').length - 1;
  }
  return { label: `${label} ${given}`, text, origins };
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
    text = { why: errorCode(error) };
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
    return { why: error instanceof TypeError ? 'not valid UTF-8' : errorCode(error) };
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

/** Where a link found in the directory `root` (its real path) points, if it may be read. */
function followLink(link: string, named: string, root: string): string | { problem: string } {
  let target: string;
  try {
    target = realpathSync(link);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') return { problem: `${named} is a symbolic link loop` };
    if (code === 'ENOENT') return { problem: `${named} is a symbolic link to nothing` };
    return { problem: `cannot read ${named}: ${code}` };
  }
  if (isBelow(path.relative(root, target))) return target;
  return { problem: `${named} is a symbolic link out of the directory (refused)` };
}

/** kustomize's own file: how to build resources, not one. */
const kustomizationFile = /^kustomization\.ya?ml$/;

/**
 * .yaml/.yml files under a directory (`at`: where it is found, `read`: the file to read), sorted
 * by path (code-unit order), dot-directories and kustomization.yaml skipped. A Kptfile's
 * .krmignore is not read. A file that is a symbolic link is read where it points when that is
 * inside the directory too (a tree may share a file that way, and it can be read anyway); one
 * that leads out of the directory is refused, as it would let the tree read any file on the
 * machine. Links to directories are not followed. Else a message naming the file, relative to
 * the directory.
 */
function yamlFiles(dir: string): { at: string; read: string }[] | string {
  const root = realpathSync(dir);
  const found: { at: string; read: string }[] = [];
  const walk = (at: string): string | undefined => {
    const entries = readdirSync(at, { withFileTypes: true });
    // Name order: the first problem reported is the same on every file system.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        const problem = entry.name.startsWith('.') ? undefined : walk(full);
        if (problem) return problem;
        continue;
      }
      if (!/\.ya?ml$/.test(entry.name) || kustomizationFile.test(entry.name)) continue;
      if (entry.isFile()) found.push({ at: full, read: full });
      else if (entry.isSymbolicLink()) {
        const target = followLink(full, path.relative(dir, full).split(path.sep).join('/'), root);
        if (typeof target !== 'string') return target.problem;
        if (statSync(target).isFile()) found.push({ at: full, read: target });
      }
    }
    return undefined;
  };
  const problem = walk(dir);
  if (problem) return problem;
  const key = (f: { at: string }) => path.relative(dir, f.at).split(path.sep).join('/');
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
