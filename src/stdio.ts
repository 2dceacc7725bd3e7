// The process's standard streams: all of stdin as UTF-8 text, and text written to stdout or
// stderr in pieces. main.ts's I/O, kept apart so it stays the thin entry point.
import { isAscii, isUtf8 } from 'node:buffer';
import { fstatSync, lstatSync, readSync, statSync, writeSync } from 'node:fs';

/**
 * Text read from stdin, and whether it is printable ASCII and line feeds only (printableAscii),
 * which its bytes tell for a third of what a scan of the text costs.
 */
export interface StdinText {
  text: string;
  printable: boolean;
}

/**
 * All of stdin as text: UTF-8 without a byte order mark, or undefined if invalid. Its bytes are
 * given back to the system as soon as the text is made, not at V8's next collection: the input
 * is held twice only while it is decoded (ARCHITECTURE.md Memory).
 */
export async function readText(fd = 0): Promise<StdinText | undefined> {
  const bytes = await readStdin(fd);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  // ASCII (the usual manifest) is valid UTF-8 and latin1 too: copied, not decoded, and not
  // checked a second time.
  const ascii = isAscii(body);
  const text = ascii ? body.toString('latin1') : isUtf8(body) ? body.toString('utf8') : undefined;
  const printable = ascii && printableAscii(body);
  (bytes.buffer as Resizable).resize(0);
  return text === undefined ? undefined : { text, printable };
}

/** ES2024's resizable ArrayBuffer (Node 20 has it), which the ES2022 lib does not declare. */
interface Resizable extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(length: number): void;
}
const Resizable = ArrayBuffer as unknown as new (
  length: number,
  options: { maxByteLength: number },
) => Resizable;

/** The room a pipe's bytes grow in, in place, before they are moved to a larger one. */
const pipeReserve = 1 << 26;

/**
 * `length` bytes that may grow in place to `max`; only to `length` where the address space for
 * `max` cannot be reserved (a low `ulimit -v`: V8 throws a RangeError), so growth moves instead.
 */
function reserve(length: number, max: number): Resizable {
  try {
    return new Resizable(length, { maxByteLength: max });
  } catch (error) {
    if (!(error instanceof RangeError) || max === length) throw error;
    return new Resizable(length, { maxByteLength: length });
  }
}

/**
 * All of stdin, in one resizable ArrayBuffer (the Buffer views it): a pipe's bytes grow it in
 * place, within address space reserved but not resident until written, so no chunks are joined
 * into a second copy (kpt pipes its input: three copies at once with the text, two now); past
 * the reserve they move to one four times as large, the old freed at once. Read with blocking
 * reads (a slow writer is waited for), which spares loading Node's streams at start-up; a
 * non-blocking stdin (EAGAIN) is read on as a stream. `fd`: another to read instead (tests).
 */
export async function readStdin(fd = 0): Promise<Buffer> {
  // A file's size is known: one read into room of that size (+1 to see the end).
  let size = 0;
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) size = stat.size + 1;
  } catch {}
  let store = reserve(size || 1 << 16, size || pipeReserve);
  let filled = 0;
  /** Room for `more` bytes past those read: at least doubled, so each byte moves O(1) times. */
  const room = (more: number) => {
    const needed = filled + more;
    if (needed <= store.byteLength) return;
    const wanted = Math.max(needed, 2 * store.byteLength);
    if (needed <= store.maxByteLength) {
      store.resize(Math.min(store.maxByteLength, wanted));
      return;
    }
    const next = reserve(wanted, 4 * wanted);
    new Uint8Array(next).set(new Uint8Array(store, 0, filled));
    store.resize(0);
    store = next;
  };
  try {
    for (;;) {
      room(1);
      const n = readSync(fd, new Uint8Array(store, filled), 0, store.byteLength - filled, null);
      if (n === 0) break;
      filled += n;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EAGAIN' && code !== 'EOF') throw error;
    if (code === 'EAGAIN') {
      for await (const chunk of process.stdin) {
        room((chunk as Buffer).length);
        new Uint8Array(store).set(chunk as Buffer, filled);
        filled += (chunk as Buffer).length;
      }
    }
  }
  return Buffer.from(store, 0, filled);
}

