/**
 * [T-SELF-4] The Node client's check of who listens on the daemon socket. Node has no API for a
 * Unix socket's peer credentials, so the connected socket is handed, as descriptor 3, to our own
 * small C program (native/hookwerk-peer.c, built beside the C client where `cc` exists), which
 * runs the C client's check (native/peer-verify.h): the peer runs as this account and is a
 * `hookwerk daemon` of this installation. A spawn costs some 2 ms, so a socket found good is
 * remembered for the rest of this process by its device and inode: a socket file stays bound to
 * the one listener that made it (a new listener needs a new file).
 *
 * Without the program (no C compiler at install), or on a platform without SO_PEERCRED, the
 * answer is `unchecked` with what could not be checked; the caller still uses the socket (its
 * owner and folder were checked) and says so once a day.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** This installation's CLI: what a daemon of it runs (`node <BIN> daemon …`). */
export const INSTALLED_BIN = fileURLToPath(new URL('../../bin/hookwerk.js', import.meta.url));
/** The same path from src/hook, dist/hook and dist/cli (the hook bundle). */
const HELPER = fileURLToPath(new URL('../../dist/native/hookwerk-peer', import.meta.url));

/** [T-MGD-3] This installation's door of the system daemon (native/hookwerk-accept.c). */
export const ACCEPT_HELPER = fileURLToPath(new URL('../../dist/native/hookwerk-accept', import.meta.url));

export type PeerCheck =
  | { kind: 'ok' }
  | { kind: 'refused'; why: string }
  | { kind: 'gone' }
  | { kind: 'unchecked'; why: string };

const verified = new Set<string>();

function socketKey(socket: string): string | undefined {
  try {
    const s = statSync(socket);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Who is at the other end of `conn` (connected to `socket`): this account's `hookwerk daemon` of
 * this installation (`ok`), someone else (`refused`, why), or it cannot be told (`unchecked`, why).
 * Never rejects. Nothing in the environment loosens it: a test's daemon is a real one [T-SELF-4].
 */
export function checkPeer(conn: Socket, socket: string): Promise<PeerCheck> {
  const key = socketKey(socket);
  if (key !== undefined && verified.has(key)) return Promise.resolve({ kind: 'ok' });
  const uid = process.geteuid?.();
  if (uid === undefined) return Promise.resolve({ kind: 'unchecked', why: 'this platform has no user ids' });
  return runPeerHelper(conn, [INSTALLED_BIN, String(uid)]).then((check) => {
    if (check.kind === 'ok' && key !== undefined) verified.add(key);
    return check;
  });
}

/**
 * [T-MGD-3] Who is at the other end of `conn`, on the system daemon's socket: the door of this
 * installation running as `ownerUid` (the socket's owner, the daemon's account — never the
 * caller's), child of `hookwerk daemon --system` of this installation as that account
 * (peer-verify.h `verify_system_peer`). Without the helper: `unchecked` (the caller refuses the
 * system socket then: managed answers come only from a daemon the kernel vouched for). Never rejects.
 */
export function checkSystemPeer(conn: Socket, ownerUid: number): Promise<PeerCheck> {
  return runPeerHelper(conn, ['--system', ACCEPT_HELPER, INSTALLED_BIN, String(ownerUid)]);
}

/** Runs native/hookwerk-peer with `conn` as descriptor 3 and `args`; its exit code is the answer. */
function runPeerHelper(conn: Socket, args: readonly string[]): Promise<PeerCheck> {
  if (!existsSync(HELPER))
    return Promise.resolve({
      kind: 'unchecked',
      why: 'the peer-credentials helper (dist/native/hookwerk-peer) was not built (no C compiler at install)',
    });
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(HELPER, args, {
      stdio: ['ignore', 'pipe', 'ignore', conn],
      env: {},
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) => {
      if (out.length < 1024) out += text;
    });
    child.on('error', (e) =>
      resolve({ kind: 'unchecked', why: `the peer-credentials helper did not run (${e.message})` }),
    );
    child.on('close', (code) => {
      // Node stops reading a socket it hands to a child: this process reads the reply on it.
      conn.resume();
      const why = out.trim().split('\n')[0] ?? '';
      if (code === 0) resolve({ kind: 'ok' });
      else if (code === 3)
        // The process that listened has exited: a daemon dying as it accepted [G-WARM-1].
        resolve({ kind: 'gone' });
      else if (code === 2)
        resolve({ kind: 'unchecked', why: why || 'the platform gives no peer credentials' });
      else resolve({ kind: 'refused', why: why || `the peer-credentials helper failed (exit ${code})` });
    });
  });
}
