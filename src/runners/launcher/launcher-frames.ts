/**
 * The launcher protocol [X-PROC-1]: length-prefixed frames over the launcher's stdin (requests)
 * and stdout (events). Shared by the engine's client, the C launcher (native/hookwerk-launcher.c,
 * which documents the layout) and the Node launcher.
 *
 * Frame: u32 length (little endian, of what follows), u8 type, payload; strings are u32 length + bytes.
 */

import type { SpawnRequest } from '../spawn-backend.ts';

export const REQ_SPAWN = 1;
export const REQ_DETACH = 2;
export const EVT_STARTED = 101;
export const EVT_FAILED = 102;
export const EVT_STDOUT = 103;
export const EVT_STDERR = 104;
export const EVT_EXIT = 105;
export const EVT_EOF = 106;

/** Frames longer than this are a broken stream, not a message. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface SpawnFrame {
  id: number;
  /** `cgroup.procs` of the run's cgroup: the child joins it before exec; empty for none. */
  cgroupProcs: string;
  cwd: string;
  argv: readonly string[];
  env: readonly string[];
  stdin?: Buffer;
  /** [P-PAY-2] Written by the launcher before the start, removed once the process has exited. */
  payloadFile?: { path: string; bytes: Buffer };
}

export type LauncherEvent =
  | { type: 'started'; id: number; pid: number }
  | { type: 'failed'; id: number; errno: number; stage: string }
  | { type: 'stdout' | 'stderr'; id: number; data: Buffer }
  | { type: 'exit'; id: number; code: number | null; signal: number | null; leftAlive: boolean }
  | { type: 'eof'; id: number; stream: 'stdout' | 'stderr' };

/**
 * Encodes a spawn request in one pass into one buffer: it is built on the agent's event loop for
 * every hook run, so no intermediate strings (`NAME=value`) or buffers per field.
 */
export function encodeSpawn(id: number, req: SpawnRequest): Buffer {
  const stdin = req.stdin;
  const payload = req.payloadFile;
  const cgroup = req.cgroupProcs ?? '';
  let size = 5 + 4 + 4 + 4 + Buffer.byteLength(cgroup) + 4 + Buffer.byteLength(req.cwd) + 4;
  size += 4 + Buffer.byteLength(req.command);
  for (const a of req.args) size += 4 + Buffer.byteLength(a);
  size += 4;
  let envCount = 0;
  for (const name in req.env) {
    size += 4 + Buffer.byteLength(name) + 1 + Buffer.byteLength(req.env[name] ?? '');
    envCount++;
  }
  if (stdin !== undefined) size += 4 + Buffer.byteLength(stdin);
  if (payload !== undefined) size += 8 + Buffer.byteLength(payload.path) + Buffer.byteLength(payload.text);
  const b = Buffer.allocUnsafe(size);
  let off = b.writeUInt32LE(size - 4, 0);
  off = b.writeUInt8(REQ_SPAWN, off);
  off = b.writeUInt32LE(id >>> 0, off);
  off = b.writeUInt32LE((stdin !== undefined ? 1 : 0) | (payload !== undefined ? 2 : 0), off);
  const str = (text: string | Buffer): void => {
    const at = off;
    off += 4;
    off += typeof text === 'string' ? b.write(text, off) : text.copy(b, off);
    b.writeUInt32LE(off - at - 4, at);
  };
  str(cgroup);
  str(req.cwd);
  off = b.writeUInt32LE(1 + req.args.length, off);
  str(req.command);
  for (const a of req.args) str(a);
  off = b.writeUInt32LE(envCount, off);
  for (const name in req.env) {
    const at = off;
    off += 4;
    off += b.write(name, off);
    off = b.writeUInt8(0x3d, off); // '='
    off += b.write(req.env[name] ?? '', off);
    b.writeUInt32LE(off - at - 4, at);
  }
  if (stdin !== undefined) str(stdin);
  if (payload !== undefined) {
    str(payload.path);
    str(payload.text);
  }
  return b;
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

/** Splits a byte stream into frames; `push` returns the complete ones, keeps the rest. */
export class FrameReader {
  #buf: Buffer = Buffer.alloc(0);

  /** Frames completed by `chunk`, as `[type, payload]`; throws on a length no frame can have. */
  push(chunk: Buffer): Array<[number, Buffer]> {
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    const out: Array<[number, Buffer]> = [];
    let off = 0;
    while (this.#buf.length - off >= 4) {
      const len = this.#buf.readUInt32LE(off);
      if (len === 0 || len > MAX_FRAME_BYTES) throw new Error(`launcher stream: frame length ${len}`);
      if (this.#buf.length - off - 4 < len) break;
      out.push([this.#buf.readUInt8(off + 4), this.#buf.subarray(off + 5, off + 4 + len)]);
      off += 4 + len;
    }
    this.#buf = off === this.#buf.length ? Buffer.alloc(0) : this.#buf.subarray(off);
    return out;
  }
}

/** Reads an event frame. Throws on a malformed one (the stream is then unusable). */
export function decodeEvent(type: number, p: Buffer): LauncherEvent {
  const id = p.readUInt32LE(0);
  switch (type) {
    case EVT_STARTED:
      return { type: 'started', id, pid: p.readInt32LE(4) };
    case EVT_FAILED: {
      const n = p.readUInt32LE(8);
      return { type: 'failed', id, errno: p.readInt32LE(4), stage: p.subarray(12, 12 + n).toString('utf8') };
    }
    case EVT_STDOUT:
    case EVT_STDERR:
      return { type: type === EVT_STDOUT ? 'stdout' : 'stderr', id, data: p.subarray(4) };
    case EVT_EXIT: {
      const code = p.readInt32LE(4);
      const signal = p.readInt32LE(8);
      const leftAlive = p.length >= 16 ? p.readInt32LE(12) !== 0 : true;
      return {
        type: 'exit',
        id,
        code: code < 0 ? null : code,
        signal: signal === 0 ? null : signal,
        leftAlive,
      };
    }
    case EVT_EOF:
      return { type: 'eof', id, stream: p.readUInt8(4) === 1 ? 'stdout' : 'stderr' };
    default:
      throw new Error(`launcher stream: unknown event type ${type}`);
  }
}

/** Reads a spawn request (Node launcher side). */
export function decodeSpawn(p: Buffer): SpawnFrame {
  let off = 0;
  const u32 = () => {
    const v = p.readUInt32LE(off);
    off += 4;
    return v;
  };
  const bytes = () => {
    const n = u32();
    const b = p.subarray(off, off + n);
    if (b.length !== n) throw new Error('launcher stream: short string');
    off += n;
    return b;
  };
  const id = u32();
  const flags = u32();
  const cgroupProcs = bytes().toString('utf8');
  const cwd = bytes().toString('utf8');
  const argv = Array.from({ length: u32() }, () => bytes().toString('utf8'));
  const env = Array.from({ length: u32() }, () => bytes().toString('utf8'));
  const req: SpawnFrame = { id, cgroupProcs, cwd, argv, env };
  if ((flags & 1) !== 0) req.stdin = Buffer.from(bytes());
  if ((flags & 2) !== 0) {
    const file = bytes().toString('utf8');
    req.payloadFile = { path: file, bytes: Buffer.from(bytes()) };
  }
  return req;
}
