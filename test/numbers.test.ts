import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grouped } from '../src/model/numbers.js';
import { repoRoot } from './helpers.js';

describe('grouped', () => {
  it('writes a comma every three digits, as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 500000, 1000000, 1234567890, -4500]) {
      expect(grouped(n)).toBe(n.toLocaleString('en'));
    }
  });

  it('is what src uses: no locale-aware call loads ICU data (7.8 MB resident) in a run', () => {
    const src = path.join(repoRoot, 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(ts|cjs)$/.test(f),
    );
    const locale = /\.toLocale\w*\(|\.localeCompare\(|\bIntl\./;
    const using = files.filter((f) => locale.test(readFileSync(path.join(src, f), 'utf8')));
    expect(using).toEqual([]);
  });
});
