/**
 * [T-SELF-3] The journal's append lock: one writer at a time reads the chain's last hash and
 * appends, so every record chains to the true previous one. Node has no flock, so the lock is a
 * file made with O_CREAT|O_EXCL and deleted after. Held for a few hundred microseconds; a
 * waiter gives up after a small bound (the hook path must not wait on anyone), and a lock whose
 * holder died (crash, SIGKILL at the agent's timeout) or that is older than the stale bound is
 * broken, so a crash never wedges later appends. No zod: the hook path loads this [R-HOOK-4].
 */
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { errorCode, isErrno } from '../core/errno.ts';
import { lookAtSegment } from './journal-files.ts';

export const LOCK_NAME = 'append.lock';

export interface LockTimes {
  /** The longest an append waits for the lock before it appends without it. */
  waitMs: number;
  /** A lock older than this is a dead holder's, whatever its pid says. */
  staleMs: number;
}

export const DEFAULT_LOCK_TIMES: LockTimes = { waitMs: 200, staleMs: 2000 };

export type LockResult = { kind: 'held'; release(): void } | { kind: 'busy'; why: string };

const CREATE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * A synchronous sleep: the writer is synchronous (a CLI about to exit calls it last). Its buffer
 * is made on first use: a V8 startup snapshot is built where SharedArrayBuffer does not exist
 * ([G-PERF-1], hook/snapshot-entry.ts).
 */
let sleeper: Int32Array | undefined;
function sleep(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Takes the lock of journal folder `dir`, waiting at most `times.waitMs`. */
export function lockJournal(dir: string, times: LockTimes = DEFAULT_LOCK_TIMES): LockResult {
  const file = path.join(dir, LOCK_NAME);
  const deadline = Date.now() + times.waitMs;
  let pause = 0.25;
  for (;;) {
    const ino = tryCreate(file);
    if (ino !== undefined) return { kind: 'held', release: () => release(file, ino) };
    const seen = lookAtSegment(file);
    if (seen.kind === 'refused') return { kind: 'busy', why: `the lock ${file} ${seen.why}` };
    if (seen.kind === 'ok' && isStale(file, seen.stats.mtimeMs, times.staleMs)) {
      breakStale(file, seen.stats.ino);
      continue;
    }
    if (seen.kind === 'missing') continue;
    if (Date.now() >= deadline)
      return { kind: 'busy', why: `the lock ${file} was held for more than ${times.waitMs} ms` };
    sleep(pause);
    pause = Math.min(pause * 2, 1);
  }
}

/** The new lock's inode, or undefined when another holds it. */
function tryCreate(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, CREATE, 0o600);
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return undefined;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
    return fstatSync(fd).ino;
  } finally {
    closeSync(fd);
  }
}

/** Deletes the lock only if it is still ours (a waiter may have broken it as stale meanwhile). */
function release(file: string, ino: number): void {
  try {
    if (lstatSync(file).ino === ino) unlinkSync(file);
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
  }
}

/** Older than the bound, or its holder is gone (or is this very process, which holds none now). */
function isStale(file: string, mtimeMs: number, staleMs: number): boolean {
  if (Date.now() - mtimeMs >= staleMs) return true;
  const pid = holder(file);
  if (pid === undefined) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return errorCode(err) === 'ESRCH';
  }
}

/** The pid written in the lock; undefined while its creator has not written it yet. */
function holder(file: string): number | undefined {
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
 * renamed aside first, and put back when the renamed file is not the one judged stale.
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
    if (lstatSync(aside).ino !== staleIno) linkSync(aside, file);
  } catch (err) {
    // EEXIST: yet another writer locked meanwhile; the fresh lock moved aside is lost (its
    // holder's records may then fork the chain, which --verify shows).
    if (!isErrno(err, 'EEXIST')) throw err;
  } finally {
    unlinkSync(aside);
  }
}
