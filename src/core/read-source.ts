import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { errorCode, errorMessage } from './errno.ts';

/**
 * What reading a source gave. `message` is one line whose subject is the file, e.g.
 * `is a FIFO, not a regular file`: callers put the file name (or "file") in front.
 */
export type SourceRead =
  | { kind: 'missing' }
  | { kind: 'text'; text: string }
  | { kind: 'refused'; message: string };

// O_NONBLOCK: opening a FIFO must not wait for a writer. O_NOCTTY: opening a terminal must not
// make it ours. Symlinks are followed, as they are for any source.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const CHUNK_BYTES = 64 * 1024;

/**
 * [L-TRUST-4] Reads `file` as UTF-8 only if it is a regular file (after symlinks) of at most
 * `maxBytes`. Anything else is refused at once: nothing here blocks, reads past `maxBytes + 1`
 * bytes, or throws. A file that does not exist (or whose folder does not) is `missing`.
 */
export function readSourceFile(file: string, maxBytes: number): SourceRead {
  // A stat first, so that a device is refused without being opened (opening some has effects);
  // the fstat after open is the check that counts, as the path may change in between.
  const early = checkPath(file, maxBytes);
  if (early !== undefined) return early;
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    return fromError(err);
  }
  try {
    const refused = checkStats(fstatSync(fd), maxBytes);
    return refused ?? readBounded(fd, maxBytes);
  } catch (err) {
    return fromError(err);
  } finally {
    closeQuietly(fd);
  }
}

/** A failed close of a read-only fd loses nothing; it must not turn a good read into a throw. */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // nothing to do
  }
}

function checkPath(file: string, maxBytes: number): SourceRead | undefined {
  try {
    return checkStats(statSync(file), maxBytes);
  } catch (err) {
    return fromError(err);
  }
}

function checkStats(stats: Stats, maxBytes: number): SourceRead | undefined {
  if (!stats.isFile()) return { kind: 'refused', message: `is ${describe(stats)}, not a regular file` };
  if (stats.size > maxBytes) return tooLarge(stats.size, maxBytes);
  return undefined;
}

/** Reads until end of file, but never more than `maxBytes + 1` bytes: one more shows the file grew. */
function readBounded(fd: number, maxBytes: number): SourceRead {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const room = maxBytes + 1 - total;
    if (room <= 0)
      return {
        kind: 'refused',
        message: `grew past ${maxBytes} bytes while being read; the limit is ${maxBytes}`,
      };
    const chunk = Buffer.allocUnsafe(Math.min(room, CHUNK_BYTES));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  // Buffer decoding keeps a byte-order mark, as readFileSync(file, 'utf8') did.
  return { kind: 'text', text: Buffer.concat(chunks, total).toString('utf8') };
}

function tooLarge(size: number, maxBytes: number): SourceRead {
  return { kind: 'refused', message: `is ${size} bytes; the limit is ${maxBytes}` };
}

/** What a file that is not a regular one is, for a one-line refusal: `a FIFO`, `a directory`… */
export function describe(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'a special file';
}

function fromError(err: unknown): SourceRead {
  const code = errorCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  return { kind: 'refused', message: `cannot be read: ${reason(err, code)}` };
}

/** `ELOOP: too many symbolic links encountered, open '/x'` → `too many symbolic links encountered (ELOOP)`. */
function reason(err: unknown, code: string | undefined): string {
  const text = errorMessage(err);
  const m = /^[A-Z0-9]+: ([^,\n]+)/.exec(text);
  if (m !== null && code !== undefined) return `${m[1]} (${code})`;
  return text.split('\n')[0]!;
}
