/**
 * [T-SELF-3] How often appends found the journal's lock busy, counted across every process that
 * appends (each `hookwerk hook`, the daemon, the MCP proxy) so that `hookwerk serve`'s `/metrics`
 * can show it (`journal_lock_waits_total{result}`). Each count is one byte appended (O_APPEND:
 * writers never lose one another's) to a file beside the segments, and reading a count is one
 * lstat: its size. An append that did not meet the lock busy writes nothing here. A count
 * reaching COUNT_RESET_AT starts again at zero (a counter reset, which Prometheus expects). A
 * count is not evidence (the agent can edit these files like any of the user's): the chain's
 * `unlocked` marks are. No zod: the hook path loads this [R-HOOK-4].
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/** `waited`: the lock was held, the append waited and took it; `gave_up`: it waited its bound and appended without it. */
export type LockWait = 'waited' | 'gave_up';

const NAMES: Record<LockWait, string> = { waited: 'lock-waited.count', gave_up: 'lock-gave-up.count' };
/** A count file past this many bytes is emptied before the next count. */
export const COUNT_RESET_AT = 1024 * 1024;
const APPEND =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NOFOLLOW |
  constants.O_NONBLOCK |
  constants.O_NOCTTY;

export interface LockWaitCounts {
  waited: number;
  gave_up: number;
}

/**
 * Counts one append of journal folder `dir` that met the lock busy. Never throws: a count is not
 * worth an append. A count file that is not a regular file of its own (a link to another file
 * would be written into) is left alone, and that count is lost.
 */
export function countLockWait(dir: string, what: LockWait): void {
  const file = path.join(dir, NAMES[what]);
  try {
    const seen = lstatSync(file, { throwIfNoEntry: false });
    if (seen !== undefined && !seen.isFile()) return;
    const fd = openSync(file, APPEND, 0o600);
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.nlink !== 1) return;
      if (stats.size >= COUNT_RESET_AT) ftruncateSync(fd, 0);
      writeSync(fd, what === 'waited' ? 'w' : 'g');
    } finally {
      closeSync(fd);
    }
  } catch {
    // A full disk, a folder gone: the count is lost, the append goes on.
  }
}

/** The counts of journal folder `dir` (0 for a count file missing or not a regular file). */
export function readLockWaits(dir: string): LockWaitCounts {
  const size = (what: LockWait): number => {
    try {
      const seen = lstatSync(path.join(dir, NAMES[what]), { throwIfNoEntry: false });
      return seen?.isFile() === true ? seen.size : 0;
    } catch {
      return 0;
    }
  };
  return { waited: size('waited'), gave_up: size('gave_up') };
}
