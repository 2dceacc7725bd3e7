// stdio.ts's writer: pieces written in order, in slices through one buffer, never splitting a
// surrogate pair (each half alone would be written as U+FFFD).
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { write, writeSlice } from '../src/stdio.js';

const written = (pieces: string | string[]) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-')), 'out');
  const fd = openSync(file, 'w');
  try {
    write(fd, pieces);
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8');
};

describe('write', () => {
  it('writes every piece in order, empty ones included, and drops each once written', () => {
    const pieces = ['a: 1\n', '', 'b: é\n', 'c: 😀\n'];
    expect(written(pieces)).toBe('a: 1\nb: é\nc: 😀\n');
    expect(pieces).toEqual(['', '', '', '']);
    expect(written('')).toBe('');
  });

  it('keeps a surrogate pair whole across a slice boundary', () => {
    const text = `${'x'.repeat(writeSlice - 1)}😀${'y'.repeat(10)}`;
    expect(text.charCodeAt(writeSlice - 1)).toBe(0xd83d);
    expect(written(text)).toBe(text);
    expect(written([text, text])).toBe(text + text);
  });

  it('writes pieces longer than the buffer and multi-byte text filling it', () => {
    const long = 'é€'.repeat(writeSlice + 7);
    expect(written(['short\n', long, 'end'])).toBe(`short\n${long}end`);
  });
});
