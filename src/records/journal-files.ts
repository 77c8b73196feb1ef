/**
 * [R-HOOK-3] [T-SELF-3] The only ways a journal file is opened. The folder and its segments are
 * in reach of the agent (it runs as the user): a FIFO, a socket, a device, a symbolic link to
 * `/dev/zero`, a folder or a huge file may sit where a segment should be. Each is looked at with
 * lstat first and never opened unless it is a regular file; opens use O_NOFOLLOW and O_NONBLOCK
 * (a FIFO swapped in after the look cannot block the open) and fstat decides again on what was
 * opened. Nothing here can wait on another process, so nothing stalls the daemon's or the
 * server's event loop. No zod: `hookwerk hook` loads this to append [R-HOOK-4].
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { errorCode, errorMessage } from '../core/errno.ts';
import { describe } from '../core/read-source.ts';

/** What a look at a journal path found. */
export type JournalPath =
  | { kind: 'missing' }
  | { kind: 'ok'; stats: Stats }
  /** `why` reads after the path: `is a FIFO, not a regular file`. */
  | { kind: 'refused'; why: string };

/** An open segment and what fstat said of it. */
export interface OpenSegment {
  kind: 'open';
  fd: number;
  size: number;
  mtimeMs: number;
}

export type SegmentOpen =
  | OpenSegment
  | { kind: 'missing' }
  | { kind: 'exists' }
  | { kind: 'refused'; why: string };

// O_NOCTTY: a terminal swapped in must not become ours. O_NONBLOCK: a FIFO must not wait for a
// peer (a write-only open of one without a reader fails with ENXIO instead).
const SAFE = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const READ = constants.O_RDONLY | SAFE;
const APPEND = constants.O_WRONLY | constants.O_APPEND | SAFE;

/** The journal folder: a real folder (not a link to one), or missing. */
export function lookAtFolder(dir: string): JournalPath {
  const found = look(dir);
  if (found.kind !== 'ok' || found.stats.isDirectory()) return found;
  return { kind: 'refused', why: `is ${kindOf(found.stats)}, not a folder` };
}

/** A segment: a regular file (not a link to one), or missing. */
export function lookAtSegment(file: string): JournalPath {
  const found = look(file);
  if (found.kind !== 'ok' || found.stats.isFile()) return found;
  return { kind: 'refused', why: `is ${kindOf(found.stats)}, not a regular file` };
}

/**
 * Opens segment `file` to read, if it is a regular file of at most `maxBytes` (a larger one is
 * not one of ours: the whole journal is bounded by less). Looked at before it is opened.
 */
export function openSegmentToRead(file: string, maxBytes: number): SegmentOpen {
  const seen = lookAtSegment(file);
  if (seen.kind !== 'ok') return seen;
  if (seen.stats.size > maxBytes) return tooLarge(seen.stats.size, maxBytes);
  const opened = openChecked(file, READ);
  if (opened.kind === 'open' && opened.size > maxBytes) {
    closeSync(opened.fd);
    return tooLarge(opened.size, maxBytes);
  }
  return opened;
}

/**
 * Opens segment `file` to append: an existing one (`create: 'no'`), a new one that must not
 * exist yet (`'new'`, O_EXCL: the writer that wins a rotation), or either (`'any'`).
 */
export function openSegmentToAppend(file: string, create: 'no' | 'new' | 'any'): SegmentOpen {
  if (create !== 'new') {
    const seen = lookAtSegment(file);
    if (seen.kind === 'refused' || (seen.kind === 'missing' && create === 'no')) return seen;
  }
  const flags =
    create === 'no'
      ? APPEND
      : create === 'new'
        ? APPEND | constants.O_CREAT | constants.O_EXCL
        : APPEND | constants.O_CREAT;
  return openChecked(file, flags);
}

/** Opens with `flags` (O_NOFOLLOW, O_NONBLOCK), then keeps the descriptor only for a regular file. */
function openChecked(file: string, flags: number): SegmentOpen {
  let fd: number;
  try {
    fd = openSync(file, flags, 0o600);
  } catch (err) {
    return fromOpenError(err);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { kind: 'open', fd, size: stats.size, mtimeMs: stats.mtimeMs };
    closeSync(fd);
    return { kind: 'refused', why: `is ${kindOf(stats)}, not a regular file` };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

function look(file: string): JournalPath {
  // Missing is an answer, not an error: no exception built (an append asks for the next segment,
  // which is missing, every time).
  const stats = lstatSync(file, { throwIfNoEntry: false });
  return stats === undefined ? { kind: 'missing' } : { kind: 'ok', stats };
}

/**
 * What an open that the look did not foresee says about the path (it changed in between):
 * ELOOP a link (O_NOFOLLOW), ENXIO a FIFO without a reader or a socket, EISDIR a directory.
 */
function fromOpenError(err: unknown): SegmentOpen {
  const code = errorCode(err);
  if (code === 'ENOENT') return { kind: 'missing' };
  if (code === 'EEXIST') return { kind: 'exists' };
  if (code === 'ELOOP') return { kind: 'refused', why: 'is a symbolic link, not a regular file' };
  if (code === 'ENXIO') return { kind: 'refused', why: 'is a FIFO or a socket, not a regular file' };
  if (code === 'EISDIR') return { kind: 'refused', why: 'is a directory, not a regular file' };
  throw err instanceof Error ? err : new Error(errorMessage(err));
}

function kindOf(stats: Stats): string {
  return stats.isSymbolicLink() ? 'a symbolic link' : describe(stats);
}

function tooLarge(size: number, maxBytes: number): SegmentOpen {
  return { kind: 'refused', why: `is ${size} bytes, more than the whole journal's bound (${maxBytes})` };
}