/**
 * Whether ASCII `bytes` hold printable characters and line feeds only: no tab, CR, other control
 * character or DEL, which the YAML reader's quick reader declines and would otherwise look for
 * in the text (krm/read.ts), with one regular expression over all of it. Read as int32 words
 * from a copy, 64 KiB at a time: an Int32Array on stdin's resizable buffer is read by V8's
 * slower generic code (Node 20), which cost as much as the regular expression.
 */
export function printableAscii(bytes: Uint8Array): boolean {
  const chunk = new Int32Array(1 << 14);
  const room = new Uint8Array(chunk.buffer);
  // Whole rounds of printableWords, the rest byte by byte.
  const whole = bytes.length & ~15;
  for (let at = 0; at < whole; at += room.length) {
    const n = Math.min(room.length, whole - at);
    room.set(bytes.subarray(at, at + n));
    if (!printableWords(chunk, n >> 2)) return false;
  }
  for (let i = whole; i < bytes.length; i++) if (!printableByte(bytes[i] as number)) return false;
  return true;
}

/**
 * Whether the first `n` words of `words` (a multiple of 4), ASCII, are printable or line feeds.
 * Sixteen bytes a round: ASCII bytes (below 0x80) carry nothing into each other when 0x01, 0x60
 * or 0x7F is added to each, so a byte's high bit after the sums says what it is. In `y`, a word
 * with each line feed made 0, a control character other than it is 1…0x1F (+0x7F sets its high
 * bit, +0x60 does not); DEL + 1 sets it. Written out four times: the run's optimising compiler
 * inlines no call (main.ts), and a call per word cost three times the scan.
 */
function printableWords(words: Int32Array, n: number): boolean {
  const lf = 0x0a0a0a0a;
  for (let w = 0; w < n; w += 4) {
    const a = words[w] as number;
    const b = words[w + 1] as number;
    const c = words[w + 2] as number;
    const d = words[w + 3] as number;
    const ya = a ^ lf;
    const yb = b ^ lf;
    const yc = c ^ lf;
    const yd = d ^ lf;
    const bad =
      (((ya + 0x7f7f7f7f) | 0) & ~((ya + 0x60606060) | 0)) |
      ((a + 0x01010101) | 0) |
      (((yb + 0x7f7f7f7f) | 0) & ~((yb + 0x60606060) | 0)) |
      ((b + 0x01010101) | 0) |
      (((yc + 0x7f7f7f7f) | 0) & ~((yc + 0x60606060) | 0)) |
      ((c + 0x01010101) | 0) |
      (((yd + 0x7f7f7f7f) | 0) & ~((yd + 0x60606060) | 0)) |
      ((d + 0x01010101) | 0);
    if ((bad & 0x80808080) !== 0) return false;
  }
  return true;
}

/** A printable ASCII character or a line feed. */
const printableByte = (b: number) => (b < 0x20 ? b === 0x0a : b < 0x7f);

/**
 * How much text write() encodes at a time. Its buffer is three times that (UTF-8): 256 KiB keeps
 * it under a megabyte of resident memory, and 10k items still take about 60 writes.
 */
export const writeSlice = 1 << 18;

/**
 * The exit status when the reader of stdout goes away before all is written (EPIPE): 128 +
 * SIGPIPE, what a shell shows for `cat` or `kubectl` there, which die of the signal. Node ignores
 * SIGPIPE, so the status is set instead, and nothing is printed: the reader chose to stop.
 */
export const brokenPipeStatus = 141;

