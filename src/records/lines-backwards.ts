import { readSync } from 'node:fs';

/** Bytes read at a time, from the end of a file backwards. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The complete lines of the first `size` bytes of `fd`, last first, reading backwards a chunk at
 * a time (a reader that wants the newest few never reads the whole file). A last line without
 * its newline (a write in progress, or torn) is left out; a line over `maxLine` bytes comes as
 * `undefined`, unread.
 */
export function* linesBackwards(fd: number, size: number, maxLine: number): Generator<Buffer | undefined> {
  let pos = size;
  // The line being assembled, its later pieces first (read backwards).
  let pieces: Buffer[] = [];
  let pending = 0;
  let tooLong = false;
  // Until the first newline from the end is seen, what was read is the unfinished last line.
  let inTail = true;
  const add = (piece: Buffer): void => {
    if (tooLong || piece.length === 0) return;
    pending += piece.length;
    if (pending > maxLine) {
      tooLong = true;
      pieces = [];
    } else pieces.push(piece);
  };
  const take = (): Buffer | undefined => {
    const line = tooLong ? undefined : Buffer.concat(pieces.reverse(), pending);
    pieces = [];
    pending = 0;
    tooLong = false;
    return line;
  };
  while (pos > 0) {
    const len = Math.min(CHUNK_BYTES, pos);
    pos -= len;
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = readSync(fd, buf, got, len - got, pos + got);
      if (n === 0) break;
      got += n;
    }
    let end = got;
    while (end > 0) {
      const nl = buf.lastIndexOf(0x0a, end - 1);
      if (nl < 0) break;
      add(buf.subarray(nl + 1, end));
      if (inTail) {
        inTail = false;
        take();
      } else yield take();
      end = nl;
    }
    add(buf.subarray(0, end));
  }
  // The file's first line (it ended at a newline unless the file has none at all).
  if (!inTail && (pending > 0 || tooLong)) yield take();
}
