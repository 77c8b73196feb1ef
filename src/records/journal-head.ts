/**
 * [T-SELF-3] The chain's head: where hookwerk's last append ended (segment and size) and the hash
 * of its last record, kept in `chain-head` beside the segments. It spares the writer a read of
 * the segment on every append, and it tells the writer (and `runs --verify`) when bytes it did not
 * write were added after it, or its own were taken away. A cache, not a proof: missing, broken
 * or hostile, it is ignored and the segment's tail is read instead. One fixed-width line,
 * rewritten in place under the lock (no rename: an append stays a few syscalls); a head that is
 * not a regular file, or has another name too (a hard link to a file of the user's, which an
 * in-place write would damage), is never written. No zod: the hook path loads this [R-HOOK-4].
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isErrno } from '../core/errno.ts';

export const HEAD_NAME = 'chain-head';

export interface ChainHead {
  seq: number;
  size: number;
  hash: string;
}

/** An open head: read it, then write the new one in place. */
export interface HeadFile {
  head: ChainHead | undefined;
  write(head: ChainHead): void;
  close(): void;
}

const FORMAT = /^(\d{15}) (\d{16}) ([0-9a-f]{64})\n$/;
const LENGTH = 15 + 1 + 16 + 1 + 64 + 1;
const SAFE = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The head of the journal in `dir`, or undefined when there is none worth believing. */
export function readHead(dir: string): ChainHead | undefined {
  const file = openHead(dir, false);
  if (file === undefined) return undefined;
  file.close();
  return file.head;
}

/**
 * Opens the head of `dir` to read and (with `create`) to write; undefined when it cannot be
 * used: missing (and not to be made), not a regular file, or hard-linked elsewhere.
 */
export function openHead(dir: string, create: boolean): HeadFile | undefined {
  let fd: number;
  try {
    fd = openSync(
      path.join(dir, HEAD_NAME),
      (create ? constants.O_RDWR | constants.O_CREAT : constants.O_RDONLY) | SAFE,
      0o600,
    );
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ELOOP') || isErrno(err, 'EISDIR') || isErrno(err, 'ENXIO'))
      return undefined;
    throw err;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile() || stats.nlink !== 1) {
    closeSync(fd);
    return undefined;
  }
  const buf = Buffer.alloc(LENGTH + 1);
  const n = readSync(fd, buf, 0, buf.length, 0);
  const m = FORMAT.exec(buf.toString('latin1', 0, n));
  const head = m === null ? undefined : { seq: Number(m[1]), size: Number(m[2]), hash: m[3] ?? '' };
  return {
    head,
    write: (next) => {
      const line = `${String(next.seq).padStart(15, '0')} ${String(next.size).padStart(16, '0')} ${next.hash}\n`;
      // Same length every time: the new line covers the old one whole.
      writeSync(fd, line, 0, 'latin1');
      if (stats.size > LENGTH) ftruncateSync(fd, LENGTH);
    },
    close: () => closeSync(fd),
  };
}