/**
 * Writes the pieces (or one text) in order through one reused buffer, writeSlice of text at a
 * time: neither the whole output nor its bytes are held at once, and the many small pieces (the
 * lines an edit inserts, the results) are gathered into few writes. Each piece is dropped from
 * the list once in the buffer. Synchronous unless the fd is non-blocking (EAGAIN), when the rest
 * goes to the stream. False when the reader has gone (EPIPE): the rest is not written.
 */
export function write(fd: number, pieces: string | string[]): boolean {
  const all = typeof pieces === 'string' ? [pieces] : pieces;
  const chunk = writeSlice;
  let total = 0;
  for (const piece of all) total += piece.length;
  // UTF-8 takes at most 3 bytes per UTF-16 code unit (+3: a surrogate pair kept whole).
  const buffer = Buffer.allocUnsafe(3 * Math.min(chunk, total) + 3);
  let used = 0;
  /** Writes the buffer: `stream` when the fd would block (what is left of it went to the stream). */
  const flush = (): 'written' | 'stream' | 'gone' => {
    let done = 0;
    try {
      while (done < used) done += writeSync(fd, buffer, done, used - done);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return 'gone';
      if (code !== 'EAGAIN') throw error;
      streamOf(fd).write(Buffer.from(buffer.subarray(done, used)));
      return 'stream';
    }
    used = 0;
    return 'written';
  };
  for (let p = 0; p < all.length; p++) {
    const text = all[p] as string;
    all[p] = '';
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + chunk, text.length);
      // Never between the two halves of a surrogate pair: each half alone would become U+FFFD.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
      if (used + 3 * (end - start) > buffer.length) {
        const flushed = flush();
        if (flushed === 'gone') return false;
        if (flushed === 'stream') {
          streamOf(fd).write(text.slice(start));
          for (const rest of all.slice(p + 1)) streamOf(fd).write(rest);
          return true;
        }
      }
      used += buffer.write(text.slice(start, end), used, 'utf8');
      start = end;
    }
  }
  return flush() !== 'gone';
}

/** Whether some output went to a stream (streamOf), which may still be writing it. */
let streamed = false;

/**
 * Whether everything write() was given is written: nothing was left to a stream. The process may
 * then exit at once (main.ts), without waiting for the event loop to end.
 */
export function allWritten(): boolean {
  return !streamed;
}

/**
 * The stream of a non-blocking fd, with an error listener: without one, an EPIPE the stream meets
 * later would end the process with a stack trace.
 */
function streamOf(fd: number): NodeJS.WriteStream {
  streamed = true;
  const stream = fd === 2 ? process.stderr : process.stdout;
  if (stream.listenerCount('error') === 0) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') {
        if (fd === 1) process.exitCode = brokenPipeStatus;
        return;
      }
      process.exitCode = 1;
      if (fd === 1) writeSync(2, `secret-rollout: cannot write stdout: ${error.code}\n`);
    });
  }
  return stream;
}

/**
 * Whether stdout was closed when the process started (`>&-`): Node.js then opens /dev/null
 * read-write in its place, and the output would vanish with exit 0. A shell's `>/dev/null` opens
 * it write-only, so that still discards quietly; a read-write /dev/null given by a parent (Python's
 * subprocess.DEVNULL, Node's `stdio: 'ignore'`) looks the same and is refused too. Only Linux says
 * how an fd was opened (/proc/self/fd); elsewhere a closed stdout goes unnoticed.
 */
export function stdoutClosed(): boolean {
  try {
    const stat = fstatSync(1);
    if (!stat.isCharacterDevice() || stat.rdev !== statSync('/dev/null').rdev) return false;
    // The access mode, as the mode bits of /proc's link to the fd (0o400 readable, 0o200
    // writable): one lstat, where reading /proc/self/fdinfo/1's flags costs ≈0.4 ms at start.
    return (lstatSync('/proc/self/fd/1').mode & 0o600) === 0o600;
  } catch {
    return false;
  }
}
