// The one command-line parser that `secret-rollout`, `plan`, `check` and `impact` share.
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli-args.js';

describe('parseArgs', () => {
  const formats = ['table', 'json'] as const;

  it('reads options, --fn-config in both forms, --format, flags and positional paths', () => {
    expect(
      parseArgs(
        ['a=1', '--fn-config', 'c.yaml', '--format=json', '--verbose', 'base', 'b=x=y', 'head'],
        { formats, flags: ['--verbose'], positional: true },
      ),
    ).toEqual({
      settings: { a: '1', b: 'x=y' },
      fnConfigPath: 'c.yaml',
      format: 'json',
      flags: new Set(['--verbose']),
      lists: new Map(),
      positional: ['base', 'head'],
    });
    expect(parseArgs(['--fn-config=f.yaml'], {})).toMatchObject({ fnConfigPath: 'f.yaml' });
  });

  it('refuses an option given twice (without the usage), a bad or missing value, unknown words', () => {
    expect(parseArgs(['a=1', 'a=2'], {})).toEqual({ error: 'option a given twice', usage: false });
    expect(parseArgs(['--format', 'xml'], { formats })).toEqual({
      error: '--format must be one of table, json',
      usage: true,
    });
    expect(parseArgs(['--fn-config'], {})).toEqual({
      error: '--fn-config needs a file',
      usage: true,
    });
    // A command without formats or positional paths takes neither.
    expect(parseArgs(['--format', 'json'], {})).toMatchObject({
      error: 'unknown argument "--format"',
    });
    expect(parseArgs(['base'], {})).toMatchObject({ error: 'unknown argument "base"' });
    // A path where a command takes none: the input's file, which comes on stdin.
    expect(parseArgs(['app/in.yaml'], {})).toMatchObject({
      error: 'unknown argument "app/in.yaml", the input comes on stdin (< FILE)',
    });
    expect(parseArgs(['--x'], { positional: true })).toMatchObject({
      error: 'unknown argument "--x"',
    });
    expect(parseArgs(['-'], { positional: true })).toMatchObject({ positional: ['-'] });
    // An option written as a flag: said how options are written.
    expect(parseArgs(['--storeWave=-3'], {})).toMatchObject({
      error: 'unknown argument "--storeWave=…", options are written key=value, without dashes',
    });
  });

  it('collects a repeatable flag in both forms, in order; refuses it without a value', () => {
    const spec = { lists: ['--exclude'], positional: true };
    expect(parseArgs(['a', '--exclude', 'x/', 'b', '--exclude=*.tmpl.yaml'], spec)).toMatchObject({
      lists: new Map([['--exclude', ['x/', '*.tmpl.yaml']]]),
      positional: ['a', 'b'],
    });
    expect(parseArgs(['a'], spec)).toMatchObject({ lists: new Map([['--exclude', []]]) });
    expect(parseArgs(['--exclude'], spec)).toEqual({
      error: '--exclude needs a value',
      usage: true,
    });
    expect(parseArgs(['--exclude='], spec)).toEqual({
      error: '--exclude needs a value',
      usage: true,
    });
  });

  it("names the nearest flag of the command for a misspelt one, never another command's", () => {
    const hint = (arg: string, spec: Parameters<typeof parseArgs>[1]) =>
      (parseArgs([arg], spec) as { error: string }).error;
    expect(hint('--verbsoe', { flags: ['--verbose'] })).toBe(
      'unknown argument "--verbsoe", did you mean --verbose?',
    );
    expect(hint('--FORMAT=json', { formats })).toBe(
      'unknown argument "--FORMAT=…", did you mean --format?',
    );
    expect(hint('--fn-confg', {})).toBe('unknown argument "--fn-confg", did you mean --fn-config?');
    expect(hint('--exclud', { lists: ['--exclude'] })).toBe(
      'unknown argument "--exclud", did you mean --exclude?',
    );
    // --mermaid is plan's only: check has no such flag to suggest.
    expect(hint('--mermaid', { flags: ['--verbose'] })).toBe('unknown argument "--mermaid"');
    expect(hint('--verson', {})).toBe('unknown argument "--verson", did you mean --version?');
    // A positional word is no flag: nothing to suggest.
    expect(hint('verbose', {})).toBe('unknown argument "verbose"');
  });
});
