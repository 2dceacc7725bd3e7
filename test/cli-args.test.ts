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
      positional: ['base', 'head'],
    });
    expect(parseArgs(['--fn-config=f.yaml'], {})).toMatchObject({ fnConfigPath: 'f.yaml' });
  });

  it('refuses an option given twice (without the usage), a bad or missing value, unknown words', () => {
    expect(parseArgs(['a=1', 'a=2'], {})).toEqual({ error: 'option a given twice', usage: false });
    expect(parseArgs(['--format', 'xml'], { formats })).toEqual({
      error: '--format must be one of table, json, got "xml"',
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
    expect(parseArgs(['--x'], { positional: true })).toMatchObject({
      error: 'unknown argument "--x"',
    });
    expect(parseArgs(['-'], { positional: true })).toMatchObject({ positional: ['-'] });
  });
});
