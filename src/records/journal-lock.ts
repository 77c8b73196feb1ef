/**
 * [T-SELF-3] The journal's append lock: one writer at a time reads the chain's last hash and
 * appends, so every record chains to the true previous one. Node has no flock, so the lock is a
 * name made atomically and deleted after: a symbolic link whose text is the holder's pid and a
 * token of its own (`symlink()` fails with EEXIST when another holds it). One system call takes
 * it and two give it back, with no file to open, write or close: the lock was most of an append's
 * cost when it was a file created with O_EXCL, written and closed. Its text is never followed,
 * only read (`readlink`). Held for tens of microseconds; a waiter gives up after a small bound (the
 * hook path must not wait on anyone), and a lock whose holder died (crash, SIGKILL at the agent's
 * timeout) or that is older than the stale bound is broken, so a crash never wedges later
 * appends. A regular file under the lock's name (the lock of hookwerk before this one: its pid
 * on the first line) is a lock too. No zod: the hook path loads this [R-HOOK-4].
 */
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  renameSync,
  type Stats,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import { errorCode, isErrno } from '../core/errno.ts';
import { describe } from '../core/read-source.ts';

export const LOCK_NAME = 'append.lock';

export interface LockTimes {
  /** The longest an append waits for the lock before it appends without it. */
  waitMs: number;
  /** A lock older than this is a dead holder's, whatever its pid says. */
  staleMs: number;
  /** Called once when the lock was found held and this writer starts to wait (tests wait for it). */
  onWait?: () => void;
}

export const DEFAULT_LOCK_TIMES: LockTimes = { waitMs: 200, staleMs: 2000 };

/** `waited`: the lock was held by another when this writer came, and it waited for it. */
export type LockResult = { kind: 'held'; waited: boolean; release(): void } | { kind: 'busy'; why: string };

const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** The text of a lock this hookwerk made: `<pid>.<n>`. */
const TOKEN = /^(\d{1,10})\.\d{1,16}$/;

/** Locks taken by this process so far: with the pid, each lock's text is one of a kind. */
let taken = 0;

/**
 * A synchronous sleep: the writer is synchronous (a CLI about to exit calls it last). Its buffer
 * is made on first use: a V8 startup snapshot is built where SharedArrayBuffer does not exist
 * ([G-PERF-1], cli/snapshot-entry.ts).
 */
let sleeper: Int32Array | undefined;
function sleep(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Takes the lock of journal folder `dir`, waiting at most `times.waitMs`. */
export function lockJournal(dir: string, times: LockTimes = DEFAULT_LOCK_TIMES): LockResult {
  const file = path.join(dir, LOCK_NAME);
  let deadline: number | undefined;
  let pause = 0.25;
  for (;;) {
    taken++;
    const token = `${process.pid}.${taken}`;
    if (tryCreate(file, token))
      return { kind: 'held', waited: deadline !== undefined, release: () => release(file, token) };
    const seen = lstatSync(file, { throwIfNoEntry: false });
    if (seen === undefined) continue;
    if (!seen.isSymbolicLink() && !seen.isFile())
      return { kind: 'busy', why: `the lock ${file} is ${describe(seen)}, not a lock` };
    if (isStale(file, seen, times.staleMs)) {
      breakStale(file, seen.ino);
      continue;
    }
    if (deadline === undefined) {
      // The clock is read only when the lock is found held: an append alone never reads it.
      deadline = Date.now() + times.waitMs;
      times.onWait?.();
    }
    if (Date.now() >= deadline)
      return { kind: 'busy', why: `the lock ${file} was held for more than ${times.waitMs} ms` };
    sleep(pause);
    pause = Math.min(pause * 2, 1);
  }
}

/** Makes the lock with text `token`; false when another holds it. */
function tryCreate(file: string, token: string): boolean {
  try {
    symlinkSync(token, file);
    return true;
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return false;
    throw err;
  }
}

/** Deletes the lock only if it is still ours (a waiter may have broken it as stale meanwhile). */
function release(file: string, token: string): void {
  try {
    if (readlinkSync(file) === token) unlinkSync(file);
  } catch (err) {
    // Gone, or a regular file now (another's lock, not ours): nothing to give back.
    if (!isErrno(err, 'ENOENT') && !isErrno(err, 'EINVAL')) throw err;
  }
}

/** Older than the bound, or its holder is gone (or is this very process, which holds none now). */
function isStale(file: string, seen: Stats, staleMs: number): boolean {
  const age = Date.now() - seen.mtimeMs;
  // A lock dated far ahead (`touch -h -d`) would never age: a holder's lock is dated now.
  if (age >= staleMs || age <= -staleMs) return true;
  const pid = seen.isSymbolicLink() ? linkHolder(file) : fileHolder(file);
  if (pid === undefined) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return errorCode(err) === 'ESRCH';
  }
}

/** The pid in a lock's link text; undefined when it is gone or not a text this hookwerk writes. */
function linkHolder(file: string): number | undefined {
  let text: string;
  try {
    text = readlinkSync(file);
  } catch {
    return undefined;
  }
  const m = TOKEN.exec(text);
  return m === null ? undefined : Number(m[1]);
}

/** The pid written in a lock file (the earlier form); undefined while its creator has not written it. */
function fileHolder(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, READ);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(24);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const m = /^(\d{1,10})\n/.exec(buf.toString('latin1', 0, n));
    return m === null ? undefined : Number(m[1]);
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes a stale lock without removing a fresh one that replaced it since the look: it is
 * renamed aside first, and put back when the renamed one is not the one judged stale.
 */
function breakStale(file: string, staleIno: number): void {
  const aside = `${file}.${process.pid}.${Date.now()}.stale`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return;
    throw err;
  }
  try {
    // link() does not follow a symbolic link: the lock itself is put back.
    if (lstatSync(aside).ino !== staleIno) linkSync(aside, file);
  } catch (err) {
    // EEXIST: yet another writer locked meanwhile; the fresh lock moved aside is lost (its
    // holder's records may then fork the chain, which --verify shows).
    if (!isErrno(err, 'EEXIST')) throw err;
  } finally {
    unlinkSync(aside);
  }
}
