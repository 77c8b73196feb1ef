/**
 * The launcher protocol [X-PROC-1]: length-prefixed frames over the launcher's stdin (requests)
 * and stdout (events). Shared by the engine's client, the C launcher (native/hookwerk-launcher.c,
 * which documents the layout) and the Node launcher.
 *
 * Frame: u32 length (little endian, of what follows), u8 type, payload. A SPAWN request carries
 * its strings as one block of NUL-terminated strings; in events, strings are u32 length + bytes.
 * SPAWN flags: 1 stdin bytes follow, 2 a payload file follows, 4 the run keeps its children (the
 * launcher does not kill what is left of it once its main process exited, see the C file).
 * Both launchers take the engine's pid as their argument, and exit at once if it is not their
 * parent any more.
 */

import type { SpawnRequest } from './spawn-backend.ts';

export const REQ_SPAWN = 1;
export const REQ_DETACH = 2;
export const REQ_SIGNAL = 3;
export const EVT_STARTED = 101;
export const EVT_FAILED = 102;
export const EVT_STDOUT = 103;
export const EVT_STDERR = 104;
export const EVT_EXIT = 105;
export const EVT_EOF = 106;

const SPAWN_STDIN = 1;
const SPAWN_PAYLOAD = 2;
const SPAWN_KEEP_CHILDREN = 4;

/** Frames longer than this are a broken stream, not a message. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

interface SpawnFrame {
  id: number;
  /** `cgroup.procs` of the run's cgroup: the child joins it before exec; empty for none. */
  cgroupProcs: string;
  cwd: string;
  argv: readonly string[];
  env: readonly string[];
  stdin?: Buffer;
  /** [P-PAY-2] Written by the launcher before the start, removed once the process has exited. */
  payloadFile?: { path: string; bytes: Buffer };
  /** [X-PROC-2] What it leaves may outlive it. */
  keepChildren: boolean;
}

export type LauncherEvent =
  | { type: 'started'; id: number; pid: number }
  | { type: 'failed'; id: number; errno: number; stage: string }
  | { type: 'stdout' | 'stderr'; id: number; data: Buffer }
  | { type: 'exit'; id: number; code: number | null; signal: number | null; leftAlive: boolean }
  | { type: 'eof'; id: number; stream: 'stdout' | 'stderr' };

/** SPAWN header: length, type, id, flags, argc, envc, text, stdin and payload byte counts. */
const SPAWN_HEADER_BYTES = 4 + 1 + 7 * 4;

/**
 * Encodes a spawn request into one buffer. It is built on the agent's event loop for every hook
 * run, so the strings go in as one NUL-separated text block: one UTF-8 write instead of a
 * length and a write per string (each a call into C++, which cost µs when caches are cold).
 */
export function encodeSpawn(id: number, req: SpawnRequest): Buffer {
  let text = `${req.cgroupProcs ?? ''}\0${req.cwd}\0${req.command}\0`;
  const args = req.args;
  for (let i = 0; i < args.length; i++) text += `${args[i]}\0`;
  let envCount = 0;
  const env = req.env;
  for (const name in env) {
    text += `${name}=${env[name] ?? ''}\0`;
    envCount++;
  }
  const payload = req.payloadFile;
  if (payload !== undefined) text += `${payload.path}\0`;
  const stdin = req.stdin;
  const textBytes = Buffer.byteLength(text);
  const stdinBytes =
    stdin === undefined ? 0 : typeof stdin === 'string' ? Buffer.byteLength(stdin) : stdin.length;
  const payloadBytes = payload === undefined ? 0 : Buffer.byteLength(payload.text);
  const size = SPAWN_HEADER_BYTES + textBytes + stdinBytes + payloadBytes;
  const b = Buffer.allocUnsafe(size);
  b.writeUInt32LE(size - 4, 0);
  b[4] = REQ_SPAWN;
  b.writeUInt32LE(id >>> 0, 5);
  b.writeUInt32LE(
    (stdin !== undefined ? SPAWN_STDIN : 0) |
      (payload !== undefined ? SPAWN_PAYLOAD : 0) |
      (req.keepChildren === true ? SPAWN_KEEP_CHILDREN : 0),
    9,
  );
  b.writeUInt32LE(1 + args.length, 13);
  b.writeUInt32LE(envCount, 17);
  b.writeUInt32LE(textBytes, 21);
  b.writeUInt32LE(stdinBytes, 25);
  b.writeUInt32LE(payloadBytes, 29);
  let off = SPAWN_HEADER_BYTES + b.write(text, SPAWN_HEADER_BYTES);
  if (stdin !== undefined) off += typeof stdin === 'string' ? b.write(stdin, off) : stdin.copy(b, off);
  if (payload !== undefined) b.write(payload.text, off);
  return b;
}

/** Asks the launcher to signal a run's process group (by id: the engine may not know its pid yet). */
export function encodeSignal(id: number, signal: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeUInt32LE(id >>> 0, 0);
  b.writeInt32LE(signal, 4);
  return frame(REQ_SIGNAL, b);
}

export function encodeDetach(id: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(id >>> 0, 0);
  return frame(REQ_DETACH, b);
}

