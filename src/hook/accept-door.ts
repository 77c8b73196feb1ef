/**
 * [T-MGD-3] The system daemon's door: native/hookwerk-accept.c, started as root, binds the socket,
 * drops to the daemon's account, listens, and hands each connection over Node's own IPC channel
 * with the caller's credentials from the kernel (SO_PEERCRED). Node has no API for those; the door
 * writes Node's internal "send a handle" line itself, so Node's ChildProcess emits
 * `message` ({hookwerkPeer: {uid, gid, pid}}, socket). test/system-accept.test.ts runs that
 * protocol on the Node in use, so a Node that changes it fails there, not in production.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import { z } from 'zod';
import { ACCEPT_HELPER } from './daemon-peer.ts';
import type { Peer } from './daemon-server.ts';

const readySchema = z.object({ hookwerkAccept: z.literal('ready') });
const peerSchema = z.object({
  hookwerkPeer: z.object({
    uid: z.number().int().nonnegative(),
    gid: z.number().int().nonnegative(),
    pid: z.number().int().positive(),
  }),
});

export interface Door {
  readonly child: ChildProcess;
  /** Resolves once the door listens; rejects with its one-line reason when it could not start. */
  readonly ready: Promise<void>;
  /** Closes the channel: the door exits and the socket stops answering. */
  close(): void;
}

/**
 * Starts the door on `socket` for the account `uid:gid` (this process must still be root). Each
 * connection goes to `onConnection` with the kernel's credentials; a message without a socket, or
 * of another shape, is ignored (only the door writes on the channel).
 */
export function openDoor(
  socket: string,
  uid: number,
  gid: number,
  onConnection: (conn: Socket, peer: Peer) => void,
  onLine: (line: string) => void,
): Door {
  const child = spawn(ACCEPT_HELPER, [socket, String(uid), String(gid)], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
    env: {},
  });
  let said = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      if (said.length < 4096) said += `${line}\n`;
      onLine(line);
    }
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (msg: unknown, handle: unknown) => {
      if (readySchema.safeParse(msg).success) return resolve();
      const peer = peerSchema.safeParse(msg);
      if (!isSocket(handle)) return;
      if (!peer.success) {
        handle.destroy();
        return;
      }
      onConnection(handle, peer.data.hookwerkPeer);
    });
    child.on('error', (e) => reject(new Error(`the door (${ACCEPT_HELPER}) did not start: ${e.message}`)));
    child.on('exit', (code, signal) =>
      reject(
        new Error(
          said.trim().split('\n').at(-1) ??
            `the door exited (${signal ?? `exit ${code}`}) before it listened`,
        ),
      ),
    );
  });
  return {
    child,
    ready,
    close() {
      if (child.connected) child.disconnect();
    },
  };
}

/** Whether the door's program was built (no C compiler at install: it was not). */
export function doorBuilt(): boolean {
  return existsSync(ACCEPT_HELPER);
}

function isSocket(handle: unknown): handle is Socket {
  return handle instanceof Socket;
}
