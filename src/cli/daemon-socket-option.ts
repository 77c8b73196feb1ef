/**
 * [R-HOOK-4] Which socket a `hookwerk daemon` command means: `--socket`, else
 * `HOOKWERK_DAEMON_SOCKET`, else `<home>/.hookwerk/daemon.sock` — the daemon, `daemon status` and
 * `daemon stop` read it the same way the clients do.
 */
import path from 'node:path';
import { homeFolder } from '../core/home.ts';
import { homeSocket, SOCKET_ENV } from '../hook/daemon-socket.ts';
import { CliError } from './cli-error.ts';

/** `--socket`, else `HOOKWERK_DAEMON_SOCKET`, else the home's; and whether its folder is ours. */
export function socketOf(
  opts: { socket?: string },
  env: NodeJS.ProcessEnv,
): { socket: string; ownFolder: boolean } {
  if (opts.socket !== undefined) {
    if (opts.socket.trim() === '') throw new CliError('--socket must not be empty');
    return { socket: path.resolve(opts.socket), ownFolder: false };
  }
  const given = env[SOCKET_ENV];
  if (given !== undefined && given !== '') {
    if (!path.isAbsolute(given)) throw new CliError(`${SOCKET_ENV} must be an absolute path, got "${given}"`);
    return { socket: given, ownFolder: false };
  }
  let home: string;
  try {
    home = homeFolder(undefined, env);
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e));
  }
  return { socket: homeSocket(home), ownFolder: true };
}
