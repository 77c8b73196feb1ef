/**
 * [G-WARM-1] One daemon start at a time: the lock file `<socket>.lock`, beside the socket, holds the
 * pid of the daemon that owns (or is starting to own) the socket. A client that finds no daemon
 * creates it with O_EXCL before it starts one, so 20 parallel tool calls start one daemon; the
 * daemon writes its own pid there once it listens and removes the file when it exits.
 *
 * A plain file, not `flock`: Node has no flock, and the C client and the Node client must honour
 * the same lock. A lock a killed daemon left must not block the next start, so a lock is stale
 * (taken over) when its pid is dead, or when it is older than `LOCK_STALE_MS` — a client only
 * looks at the lock when no daemon answered, and a daemon answers well within that time of its
 * start; a pid reused by another process cannot then block the starts for longer. The C client
 * (native/hookwerk-hook.c) implements the same rules.
 */
import { closeSync, fstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { errorCode } from '../core/errno.ts';
import { pidAlive } from '../core/pid-alive.ts';

/** A lock older than this, with no daemon answering, is a start that failed long ago. */
export const LOCK_STALE_MS = 60_000;
/** What a lock file may hold: a pid and a newline. */
const MAX_LOCK_BYTES = 32;

export function lockPath(socket: string): string {
  return `${socket}.lock`;
}

/** The pid a lock file names, `undefined` when it names none (empty, garbage, missing). */
export function lockPid(lock: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(lock, 'latin1').slice(0, MAX_LOCK_BYTES).trim();
  } catch {
    return undefined;
  }
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const pid = Number(text);
  return pid > 0 ? pid : undefined;
}

/**
 * Whether the lock beside `socket` names a process that has exited, whatever the lock's age. A
 * call whose connection closed before any reply met a daemon dying (killed: its main thread a
 * zombie while its other threads still hold the socket) or a live one dropping the call (busy,
 * another version): only the first may start a new daemon [G-WARM-1].
 */
export function lockOwnerExited(socket: string): boolean {
  const pid = lockPid(lockPath(socket));
  return pid !== undefined && !pidAlive(pid);
}

/** Whether the lock someone else holds can be taken over (see the file's comment). */
function stale(lock: string, now: number): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'r');
  } catch (e) {
    // Gone meanwhile: free. Anything else (a symlink loop, no permission): leave it alone.
    return errorCode(e) === 'ENOENT';
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return false;
    if (now - st.mtimeMs >= LOCK_STALE_MS) return true;
  } finally {
    closeSync(fd);
  }
  const pid = lockPid(lock);
  // Empty: a client has just made it and is starting the daemon.
  return pid !== undefined && !pidAlive(pid);
}

/**
 * Takes the lock: an open descriptor on the new, empty lock file (the caller writes the daemon's
 * pid and closes it), or `undefined` when a start is already under way (or the folder is not
 * there). A stale lock is removed and taken, once.
 */
export function takeLock(lock: string, now = Date.now()): number | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return openSync(lock, 'wx', 0o600);
    } catch (e) {
      if (errorCode(e) !== 'EEXIST' || attempt > 0 || !stale(lock, now)) return undefined;
      try {
        unlinkSync(lock);
      } catch (u) {
        if (errorCode(u) !== 'ENOENT') return undefined;
      }
    }
  }
  return undefined;
}

/** Writes `pid` into a lock taken with `takeLock` and closes it. */
export function fillLock(fd: number, pid: number): void {
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
}

/** Removes the lock if it names `pid` (another daemon's lock is left alone). */
export function releaseLock(lock: string, pid = process.pid): void {
  if (lockPid(lock) !== pid) return;
  try {
    unlinkSync(lock);
  } catch {
    // Already gone.
  }
}
