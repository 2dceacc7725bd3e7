// `secret-rollout impact BASE HEAD`: its arguments, and reading BASE and HEAD (a file, or every
// .yaml/.yml file under a directory). The comparison itself is impact-run.ts, text in, text out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
    try {
      fnConfig = {
        path: fnConfigPath,
        text: readFileSync(path.resolve(cwd, fnConfigPath), 'utf8'),
      };
    } catch (error) {
      return failure(`cannot read --fn-config ${fnConfigPath}: ${(error as Error).message}`);
    }
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
 * joined into one YAML stream. A message naming the path when it cannot be read.
 */
export function readSide(label: string, given: string, cwd: string): SideInput | string {
  const full = path.resolve(cwd, given);
  const shown = (file: string) => {
    const relative = path.relative(cwd, file);
    const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    return (inside ? relative : file).split(path.sep).join('/');
  };
  let files: string[];
  try {
    files = statSync(full).isDirectory() ? yamlFiles(full) : [full];
  } catch (error) {
    return `cannot read ${label} ${given}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  if (files.length === 0) return `${label} ${given}: no .yaml or .yml file in the directory`;
  const origins: Origin[] = [];
  let text = '';
  let line = 0;
  for (const file of files) {
    let own: string;
    try {
      own = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
    } catch (error) {
      const why =
        error instanceof TypeError
          ? 'not valid UTF-8'
          : ((error as NodeJS.ErrnoException).code ?? '');
      return `cannot read ${label} ${shown(file)}: ${why}`;
    }
    if (files.length > 1) {
      // Each file its own documents: a separator unless the file starts with one.
      if (text !== '' && !/^(---|%)/.test(own.replace(/^\uFEFF/, ''))) {
        text += '---\n';
        line++;
      }
      own = own.replace(/^\uFEFF/, '');
      if (own !== '' && !own.endsWith('\n')) own += '\n';
    }
    origins.push({ path: shown(file), offset: text.length, line, text: own });
    text += own;
    line += own.split('\n').length - 1;
  }
  return { label: `${label} ${given}`, text, origins };
}

/** kustomize's own file: how to build resources, not one. */
const kustomizationFile = /^kustomization\.ya?ml$/;

/**
 * .yaml/.yml files under a directory, sorted by path (code-unit order), dot-directories and
 * kustomization.yaml skipped. A Kptfile's .krmignore is not read.
 */
function yamlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.')) walk(full);
      } else if (
        /\.ya?ml$/.test(entry.name) &&
        !kustomizationFile.test(entry.name) &&
        (entry.isFile() || statSync(full).isFile())
      ) {
        found.push(full);
      }
    }
  };
  walk(dir);
  const key = (f: string) => path.relative(dir, f).split(path.sep).join('/');
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
