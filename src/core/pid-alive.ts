/**
 * Whether a process id names a live process: `kill(pid, 0)` (EPERM: it lives, as another
 * account's), and on Linux not a zombie — a process that exited but whose parent has not reaped
 * it still answers `kill`, and an init that never reaps would keep it "alive" forever.
 */
import { readFileSync } from 'node:fs';
import { errorCode } from './errno.ts';

export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (errorCode(err) !== 'EPERM') return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    // No /proc (not Linux), or it exited between the two looks: trust kill(0).
    return true;
  }
  // `pid (comm) state …`: comm may hold spaces and parens, so read after the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}
