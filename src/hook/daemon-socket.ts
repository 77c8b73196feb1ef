/**
 * [R-HOOK-4] Where the warm path's socket is: `HOOKWERK_DAEMON_SOCKET` (absolute) when set, else
 * `<home>/.hookwerk/daemon.sock`. Client and daemon read it the same way. Small on purpose: the
 * cold `hookwerk hook` loads this and pays one `stat`, nothing more, when no daemon runs.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { homeFolder } from '../core/home.ts';

export const SOCKET_ENV = 'HOOKWERK_DAEMON_SOCKET';
/** Set by the C client when it falls back to `node … hook`: that call decides in its own process. */
export const COLD_ENV = 'HOOKWERK_HOOK_COLD';
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

/**
 * What is at `socket`: `ours`, a socket of this account a client may talk to; `none`, no file at
 * all; `foreign`, anything else (not a socket, or another account's: a socket someone else put
 * there could answer "allow" to anything). One `stat`.
 */
export function socketAt(socket: string): 'ours' | 'none' | 'foreign' {
  let s: ReturnType<typeof statSync>;
  try {
    s = statSync(socket, { throwIfNoEntry: false });
  } catch {
    return 'foreign';
  }
  if (s === undefined) return 'none';
  if (!s.isSocket()) return 'foreign';
  if (process.geteuid !== undefined && s.uid !== process.geteuid()) return 'foreign';
  return 'ours';
}

/** The socket for `env` and what is there (`socketAt`); `undefined` when there is none to try. */
export function socketState(
  env: NodeJS.ProcessEnv,
): { socket: string; state: 'ours' | 'none' | 'foreign' } | undefined {
  const socket = daemonSocketPath(env);
  return socket === undefined ? undefined : { socket, state: socketAt(socket) };
}

/** The socket a client may talk to (see `socketState`). */
export function usableSocket(env: NodeJS.ProcessEnv): string | undefined {
  const found = socketState(env);
  return found?.state === 'ours' ? found.socket : undefined;
}
