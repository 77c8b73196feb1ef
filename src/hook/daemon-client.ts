/**
 * [R-HOOK-4] The Node client of the warm path: `hookwerk hook` hands its call to a running
 * `hookwerk daemon` (so machines without a C compiler get warm answers too). Any failure —
 * nothing listening, a malformed or incomplete reply, the daemon dying mid-call — is no reply,
 * and the caller decides in its own process: a lost daemon costs one cold call, never an answer.
 * Whether anything listened at all is told apart: only then may the caller start a daemon
 * [G-WARM-1]; and so is a connection closed before any reply byte (a daemon dying as it
 * accepted, or one dropping the call), which starts one only when the lock names a process
 * that has exited. The same connection carries `hookwerk daemon status|stop`.
 */
import { connect, type Socket } from 'node:net';
import { errorCode } from '../core/errno.ts';
import type { HookReply } from '../dialects/agent/hook-agent.ts';
import {
  type ControlCommand,
  encodeControl,
  encodeRequest,
  replyReader,
  type WireReply,
  type WireRequest,
} from './daemon-wire.ts';

/**
 * The daemon's reply; `absent`: nothing listens on the socket; `dropped`: the connection closed
 * before any reply byte; `failed`: no (whole) reply otherwise; `refused`: whoever listens is not
 * a daemon this client believes [T-SELF-4] (nothing was sent).
 */
export type Exchange =
  | { kind: 'reply'; reply: WireReply }
  | { kind: 'absent' }
  | { kind: 'dropped' }
  | { kind: 'failed' }
  | { kind: 'refused'; why: string };

/**
 * Checks the peer once connected, before anything is sent: why it is refused, `{ gone: true }`
 * when the process that listened has exited (a daemon dying: as `dropped`), else undefined.
 */
export type PeerVerifier = (conn: Socket) => Promise<string | { gone: true } | undefined>;

/** Nothing listens there: no socket file, or one a killed daemon left. */
const ABSENT = new Set(['ENOENT', 'ECONNREFUSED']);

/** Sends `bytes` on a fresh connection (to a peer `verify` accepts) and reads the one reply. Never rejects. */
export function exchange(socket: string, bytes: Buffer, verify?: PeerVerifier): Promise<Exchange> {
  return new Promise((resolve) => {
    const reader = replyReader();
    let settled = false;
    let connected = false;
    let received = 0;
    const settle = (result: Exchange) => {
      if (settled) return;
      settled = true;
      conn.destroy();
      resolve(result);
    };
    const conn = connect(socket);
    conn.on('connect', () => {
      connected = true;
      if (verify === undefined) return;
      verify(conn).then(
        (why) =>
          why === undefined
            ? conn.end(bytes)
            : settle(typeof why === 'string' ? { kind: 'refused', why } : { kind: 'dropped' }),
        () => settle({ kind: 'failed' }),
      );
    });
    conn.on('error', (e) => {
      const code = errorCode(e);
      if (!connected && code !== undefined && ABSENT.has(code)) settle({ kind: 'absent' });
      else settle(connected && received === 0 ? { kind: 'dropped' } : { kind: 'failed' });
    });
    conn.on('close', () => settle(connected && received === 0 ? { kind: 'dropped' } : { kind: 'failed' }));
    conn.on('data', (chunk: Buffer) => {
      received += chunk.length;
      const state = reader.push(chunk);
      if (state.kind === 'error') settle({ kind: 'failed' });
      else if (state.kind === 'done') settle({ kind: 'reply', reply: state.value });
    });
    if (verify === undefined) conn.end(bytes);
  });
}

/** One hook call through the daemon: its reply, or why there is none. */
export async function askDaemon(
  socket: string,
  request: WireRequest,
  verify?: PeerVerifier,
): Promise<
  | { kind: 'reply'; reply: HookReply; final?: boolean }
  | { kind: 'absent' }
  | { kind: 'dropped' }
  | { kind: 'failed' }
  | { kind: 'refused'; why: string }
> {
  const bytes = encodeRequest(request);
  // Over the daemon's bounds (a huge environment): this process decides.
  if (bytes === undefined) return { kind: 'failed' };
  const result = await exchange(socket, bytes, verify);
  if (result.kind !== 'reply') return result;
  const { exitCode, stdout, stderr, final } = result.reply;
  return {
    kind: 'reply',
    reply: { exitCode, stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8') },
    // [T-MGD-3] A version 2 reply (the system daemon's) says whether it is the call's answer.
    ...(final !== undefined ? { final } : {}),
  };
}

/**
 * A control message [G-WARM-1]: the daemon's JSON text, or why there is none; sent only to a peer
 * `verify` accepts (`refused`: nothing was sent) [T-SELF-4].
 */
export async function askControl(
  socket: string,
  command: ControlCommand,
  verify?: PeerVerifier,
): Promise<
  | { kind: 'reply'; json: string }
  | { kind: 'absent' }
  | { kind: 'dropped' }
  | { kind: 'failed' }
  | { kind: 'refused'; why: string }
> {
  const result = await exchange(socket, encodeControl(command), verify);
  if (result.kind !== 'reply') return result;
  return { kind: 'reply', json: result.reply.stdout.toString('utf8') };
}
