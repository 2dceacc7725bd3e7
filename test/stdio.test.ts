// stdio.ts's reader: a pipe's bytes in one buffer, given back once decoded; its writer: pieces
// written in order, in slices through one buffer, never splitting a surrogate pair (each half
// alone would be written as U+FFFD); and the built command when its stdout's reader stops early
// or stdout is closed before the run.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { hasUnusualCharacters } from '../src/krm/yaml/quick-parse.js';
import { brokenPipeStatus, printableAscii, readText, write, writeSlice } from '../src/stdio.js';
import { deployment, envFrom, externalSecret, repoRoot, resourceList } from './helpers.js';

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

describe('readText', () => {
  // Many reads' worth (kpt pipes its input), past the first room of a pipe's bytes.
  const text = 'a: 1\n'.repeat(400_000);

  it('reads a pipe into one buffer, joins no copies, and frees the bytes once decoded', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stdio-'));
    const file = path.join(dir, 'in.yaml');
    const fifo = path.join(dir, 'fifo');
    writeFileSync(file, text);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', file, fifo]);
    // Opening a FIFO waits for its writer, another process.
    const fd = openSync(fifo, 'r');
    const concat = vi.spyOn(Buffer, 'concat');
    const resize = vi.spyOn(
      ArrayBuffer.prototype as unknown as { resize(length: number): void },
      'resize',
    );
    try {
      expect(await readText(fd)).toEqual({ text, printable: true });
      // Main joined the chunks of a pipe into a second copy, then held both with the text.
      expect(concat).not.toHaveBeenCalled();
      // Given back at once, not left for a collection.
      expect(resize.mock.calls.at(-1)).toEqual([0]);
    } finally {
      concat.mockRestore();
      resize.mockRestore();
      closeSync(fd);
      writer.kill();
    }
  });
});

describe('printableAscii', () => {
  // Past one 64 KiB copy, with a tail that is no whole round of 16 bytes.
  const length = (1 << 16) + 37;
  const places = [0, 1, 6, 17, 35, 65_535, 65_536, 65_541, length - 21, length - 1];

  it('says what the quick reader says of the text: each ASCII byte, wherever it is', () => {
    for (let b = 0; b < 0x80; b++) {
      for (const at of places) {
        const bytes = Buffer.alloc(length, 'a: b\n');
        bytes[at] = b;
        const text = bytes.toString('latin1');
        expect(printableAscii(bytes), `byte ${b} at ${at}`).toBe(!hasUnusualCharacters(text));
      }
    }
  });

  it('reads bytes that start at any offset, as after a byte order mark', () => {
    const bytes = Buffer.alloc(length + 3, 'a: b\n');
    for (const start of [1, 2, 3]) {
      expect(printableAscii(bytes.subarray(start))).toBe(true);
      bytes[start + 20] = 9;
      expect(printableAscii(bytes.subarray(start)), `tab after ${start}`).toBe(false);
      bytes[start + 20] = 97;
    }
  });

  it('is what readText says of stdin, without the byte order mark, and not of other UTF-8', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stdio-'));
    const cases: [string, boolean][] = [
      ['\ufeffa: b\n', true],
      ['a:\tb\n', false],
      ['a: b\r\n', false],
      ['a: é\n', false],
    ];
    for (const [text, printable] of cases) {
      const file = path.join(dir, 'in.yaml');
      writeFileSync(file, text);
      const fd = openSync(file, 'r');
      try {
        expect(await readText(fd)).toEqual({ text: text.replace(/^\ufeff/, ''), printable });
      } finally {
        closeSync(fd);
      }
    }
  });
});

describe('readText where address space is short', () => {
  it('reads a pipe whole when no room can be reserved past its length, moving it by doubling', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stdio-'));
    // A low `ulimit -v` makes V8 refuse a resizable buffer's reservation (a RangeError, measured
    // with Node 20 between ≈720 and ≈790 MB): every reservation past its length is refused here.
    const preload = path.join(dir, 'short.cjs');
    const counts = path.join(dir, 'counts.json');
    writeFileSync(
      preload,
      `const Plain = ArrayBuffer, made = { refused: 0, made: 0 };
globalThis.ArrayBuffer = new Proxy(Plain, {
  construct(target, args, newTarget) {
    const max = args[1] && args[1].maxByteLength;
    if (max > args[0]) { made.refused++; throw new RangeError('Array buffer allocation failed'); }
    if (max !== undefined) made.made++;
    return Reflect.construct(target, args, newTarget);
  },
});
process.on('exit', () => require('node:fs').writeFileSync(process.env.COUNTS, JSON.stringify(made)));
`,
    );
    const padding = Array.from(
      { length: 4_000 },
      (_, i) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${'x'.repeat(200)}"\n`,
    );
    const input = resourceList([
      externalSecret('db'),
      deployment('app', envFrom('db')),
      ...padding,
    ]);
    const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
    // spawnSync's input reaches the child through a pipe, whose size is not known in advance.
    const run = (args: string[]) =>
      spawnSync(process.execPath, [...args, cli], {
        input,
        env: { ...process.env, COUNTS: counts },
        maxBuffer: 1 << 26,
      });
    const short = run(['--require', preload]);
    expect(short.stderr.toString()).toBe('');
    expect(short.status).toBe(0);
    expect(short.stdout.toString()).toBe(run([]).stdout.toString());
    const { refused, made } = JSON.parse(readFileSync(counts, 'utf8'));
    expect(refused).toBeGreaterThan(0);
    // ≈1 MB from 64 KiB: doubled, not grown by each read's bytes (linear, not quadratic).
    expect(input.length).toBeGreaterThan(16 * 65_536);
    expect(made).toBeLessThanOrEqual(Math.ceil(Math.log2(input.length / 65_536)) + 2);
  });
});

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

describe('the command when stdout goes away', () => {
  const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
  // Items no rule reads: quick to pass through, and far more output than a pipe holds.
  const item = (i: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${'x'.repeat(100)}"\n`;
  const big = Array.from({ length: 20_000 }, (_, i) => item(i)).join('---\n');

  it('a reader that stops early (| head): no message, exit 141 as cat shows', async () => {
    const child = spawn(process.execPath, [cli], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // The reader takes the first chunk and closes its end, as `head -c 100` does.
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.on('error', () => {});
    child.stdin.end(big);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    expect(stderr).toBe('');
    expect([code, signal]).toEqual([brokenPipeStatus, null]);
  });

  it('in a shell pipeline, as cat: status 141, nothing on stderr', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-')), 'big.yaml');
    writeFileSync(file, big);
    const out = spawnSync(
      'bash',
      [
        '-c',
        `"$0" "$1" < "$2" | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`,
        process.execPath,
        cli,
        file,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(`${brokenPipeStatus}\n`);
  });

  it('stdout closed before the run (>&-): one line, exit 1; >/dev/null still discards quietly', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-')), 'small.yaml');
    writeFileSync(file, item(0));
    for (const command of ['', 'plan', 'check', 'argocd-health', '--version']) {
      const shell = (redirect: string) =>
        spawnSync(
          'sh',
          ['-c', `"$0" "$1" ${command} < "$2" ${redirect}`, process.execPath, cli, file],
          {
            encoding: 'utf8',
          },
        );
      const closed = shell('>&-');
      expect(closed.stderr, command).toBe(
        'secret-rollout: stdout is closed, the output would be lost (to discard it: >/dev/null)\n',
      );
      expect(closed.status, command).toBe(1);
      const discarded = shell('>/dev/null');
      expect(discarded.stderr, command).toBe('');
      expect(discarded.status, command).toBe(0);
    }
  });
});
