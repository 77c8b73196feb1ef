/**
 * [T-MGD-3] What a client believes at the system daemon's socket before it connects: its folder
 * `/run/hookwerk` is root's and no group's or other's to write (so no account but root can put or
 * replace a socket there), and the socket is a socket (lstat: not a link) owned by an account other
 * than root — the daemon's, whose uid the peer check then expects. The daemon refuses to start on
 * a folder that fails the same check.
 */
import { lstatSync } from 'node:fs';
import { socketEntry } from './daemon-socket.ts';
import { SYSTEM_RUN_DIR, SYSTEM_SOCKET } from './system-paths.ts';

/** Why `dir` is not root's alone to write, else undefined. */
export function systemFolderProblem(dir = SYSTEM_RUN_DIR): string | undefined {
  let s: ReturnType<typeof lstatSync>;
  try {
    s = lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return `${dir} cannot be read`;
  }
  if (s === undefined) return `${dir} does not exist`;
  if (!s.isDirectory()) return `${dir} is not a folder (a link or a file)`;
  if (s.uid !== 0 || (s.mode & 0o022) !== 0)
    return `${dir} must be owned by root and not writable by group or others (owner uid ${s.uid}, mode 0${(s.mode & 0o7777).toString(8)})`;
  return undefined;
}

export type SystemSocketCheck =
  | { state: 'none' }
  | { state: 'foreign'; why: string }
  | { state: 'usable'; owner: number };

/** The system socket as found: none, one not to use (why), or one to connect to (its owner's uid). */
export function checkSystemSocket(): SystemSocketCheck {
  const entry = socketEntry(SYSTEM_SOCKET);
  if (entry.state !== 'found') return entry;
  const s = entry.stats;
  const folder = systemFolderProblem();
  if (folder !== undefined) return { state: 'foreign', why: folder };
  if (!s.isSocket()) return { state: 'foreign', why: 'it is not a socket' };
  if (s.uid === 0) return { state: 'foreign', why: "it is root's, not the daemon account's" };
  // The managed layer is never the caller's own account: a process of it could answer anything.
  if (s.uid === process.geteuid?.()) return { state: 'foreign', why: "it is your own account's" };
  return { state: 'usable', owner: s.uid };
}
