/**
 * [G-WARM-1] The Node client's start of a daemon, when a hook call found none: fire and forget.
 * The call decides in its own process as before; this only takes the start lock
 * (`daemon-lock.ts`: one start at a time) and spawns `node <this package>/bin/hookwerk.js daemon
 * --log <home>/.hookwerk/daemon.log` detached: its own session (`setsid`), its cwd `/`, stdin
 * from /dev/null and stdout/stderr to the log — never the agent's pipes, which the agent waits on
 * — and it is not waited for; its start waits for the call to end. The C client
 * (native/hookwerk-hook.c) does the same in C.
 *
 * The daemon gets a small environment (`daemonEnv`), not the agent's: it lives up to 30 idle
 * minutes, and each call brings its own environment for its hooks anyway.
 */
import { type StdioOptions, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { homeFolder } from '../core/home.ts';
import { fillLock, lockPath, takeLock } from './daemon-lock.ts';
import { daemonLogPath } from './daemon-log.ts';
import { autostartOff, COLD_ENV, DAEMON_ENV } from './daemon-socket.ts';

/** This installation's CLI: the same `bin/hookwerk.js` the calling process runs. */
const BIN = fileURLToPath(new URL('../../bin/hookwerk.js', import.meta.url));

/**
 * `sh -c` with `$1` the calling process and the daemon's command after it: waits until the call
 * has ended (at most 10 s, a look every 50 ms), then becomes the daemon (`exec`, the same pid).
 * A daemon's start loads its whole engine; started while the call still decides, it took the CPU
 * from it on a busy machine (bench/hook.js, the first-call rows). The C client waits the same way.
 */
export const WAIT_FOR_CALLER =
  'i=0; while [ "$i" -lt 200 ] && kill -0 "$1" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done; shift; exec "$@"';

/**
 * Starts `command` detached from `/` with `daemonEnv(env)`, once this call has ended
 * (WAIT_FOR_CALLER; `name` is the shell's `$0`). Returns its pid; never waits for it.
 */
export function spawnAfterCaller(
  name: string,
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions,
): number | undefined {
  const child = spawn('/bin/sh', ['-c', WAIT_FOR_CALLER, name, String(process.pid), ...command], {
    detached: true,
    cwd: '/',
    env: daemonEnv(env),
    stdio,
  });
  // A failed exec is reported later, as an event: this process must not die of it.
  child.on('error', () => {});
  child.unref();
  return child.pid;
}

/** The variables a daemon keeps from the call that started it. */
const KEEP = new Set(['HOME', 'PATH', 'USER', 'LOGNAME', 'TMPDIR', 'LANG', 'TZ']);
/**
 * hookwerk's own variables that belong to one call, not to the daemon (the second is
 * call-deadline.ts's STARTED_ENV, not imported: that module pulls in the dialects).
 */
const PER_CALL = new Set([COLD_ENV, 'HOOKWERK_HOOK_STARTED_MS', DAEMON_ENV]);

/** The daemon's environment: `KEEP`, the locale (`LC_*`) and hookwerk's own settings (`HOOKWERK_*`). */
export function daemonEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const keep = KEEP.has(name) || name.startsWith('LC_') || name.startsWith('HOOKWERK_');
    if (keep && !PER_CALL.has(name)) out[name] = value;
  }
  return out;
}

/**
 * Starts a daemon for `socket` in the background unless `HOOKWERK_DAEMON=off`, a start is under
 * way (the lock), or there is no home; returns the new daemon's pid, else `undefined`. Never
 * throws and never waits for the daemon.
 */
export function autostartDaemon(socket: string, env: NodeJS.ProcessEnv): number | undefined {
  if (autostartOff(env)) return undefined;
  let home: string;
  try {
    home = homeFolder(undefined, env);
  } catch {
    return undefined;
  }
  const own = path.join(home, '.hookwerk');
  try {
    // hookwerk's folder holds the log, and the default socket and its lock: 0700 [R-HOOK-4].
    mkdirSync(own, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  // Another socket's folder (HOOKWERK_DAEMON_SOCKET) is the user's to make: missing, no lock.
  const lock = lockPath(socket);
  const fd = takeLock(lock);
  if (fd === undefined) return undefined;
  let pid: number | undefined;
  let log: number | undefined;
  try {
    const logFile = daemonLogPath(home);
    log = openSync(logFile, 'a', 0o600);
    // The daemon's Node start waits for this call to end (WAIT_FOR_CALLER), off its CPU.
    const daemon = [process.execPath, BIN, 'daemon', '--log', logFile];
    pid = spawnAfterCaller('hookwerk-daemon', daemon, env, ['ignore', log, log]);
  } catch {
    pid = undefined;
  } finally {
    if (log !== undefined) closeSync(log);
  }
  if (pid !== undefined) {
    fillLock(fd, pid);
    return pid;
  }
  // No daemon was started: an empty lock would hold back the next start for a minute.
  closeSync(fd);
  rmSync(lock, { force: true });
  return undefined;
}
