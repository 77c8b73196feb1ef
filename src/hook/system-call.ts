/**
 * [T-MGD-3] A hook call asks the system daemon first, when `/run/hookwerk/daemon.sock` exists
 * (loaded only then): the socket must pass `system-socket.ts`, and its peer must be the door of this
 * installation running as the socket's owner (`checkSystemPeer`). A FINAL reply (the managed layer
 * denies) is the call's answer; any other outcome — a reply without FINAL, nothing listening, a
 * daemon dying, a refused socket (one note) — goes on to the user's path, which applies the
 * managed policy in-process (T-MGD-1): a system daemon that is down never opens anything.
 */
import type { HookReply } from '../dialects/agent/hook-agent.ts';
import { askDaemon } from './daemon-client.ts';
import { checkSystemPeer } from './daemon-peer.ts';
import type { SocketNote } from './daemon-refusal.ts';
import type { WireRequest } from './daemon-wire.ts';
import { SYSTEM_SOCKET } from './system-paths.ts';
import { checkSystemSocket } from './system-socket.ts';

export type SystemAnswer = { kind: 'final'; reply: HookReply } | { kind: 'continue'; note?: SocketNote };

export async function askSystemDaemon(request: WireRequest): Promise<SystemAnswer> {
  const found = checkSystemSocket();
  if (found.state === 'none') return { kind: 'continue' };
  if (found.state === 'foreign')
    return { kind: 'continue', note: { socket: SYSTEM_SOCKET, kind: 'system-refused', why: found.why } };
  const asked = await askDaemon(SYSTEM_SOCKET, request, async (conn) => {
    const peer = await checkSystemPeer(conn, found.owner);
    if (peer.kind === 'ok') return undefined;
    if (peer.kind === 'gone') return { gone: true };
    // Unchecked is refused here: managed answers come only from a daemon the kernel vouched for.
    return peer.why;
  });
  if (asked.kind === 'refused')
    return { kind: 'continue', note: { socket: SYSTEM_SOCKET, kind: 'system-refused', why: asked.why } };
  if (asked.kind === 'reply' && asked.final === true) return { kind: 'final', reply: asked.reply };
  return { kind: 'continue' };
}
