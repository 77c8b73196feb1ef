/**
 * `hookwerk daemon [--socket PATH] [--idle MIN] [--log FILE]` [R-HOOK-4]: the warm path. Engines
 * stay warm behind a Unix socket (default `<home>/.hookwerk/daemon.sock`, `HOOKWERK_DAEMON_SOCKET`
 * overrides) and every `hookwerk hook` call a client hands over is answered as the cold command
 * would answer it. In the foreground like `serve`; prints `ready` once listening. It stops on
 * SIGINT/SIGTERM, on `hookwerk daemon stop`, after `--idle` minutes without a call [G-WARM-1],
 * or when its socket file is removed or replaced: stop accepting, remove the socket, let running
 * calls finish (the shutdown grace), close the engines.
 *
 * The daemon a hook call starts [G-WARM-1] is this command with `--log <home>/.hookwerk/daemon.log`
 * (`daemon-log.ts`: its lines go there, bounded). Once listening it names itself in the start
 * lock `<socket>.lock` and removes it when it exits (`daemon-lock.ts`).
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { homeFolder } from '../core/home.ts';
import { lockPath, releaseLock } from '../hook/daemon-lock.ts';
import { boundedLog } from '../hook/daemon-log.ts';
import { DaemonSocketError, startDaemonServer } from '../hook/daemon-server.ts';
import type { ControlCommand, WireReply } from '../hook/daemon-wire.ts';
import type { HookCallDeps } from '../hook/hook-call.ts';
import { WarmDecider } from '../hook/warm-decider.ts';
import { CliError } from './cli-error.ts';
import type { DaemonFleet } from './daemon-fleet.ts';
import { socketOf } from './daemon-socket-option.ts';
import { type DaemonStatus, engineStatus } from './daemon-status.ts';
import type { FleetCliOptions } from './fleet-cli-options.ts';
import { answerHookArgs } from './hook.ts';
import { firstSignal, graceOption } from './shutdown.ts';

const DEFAULT_GRACE_MS = 5000;
/** [G-WARM-1] A daemon with no call for this long exits; `--idle 0`: never. */
export const DEFAULT_IDLE_MINUTES = 30;
/** The longest `--idle` (a week): beyond it a timer would overflow. */
const MAX_IDLE_MINUTES = 7 * 24 * 60;
/** `HOOKWERK_DAEMON_IDLE`: the idle minutes when `--idle` is not given (the started daemons read it). */
export const IDLE_ENV = 'HOOKWERK_DAEMON_IDLE';
/** How often the daemon checks that its socket file is still its own. */
const WATCH_MS = 30_000;

interface DaemonCliOptions extends FleetCliOptions {
  socket?: string;
  shutdownGraceMs?: string;
  idle?: string;
  log?: string;
}

interface DaemonHooks {
  env?: NodeJS.ProcessEnv;
  /** Resolves when the daemon should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: Promise<string>;
  /** Where the runs of every call go [R-HOOK-3]; default: the journal, as for a cold call. */
  record?: HookCallDeps['record'];
  /** How often the socket file is checked (default 30 s). */
  watchMs?: number;
}

/** `--idle MIN` (fractions allowed), else `HOOKWERK_DAEMON_IDLE`, else 30; in ms, 0 = never. */
export function idleOption(given: string | undefined, env: NodeJS.ProcessEnv): number {
  const [text, what] =
    given !== undefined ? [given, '--idle'] : [env[IDLE_ENV] ?? String(DEFAULT_IDLE_MINUTES), IDLE_ENV];
  const minutes = Number(text);
  if (text.trim() === '' || !Number.isFinite(minutes) || minutes < 0 || minutes > MAX_IDLE_MINUTES)
    throw new CliError(
      `${what} must be a number of minutes from 0 (never) to ${MAX_IDLE_MINUTES}, got ${JSON.stringify(text)}`,
    );
  return Math.round(minutes * 60_000);
}

