/**
 * [R-HOOK-4] Where the warm path's socket is: `HOOKWERK_DAEMON_SOCKET` (absolute) when set, else
 * `<home>/.hookwerk/daemon.sock`. Client and daemon read it the same way. Small on purpose: the
 * cold `hookwerk hook` loads this and pays one `stat`, nothing more, when no daemon runs.
 */
import { lstatSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { homeFolder } from '../core/home.ts';

export const SOCKET_ENV = 'HOOKWERK_DAEMON_SOCKET';
/** Set by the C client when it falls back to `node … hook`: that call decides in its own process. */
export const COLD_ENV = 'HOOKWERK_HOOK_COLD';
/** Set by the C client for its fallback: why it did not use the daemon socket (`<socket>: <why>`) [T-SELF-4]. */
export const REFUSED_ENV = 'HOOKWERK_HOOK_REFUSED';
/** The longest path a Unix socket address holds (`sun_path` is 108 bytes with its NUL). */
export const MAX_SOCKET_PATH = 107;

/** The socket for `env`: the override, else the home's; `undefined` when there is none. */
export function daemonSocketPath(env: NodeJS.ProcessEnv): string | undefined {
  const given = env[SOCKET_ENV];
  if (given !== undefined && given !== '') return path.isAbsolute(given) ? given : undefined;
  try {
    return homeSocket(homeFolder(undefined, env));
  } catch {
    return undefined;
  }
}

/** `<home>/.hookwerk/daemon.sock` */
export function homeSocket(home: string): string {
  return path.join(home, '.hookwerk', 'daemon.sock');
}

/** [G-WARM-1] `HOOKWERK_DAEMON=off`: hook calls start no daemon (a running one is still asked). */
export const DAEMON_ENV = 'HOOKWERK_DAEMON';

export function autostartOff(env: NodeJS.ProcessEnv): boolean {
  return env[DAEMON_ENV]?.toLowerCase() === 'off';
}

/** What is at a socket path; `why` says what makes a `foreign` one unusable. */
export type SocketCheck = { state: 'ours' } | { state: 'none' } | { state: 'foreign'; why: string };

/** What one `lstat` of a socket path found (a link is not followed): nothing, something unreadable, or its stats. */
export type SocketEntry =
  | { state: 'none' }
  | { state: 'foreign'; why: string }
  | { state: 'found'; stats: Stats };

export function socketEntry(socket: string): SocketEntry {
  let s: ReturnType<typeof lstatSync>;
  try {
    s = lstatSync(socket, { throwIfNoEntry: false });
  } catch {
    return { state: 'foreign', why: 'it cannot be read' };
  }
  return s === undefined ? { state: 'none' } : { state: 'found', stats: s };
}

/**
 * What is at `socket`: `ours`, a socket of this account a client may connect to; `none`, no
 * file at all; `foreign`, anything else: not a socket (a link to one included), or another
 * account's, which could answer "allow" to anything. One `lstat`. Before a request is sent, the
 * client also checks the folder (`privateFolder`) and the peer [T-SELF-4].
 */
export function checkSocket(socket: string): SocketCheck {
  const entry = socketEntry(socket);
  if (entry.state !== 'found') return entry;
  const s = entry.stats;
  if (!s.isSocket()) return { state: 'foreign', why: 'it is not a socket' };
  const uid = process.geteuid?.();
  if (uid !== undefined && s.uid !== uid) return { state: 'foreign', why: 'it belongs to another account' };
  return { state: 'ours' };
}

/**
 * [T-SELF-4] Why the socket's folder is not this account's alone (mode 0700), else undefined:
 * whoever can write the folder can swap the socket. Asked once connected: a dead socket in a wider
 * folder is still "nothing listens", and the daemon started then tightens its own folder.
 */
export function privateFolder(socket: string): string | undefined {
  let dir: ReturnType<typeof statSync>;
  try {
    dir = statSync(path.dirname(socket));
  } catch {
    return 'its folder cannot be read';
  }
  const uid = process.geteuid?.();
  if (!dir.isDirectory() || (uid !== undefined && dir.uid !== uid) || (dir.mode & 0o077) !== 0)
    return "its folder is not this account's alone (mode 0700)";
  return undefined;
}

/** `checkSocket`'s state alone. */
export function socketAt(socket: string): 'ours' | 'none' | 'foreign' {
  return checkSocket(socket).state;
}

/** The socket for `env` and what is there (`checkSocket`); `undefined` when there is none to try. */
export function socketState(env: NodeJS.ProcessEnv): ({ socket: string } & SocketCheck) | undefined {
  const socket = daemonSocketPath(env);
  return socket === undefined ? undefined : { socket, ...checkSocket(socket) };
}

/** The socket a client may talk to (see `socketState`). */
export function usableSocket(env: NodeJS.ProcessEnv): string | undefined {
  const found = socketState(env);
  return found?.state === 'ours' ? found.socket : undefined;
}
