/**
 * `hookwerk daemon [--socket PATH]` [R-HOOK-4]: the warm path. Engines stay warm behind a Unix
 * socket (default `<home>/.hookwerk/daemon.sock`, `HOOKWERK_DAEMON_SOCKET` overrides) and every
 * `hookwerk hook` call a client hands over is answered as the cold command would answer it. In the
 * foreground like `serve`; prints `ready` once listening. SIGINT/SIGTERM: stop accepting, remove
 * the socket, let running calls finish (the shutdown grace), close the engines.
 */
import path from 'node:path';
import { homeFolder } from '../core/home.ts';
import { DaemonSocketError, startDaemonServer } from '../hook/daemon-server.ts';
import { homeSocket, SOCKET_ENV } from '../hook/daemon-socket.ts';
import type { HookCallDeps } from '../hook/hook-call.ts';
import { WarmDecider } from '../hook/warm-decider.ts';
import { CliError } from './cli-error.ts';
import { answerHookArgs } from './hook.ts';
import { graceOption } from './shutdown.ts';

const DEFAULT_GRACE_MS = 5000;

interface DaemonCliOptions {
  socket?: string;
  shutdownGraceMs?: string;
}

interface DaemonHooks {
  env?: NodeJS.ProcessEnv;
  /** Resolves when the daemon should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: Promise<string>;
  /** Where the runs of every call go [R-HOOK-3]; default: the journal, as for a cold call. */
  record?: HookCallDeps['record'];
}

/** `--socket`, else `HOOKWERK_DAEMON_SOCKET`, else the home's; and whether its folder is ours. */
function socketOf(opts: DaemonCliOptions, env: NodeJS.ProcessEnv): { socket: string; ownFolder: boolean } {
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

export async function daemonCommand(
  opts: DaemonCliOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  hooks: DaemonHooks = {},
): Promise<number> {
  const env = hooks.env ?? process.env;
  const { socket, ownFolder } = socketOf(opts, env);
  const grace = graceOption(opts.shutdownGraceMs).shutdownGraceMs ?? DEFAULT_GRACE_MS;
  // Listen for signals from the start: a SIGTERM during start-up still shuts down cleanly.
  const stop = hooks.stopSignal ?? firstSignal(err);
  const warm = new WarmDecider();
  const deps: HookCallDeps = {
    decider: warm,
    ...(hooks.record !== undefined ? { record: hooks.record } : {}),
  };
  let server: Awaited<ReturnType<typeof startDaemonServer>>;
  try {
    server = await startDaemonServer({
      socket,
      ownFolder,
      handle: (request) =>
        answerHookArgs(request.args, { stdin: request.stdin, cwd: request.cwd, env: request.env }, deps),
      onMalformed: (why) => err(`hookwerk daemon: closed a request without a reply: ${why}`),
    });
  } catch (e) {
    await warm.close();
    if (e instanceof DaemonSocketError) throw new CliError(e.message);
    throw e;
  }
  out('ready');
  err(`hookwerk daemon: listening on ${server.socket} (pid ${process.pid})`);
  const signal = await stop;
  err(`hookwerk daemon: ${signal}, shutting down (running calls finish first)`);
  await server.stop(grace);
  await warm.close();
  err('hookwerk daemon: stopped');
  return 0;
}

function firstSignal(err: (line: string) => void): Promise<string> {
  return new Promise((resolve) => {
    let seen = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (seen) {
        // A second Ctrl-C means now: running calls are abandoned (their clients decide themselves).
        err(`hookwerk daemon: ${signal} again, exiting now`);
        process.exit(1);
      }
      seen = true;
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
