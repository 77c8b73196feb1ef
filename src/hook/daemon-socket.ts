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

/**
 * The socket a client may talk to: it exists, is a socket, and is this account's (a socket
 * someone else put there could answer "allow" to anything). One `stat`.
 */
export function usableSocket(env: NodeJS.ProcessEnv): string | undefined {
  const socket = daemonSocketPath(env);
  if (socket === undefined) return undefined;
  let s: ReturnType<typeof statSync>;
  try {
    s = statSync(socket, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (s === undefined || !s.isSocket()) return undefined;
  if (process.geteuid !== undefined && s.uid !== process.geteuid()) return undefined;
  return socket;
}