/** The lines of the daemon: its stdout and stderr, or the bounded log (`--log`). */
function outputs(
  opts: DaemonCliOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): { out: (line: string) => void; err: (line: string) => void; close(): void } {
  if (opts.log === undefined) return { out, err, close: () => {} };
  if (opts.log.trim() === '') throw new CliError('--log must not be empty');
  let log: ReturnType<typeof boundedLog>;
  try {
    log = boundedLog(path.resolve(opts.log));
  } catch (e) {
    throw new CliError(`cannot open the log ${opts.log}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { out: (line) => log.line(line), err: (line) => log.line(line), close: () => log.close() };
}

export async function daemonCommand(
  opts: DaemonCliOptions,
  stdout: (line: string) => void,
  stderr: (line: string) => void,
  hooks: DaemonHooks = {},
): Promise<number> {
  const env = hooks.env ?? process.env;
  const { socket, ownFolder } = socketOf(opts, env);
  const grace = graceOption(opts.shutdownGraceMs).shutdownGraceMs ?? DEFAULT_GRACE_MS;
  // [F-BUN-2] A fleet daemon is a service: no idle exit unless asked for.
  const idleMs = idleOption(opts.idle ?? (opts.fleet !== undefined ? '0' : undefined), env);
  const { out, err, close: closeLog } = outputs(opts, stdout, stderr);
  const fleet = await startFleet(opts, env, (line) => err(`hookwerk daemon: ${line}`));
  // Listen for signals from the start: a SIGTERM during start-up still shuts down cleanly.
  const signal = hooks.stopSignal ?? firstSignal(err);
  let stopFor: (why: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stopFor = resolve;
  });

  const warm = new WarmDecider();
  const deps: HookCallDeps = {
    decider: warm,
    ...(hooks.record !== undefined ? { record: hooks.record } : {}),
  };
  const since = new Date();
  let calls = 0;
  let running = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  // [G-WARM-1] Idle: no call running and none for `idleMs`. Control messages are no calls.
  const armIdle = () => {
    clearTimeout(idleTimer);
    // A call that ends while the daemon stops must not keep its process alive for the idle time.
    if (idleMs > 0 && running === 0 && !stopping)
      idleTimer = setTimeout(() => stopFor(`no call for ${idleMs / 60_000} minutes`), idleMs);
  };
  const status = (): DaemonStatus => ({
    running: true,
    pid: process.pid,
    socket,
    since: since.toISOString(),
    calls,
    idleExitMinutes: idleMs > 0 ? idleMs / 60_000 : null,
    engines: warm.engines().map(engineStatus),
    ...(fleet !== undefined ? { fleet: fleet.status() } : {}),
  });
  const control = (command: ControlCommand): WireReply => {
    const json = (value: unknown) => ({
      exitCode: 0,
      stdout: Buffer.from(`${JSON.stringify(value)}\n`),
      stderr: Buffer.alloc(0),
    });
    if (command === 'status') return json(status());
    stopFor('asked to stop (hookwerk daemon stop)');
    return json({ stopping: true, pid: process.pid });
  };

  let server: Awaited<ReturnType<typeof startDaemonServer>>;
  try {
    server = await startDaemonServer({
      socket,
      ownFolder,
      handle: async (request) => {
        calls++;
        running++;
        clearTimeout(idleTimer);
        try {
          return await answerHookArgs(
            request.args,
            { stdin: request.stdin, cwd: request.cwd, env: request.env },
            deps,
          );
        } finally {
          running--;
          armIdle();
        }
      },
      control,
      onMalformed: (why) => err(`hookwerk daemon: closed a request without a reply: ${why}`),
    });
  } catch (e) {
    await fleet?.stop();
    await warm.close();
    // A daemon that lost the start (another one answers) leaves the lock to the winner.
    releaseLock(lockPath(socket));
    if (!(e instanceof DaemonSocketError) || opts.log === undefined) {
      closeLog();
      throw e instanceof DaemonSocketError ? new CliError(e.message) : e;
    }
    // Started by a hook call: the reason goes to the log, with its time.
    err(`hookwerk daemon: ${e.message}`);
    closeLog();
    return 1;
  }
  claimLock(lockPath(socket));
  armIdle();
  const ino = inode(server.socket);
  const watch = setInterval(() => {
    if (inode(server.socket) !== ino) stopFor('its socket file was removed or replaced');
  }, hooks.watchMs ?? WATCH_MS);
  watch.unref();

  out('ready');
  err(
    `hookwerk daemon: listening on ${server.socket} (pid ${process.pid}; ${
      idleMs > 0 ? `exits after ${idleMs / 60_000} idle minutes` : 'no idle exit'
    })`,
  );
  const why = await Promise.race([signal, stopped]);
  stopping = true;
  clearTimeout(idleTimer);
  clearInterval(watch);
  err(`hookwerk daemon: ${why}, shutting down (running calls finish first)`);
  await fleet?.stop();
  await server.stop(grace);
  await warm.close();
  releaseLock(lockPath(socket));
  err(`hookwerk daemon: stopped after ${calls} call${calls === 1 ? '' : 's'}`);
  closeLog();
  return 0;
}

/** [F-BUN-2] `--fleet`: its code (and NATS) loaded only then. */
async function startFleet(
  opts: DaemonCliOptions,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<DaemonFleet | undefined> {
  if (opts.fleet === undefined && (opts.trustKey ?? []).length === 0) return undefined;
  const { startDaemonFleet } = await import('./daemon-fleet.ts');
  return startDaemonFleet(opts, homeFolder(undefined, env), env, say);
}

/** The socket file's inode, `undefined` once it is gone. */
function inode(file: string): number | undefined {
  try {
    return lstatSync(file).ino;
  } catch {
    return undefined;
  }
}

/** The daemon names itself in the start lock (a daemon started by hand makes the file). */
function claimLock(lock: string): void {
  try {
    writeFileAtomic(lock, `${process.pid}\n`, { mode: 0o600, followSymlink: false });
  } catch {
    // The lock only keeps starts apart; the socket is what the clients use.
  }
}
