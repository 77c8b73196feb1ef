/**
 * (issue 31) Stdin read whole, bounded, in one place: `hookwerk hook`, `emit` and `decide`.
 * [G-PERF-1][R-HOOK-4] A lone `hookwerk hook` process's stdin is read straight from fd 0 when it is a
 * pipe, socket or file (what every agent gives): `process.stdin` would first load and set up
 * Node's stream machinery (net, streams, an async iterator: several ms of a cold call) to read a
 * few hundred bytes. A terminal, a device, or a pipe that would block (O_NONBLOCK set by whoever
 * shares it) goes on through `process.stdin`, as before, from where this stopped.
 */
import { fstatSync, readSync } from 'node:fs';
import { errorCode } from './errno.ts';

const CHUNK_BYTES = 64 * 1024;

/**
 * All of stdin, at most `max` bytes (`undefined`: more than that, as with the stream); an empty
 * buffer for a terminal (nobody pipes anything).
 */
export async function readStdinBytes(max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let direct = false;
  try {
    const st = fstatSync(0);
    direct = st.isFIFO() || st.isSocket() || st.isFile();
  } catch {
    direct = false;
  }
  if (direct) {
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK_BYTES);
      let n: number;
      try {
        n = readSync(0, buf, 0, CHUNK_BYTES, null);
      } catch (e) {
        const code = errorCode(e);
        if (code === 'EINTR') continue;
        if (code === 'EAGAIN') break; // the rest through the stream, which waits for it
        throw e;
      }
      if (n === 0) return Buffer.concat(chunks);
      size += n;
      if (size > max) return undefined;
      chunks.push(buf.subarray(0, n));
    }
  } else if (process.stdin.isTTY) {
    return Buffer.alloc(0);
  }
  for await (const chunk of process.stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > max) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
