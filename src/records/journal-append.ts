/**
 * [R-HOOK-3] Appending to the journal, from many short-lived processes at once and with no lock:
 * every append is one `write()` of whole lines on an O_APPEND descriptor (the kernel never
 * interleaves two of them), and a full segment is followed by exactly one next (O_EXCL). A newest
 * segment that is not a regular file is never opened: the runs go to the next number [T-SELF-3].
 * No zod here: `hookwerk hook` may append without loading the reader's schema.
 */
import { closeSync, mkdirSync, unlinkSync, writeSync } from 'node:fs';
import { isErrno } from '../core/errno.ts';
import { HookwerkError } from '../core/errors.ts';
import type { JournalEntry } from './journal-entry.ts';
import { lookAtFolder, lookAtSegment, openSegmentToAppend, type SegmentOpen } from './journal-files.ts';
import {
  JOURNAL_MAX_BYTES,
  JOURNAL_SEGMENT_BYTES,
  listSegments,
  MAX_SEGMENT_SEQ,
  segmentFile,
} from './journal-segments.ts';
import { truncateEntry } from './truncate-entry.ts';

/** Rotation races lost in a row before a writer appends to whatever is newest (never loops). */
const MAX_ATTEMPTS = 8;

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
 * or not a regular file (then the oldest past the bound are deleted). Synchronous; throws on I/O
 * errors, and with code `JOURNAL` when the folder is not a folder (a FIFO, a link…). Returns one
 * line for each segment it skipped unopened, for the caller's stderr [T-SELF-3].
 */
export function appendJournal(
  dir: string,
  entries: readonly JournalEntry[],
  bounds: JournalBounds = DEFAULT_BOUNDS,
): string[] {
  if (entries.length === 0) return [];
  let text = '';
  for (const entry of entries) text += `${JSON.stringify(truncateEntry(entry))}\n`;
  const data = Buffer.from(text, 'utf8');
  makeFolder(dir);
  const notes: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MAX_ATTEMPTS;
    const newest = listSegments(dir).at(-1);
    if (newest === undefined) {
      writeAll(opened(openSegmentToAppend(segmentFile(dir, 1), 'any'), segmentFile(dir, 1)), data);
      return notes;
    }
    const file = segmentFile(dir, newest);
    const current = openSegmentToAppend(file, last ? 'any' : 'no');
    if (current.kind === 'open') {
      if (current.size === 0 || current.size + data.length <= bounds.segmentBytes || last) {
        writeAll(current.fd, data);
        return notes;
      }
      closeSync(current.fd);
    } else if (current.kind === 'refused') {
      const note = `journal segment ${file} ${current.why}: skipped, not opened; runs go to the next segment`;
      if (!notes.includes(note)) notes.push(note);
    } else {
      // Deleted since the listing (a burst of rotations): look again.
      continue;
    }
    // Full, or not ours to open: one writer creates the next segment; one that loses the race
    // looks again and appends to the segment the winner made.
    if (newest >= MAX_SEGMENT_SEQ) throw refused(`journal segment numbers in ${dir} are used up (${file})`);
    const nextFile = segmentFile(dir, newest + 1);
    const next = openSegmentToAppend(nextFile, last ? 'any' : 'new');
    if (next.kind === 'exists') continue;
    writeAll(opened(next, nextFile), data);
    prune(dir, bounds);
    return notes;
  }
}

/** The folder, made 0700 when missing; one that is not a folder (a FIFO, a link) is refused. */
function makeFolder(dir: string): void {
  const seen = lookAtFolder(dir);
  if (seen.kind === 'refused') throw refused(`the journal folder ${dir} ${seen.why}`);
  if (seen.kind === 'missing') mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** The descriptor of an open that must have worked (a new segment): else an error naming the file. */
function opened(result: SegmentOpen, file: string): number {
  if (result.kind === 'open') return result.fd;
  if (result.kind === 'refused') throw refused(`journal segment ${file} ${result.why}`);
  throw refused(
    `journal segment ${file} could not be created (${result.kind === 'missing' ? 'its folder is gone' : 'it exists'})`,
  );
}

function refused(message: string): HookwerkError {
  return new HookwerkError('JOURNAL', message);
}

/**
 * Deletes the oldest segments until the rest fit the bound with a full current segment: the
 * total stays ≤ `maxBytes` (give or take what racing writers add to a segment they found not yet
 * full). Any writer may run this; a segment already gone is no error. Only regular files count
 * and go: what else sits under a segment's name stays, never opened, for its owner to see.
 */
function prune(dir: string, bounds: JournalBounds): void {
  const seqs = listSegments(dir);
  let kept = bounds.segmentBytes;
  for (let i = seqs.length - 2; i >= 0; i--) {
    const seen = lookAtSegment(segmentFile(dir, seqs[i] ?? 0));
    if (seen.kind !== 'ok') continue;
    kept += seen.stats.size;
    if (kept <= bounds.maxBytes) continue;
    for (let j = i; j >= 0; j--) {
      const file = segmentFile(dir, seqs[j] ?? 0);
      if (lookAtSegment(file).kind === 'ok') unlinkQuietly(file);
    }
    return;
  }
}

/** Gone already (another writer pruned), or swapped for a directory since the look: no error. */
function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if (!isErrno(err, 'ENOENT') && !isErrno(err, 'EISDIR')) throw err;
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