/** An event frame (used by the Node launcher, which speaks the C launcher's protocol). */
export function encodeEvent(ev: LauncherEvent): Buffer {
  const id = Buffer.allocUnsafe(4);
  id.writeUInt32LE(ev.id >>> 0, 0);
  const i32 = (n: number) => {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32LE(n, 0);
    return b;
  };
  switch (ev.type) {
    case 'started':
      return frame(EVT_STARTED, Buffer.concat([id, i32(ev.pid)]));
    case 'failed': {
      const stage = Buffer.from(ev.stage, 'utf8');
      return frame(EVT_FAILED, Buffer.concat([id, i32(ev.errno), i32(stage.length), stage]));
    }
    case 'stdout':
    case 'stderr':
      return frame(ev.type === 'stdout' ? EVT_STDOUT : EVT_STDERR, Buffer.concat([id, ev.data]));
    case 'exit':
      return frame(
        EVT_EXIT,
        Buffer.concat([id, i32(ev.code ?? -1), i32(ev.signal ?? 0), i32(ev.leftAlive ? 1 : 0)]),
      );
    case 'eof':
      return frame(EVT_EOF, Buffer.concat([id, Buffer.from([ev.stream === 'stdout' ? 1 : 2])]));
  }
}

function frame(type: number, payload: Buffer): Buffer {
  const head = Buffer.allocUnsafe(5);
  head.writeUInt32LE(payload.length + 1, 0);
  head.writeUInt8(type, 4);
  return Buffer.concat([head, payload]);
}

/** One complete frame: its type, and its payload as `buf[start, end)` (valid during the call). */
type FrameHandler = (type: number, buf: Buffer, start: number, end: number) => void;

const EMPTY = Buffer.alloc(0);

/** Splits a byte stream into frames, keeping an incomplete one for the next chunk. */
export class FrameReader {
  #rest: Buffer = EMPTY;

  /**
   * Calls `onFrame` for each frame that `chunk` completes, in place (no copy, no object per frame:
   * the engine reads one chunk per hook run on its event loop). Throws on a length no frame can have.
   */
  each(chunk: Buffer, onFrame: FrameHandler): void {
    const buf = this.#rest.length === 0 ? chunk : Buffer.concat([this.#rest, chunk]);
    let off = 0;
    while (buf.length - off >= 4) {
      const len = buf.readUInt32LE(off);
      if (len === 0 || len > MAX_FRAME_BYTES) throw new Error(`launcher stream: frame length ${len}`);
      if (buf.length - off - 4 < len) break;
      onFrame(buf[off + 4] ?? 0, buf, off + 5, off + 4 + len);
      off += 4 + len;
    }
    this.#rest = off === buf.length ? EMPTY : buf.subarray(off);
  }

  /** The frames completed by `chunk`, as `[type, payload]` (the Node launcher and tests). */
  push(chunk: Buffer): Array<[number, Buffer]> {
    const out: Array<[number, Buffer]> = [];
    this.each(chunk, (type, buf, start, end) => out.push([type, buf.subarray(start, end)]));
    return out;
  }
}

/** Reads a spawn request (Node launcher side); throws on a malformed one (a NUL in a string included). */
export function decodeSpawn(p: Buffer): SpawnFrame {
  if (p.length < SPAWN_HEADER_BYTES - 5) throw new Error('launcher stream: short spawn request');
  const id = p.readUInt32LE(0);
  const flags = p.readUInt32LE(4);
  const argc = p.readUInt32LE(8);
  const envc = p.readUInt32LE(12);
  const textBytes = p.readUInt32LE(16);
  const stdinBytes = p.readUInt32LE(20);
  const payloadBytes = p.readUInt32LE(24);
  const start = SPAWN_HEADER_BYTES - 5;
  if (p.length !== start + textBytes + stdinBytes + payloadBytes) {
    throw new Error('launcher stream: spawn request sizes do not add up');
  }
  const fields = p.toString('utf8', start, start + textBytes).split('\0');
  const hasPayload = (flags & SPAWN_PAYLOAD) !== 0;
  // Every string ends with a NUL, so the split leaves one empty string after the last.
  if (argc === 0 || fields.length !== 2 + argc + envc + (hasPayload ? 1 : 0) + 1 || fields.at(-1) !== '') {
    throw new Error('launcher stream: spawn request strings do not match their counts');
  }
  const req: SpawnFrame = {
    id,
    cgroupProcs: fields[0] ?? '',
    cwd: fields[1] ?? '',
    argv: fields.slice(2, 2 + argc),
    env: fields.slice(2 + argc, 2 + argc + envc),
    keepChildren: (flags & SPAWN_KEEP_CHILDREN) !== 0,
  };
  const bytesAt = start + textBytes;
  if ((flags & SPAWN_STDIN) !== 0) req.stdin = Buffer.from(p.subarray(bytesAt, bytesAt + stdinBytes));
  if (hasPayload) {
    const at = bytesAt + stdinBytes;
    req.payloadFile = {
      path: fields[2 + argc + envc] ?? '',
      bytes: Buffer.from(p.subarray(at, at + payloadBytes)),
    };
  }
  return req;
}
