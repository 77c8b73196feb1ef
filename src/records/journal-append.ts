/**
 * [R-HOOK-3] Appending to the journal, from many short-lived processes at once and with no lock:
 * every append is one `write()` of whole lines on an O_APPEND descriptor (the kernel never
 * interleaves two of them), and a full segment is followed by exactly one next (O_EXCL). No zod
 * here: `hookwerk hook` may append without loading the reader's schema.
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { isErrno } from '../core/errno.ts';
import type { JournalEntry } from './journal-entry.ts';
import { JOURNAL_MAX_BYTES, JOURNAL_SEGMENT_BYTES, listSegments, segmentFile } from './journal-segments.ts';
import { truncateEntry } from './truncate-entry.ts';

/** Rotation races lost in a row before a writer appends to whatever is newest (never loops). */
const MAX_ATTEMPTS = 8;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW;

export interface JournalBounds {
  /** The total the segments may take before the oldest are deleted. */
  maxBytes: number;
  /** Size after which the next append starts a new segment (≤ maxBytes). */
  segmentBytes: number;
}

const DEFAULT_BOUNDS: JournalBounds = { maxBytes: JOURNAL_MAX_BYTES, segmentBytes: JOURNAL_SEGMENT_BYTES };

/**
 * Adds `entries` to the journal in `dir` (`journalDir(home)`) in one write (whole lines, never
 * interleaved with another process's), to the current segment, or to a new one when it is full
 * (then the oldest past the bound are deleted). Synchronous; throws on I/O errors.
 */
export function appendJournal(
  dir: string,
  entries: readonly JournalEntry[],
  bounds: JournalBounds = DEFAULT_BOUNDS,
): void {
  if (entries.length === 0) return;
  let text = '';
  for (const entry of entries) text += `${JSON.stringify(truncateEntry(entry))}\n`;
  const data = Buffer.from(text, 'utf8');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const open = (seq: number, flags: number) => openSync(segmentFile(dir, seq), APPEND | flags, 0o600);
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MAX_ATTEMPTS;
    const newest = listSegments(dir).at(-1);
    if (newest === undefined) {
      writeAll(open(1, constants.O_CREAT), data);
      return;
    }
    let fd: number;
    try {
      fd = open(newest, last ? constants.O_CREAT : 0);
    } catch (err) {
      // Deleted since the listing (a burst of rotations): look again.
      if (isErrno(err, 'ENOENT')) continue;
      throw err;
    }
    const size = fstatOrClose(fd);
    if (size === 0 || size + data.length <= bounds.segmentBytes || last) {
      writeAll(fd, data);
      return;
    }
    closeSync(fd);
    // Full: one writer creates the next segment; one that loses the race looks again and
    // appends to the segment the winner made.
    try {
      fd = open(newest + 1, constants.O_CREAT | constants.O_EXCL);
    } catch (err) {
      if (isErrno(err, 'EEXIST')) continue;
      throw err;
    }
    writeAll(fd, data);
    prune(dir, bounds);
    return;
  }
}

/**
 * Deletes the oldest segments until the rest fit the bound with a full current segment: the
 * total stays ≤ `maxBytes` (give or take what racing writers add to a segment they found not yet
 * full). Any writer may run this; a segment already gone is no error.
 */
function prune(dir: string, bounds: JournalBounds): void {
  const seqs = listSegments(dir);
  let kept = bounds.segmentBytes;
  for (let i = seqs.length - 2; i >= 0; i--) {
    let size = 0;
    try {
      size = statSync(segmentFile(dir, seqs[i] ?? 0)).size;
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    kept += size;
    if (kept <= bounds.maxBytes) continue;
    for (let j = i; j >= 0; j--) {
      try {
        unlinkSync(segmentFile(dir, seqs[j] ?? 0));
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
      }
    }
    return;
  }
}

function fstatOrClose(fd: number): number {
  try {
    return fstatSync(fd).size;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Writes `data` and closes `fd`. One write() for the whole batch: O_APPEND keeps it in one piece. */
function writeAll(fd: number, data: Buffer): void {
  try {
    let done = writeSync(fd, data);
    // A short write happens only on a full disk or a signal; the rest follows (or fails).
    while (done < data.length) done += writeSync(fd, data, done);
  } finally {
    closeSync(fd);
  }
}
