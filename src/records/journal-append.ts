/**
 * [R-HOOK-3] [T-SELF-3] Appending to the journal, from many short-lived processes at once: under
 * the journal's lock (`journal-lock.ts`, a bounded wait) a writer finds the chain's tip (usually
 * the head says it, and which segment: the folder is not listed, `openAtHead`), chains its records
 * to it and appends them in one `write()` on an O_APPEND descriptor (the kernel never interleaves
 * two), then moves the head. A full segment is followed by exactly one next (O_EXCL);
 * the writer that starts it drops the oldest past the bound and leaves a `rotated` marker in the
 * chain. A newest segment that is not a regular file is never opened: the runs go to the next
 * number. No zod here: `hookwerk hook` may append without loading the reader's schema.
 */
import { closeSync, mkdirSync, unlinkSync, writeSync } from 'node:fs';
import { isErrno } from '../core/errno.ts';
import { HookwerkError } from '../core/errors.ts';
import { chainedJson, readChainLine } from './journal-chain.ts';
import type { JournalEntry } from './journal-entry.ts';
import { lookAtFolder, lookAtSegment, openSegmentToAppend, type SegmentOpen } from './journal-files.ts';
import { type ChainHead, openHead } from './journal-head.ts';
import { DEFAULT_LOCK_TIMES, type LockTimes, lockJournal } from './journal-lock.ts';
import { countLockWait } from './journal-lock-counts.ts';
import {
  JOURNAL_MAX_BYTES,
  JOURNAL_SEGMENT_BYTES,
  listSegments,
  MAX_SEGMENT_SEQ,
  segmentFile,
} from './journal-segments.ts';
import { type ChainTip, findTip, readRange, SCAN_BYTES } from './journal-tip.ts';
import { truncateEntry } from './truncate-entry.ts';

/** Rotation races lost in a row before a writer appends to whatever is newest (never loops). */
const MAX_ATTEMPTS = 8;
/** What `prev` and `hash` add to a line, for the "is the segment full" estimate. */
const CHAIN_BYTES = 160;

export interface JournalBounds {
  /** The total the segments may take before the oldest are deleted. */
  maxBytes: number;
  /** Size after which the next append starts a new segment (≤ maxBytes). */
  segmentBytes: number;
  /** The append lock's wait and stale bounds (tests make them small). */
  lock?: LockTimes;
}

const DEFAULT_BOUNDS: JournalBounds = { maxBytes: JOURNAL_MAX_BYTES, segmentBytes: JOURNAL_SEGMENT_BYTES };

/** Where a batch goes: an open segment, and whether this writer just made it. */
interface Target {
  fd: number;
  seq: number;
  size: number;
  made: boolean;
}

/**
 * Adds `entries` to the journal in `dir` (`journalDir(home)`, or any folder: the managed journal
 * uses another) in one write, chained [T-SELF-3], to the current segment, or to a new one when it
 * is full or not a regular file (then the oldest past the bound are deleted). Synchronous; throws
 * on I/O errors, and with code `JOURNAL` when the folder is not a folder (a FIFO, a link…).
 * Returns one line for each thing the caller's stderr should say: a segment skipped unopened, a
 * lock that was busy past its bound (the runs were appended without it).
 */
export function appendJournal(
  dir: string,
  entries: readonly JournalEntry[],
  bounds: JournalBounds = DEFAULT_BOUNDS,
): string[] {
  if (entries.length === 0) return [];
  const values = entries.map((e) => truncateEntry(e));
  makeFolder(dir);
  const notes: string[] = [];
  const lock = lockJournal(dir, bounds.lock ?? DEFAULT_LOCK_TIMES);
  if (lock.kind === 'busy') {
    // Past the bound the runs are still written, marked `unlocked`, never dropped.
    notes.push(`${lock.why}: runs appended without it (runs --verify may show a fork)`);
    countLockWait(dir, 'gave_up');
  } else if (lock.waited) countLockWait(dir, 'waited');
  try {
    // Serialized once: the estimate and the chained lines use the same text.
    const jsons = values.map((v) => JSON.stringify(v));
    let estimate = 0;
    for (const json of jsons) estimate += json.length + CHAIN_BYTES;
    const headFile = openHead(dir, true);
    try {
      const head = headFile?.head;
      const atHead = head === undefined ? undefined : openAtHead(dir, head, estimate, bounds);
      const seqs = atHead === undefined ? listSegments(dir) : [];
      const target = atHead ?? openTarget(dir, seqs, estimate, bounds, notes);
      try {
        let tip: ChainTip;
        let drop: number[] = [];
        if (atHead !== undefined && head !== undefined) {
          // The usual append: the segment is as hookwerk left it, and has room.
          tip = { prev: head.hash, torn: false };
        } else {
          const newest = seqs.at(-1);
          const newestSize = target.seq === newest ? target.size : sizeIfRegular(dir, newest);
          tip = findTip(dir, seqs, head, newestSize, bounds.maxBytes);
          if (target.made) drop = dropPlan(dir, [...seqs, target.seq], bounds);
        }
        const unlocked = lock.kind === 'busy';
        const { text, last } = chain(jsons, tip, drop, dir, target, bounds.maxBytes, unlocked);
        const data = Buffer.from(text, 'utf8');
        writeAll(target.fd, data);
        for (const seq of drop) unlinkQuietly(segmentFile(dir, seq));
        try {
          headFile?.write({ seq: target.seq, size: target.size + data.length, hash: last });
        } catch {
          // The head is a cache: the next writer reads the segment's tail instead.
        }
      } finally {
        closeSync(target.fd);
      }
    } finally {
      headFile?.close();
    }
  } finally {
    if (lock.kind === 'held') lock.release();
  }
  return notes;
}

/** The chained lines: a `foreign` marker first when the tip found one, the runs, then `rotated`. */
function chain(
  jsons: readonly string[],
  tip: ChainTip,
  drop: readonly number[],
  dir: string,
  target: Target,
  maxBytes: number,
  unlocked: boolean,
): { text: string; last: string } {
  const lines: string[] = [];
  let prev = tip.prev;
  const add = (json: string): void => {
    const made = chainedJson(json, prev, unlocked);
    lines.push(made.line);
    prev = made.hash;
  };
  const marker = (value: object) => add(JSON.stringify({ ...value, at: new Date().toISOString() }));
  if (tip.foreign !== undefined) marker({ foreign: tip.foreign });
  for (const json of jsons) add(json);
  const from = drop[0];
  const to = drop.at(-1);
  if (from !== undefined && to !== undefined) {
    // The dropped range's last hash: what the oldest segment kept chains its first record to.
    const keptFirst = to + 1 === target.seq ? tip.prev : firstPrev(dir, to + 1, maxBytes);
    marker({ rotated: { from, to, last: keptFirst ?? null } });
  }
  // A torn last line (a writer killed mid-write, or someone's bytes) must not swallow ours.
  const lead = tip.torn && !target.made && target.size > 0 ? '\n' : '';
  return { text: `${lead}${lines.join('\n')}\n`, last: prev };
}

/** The `prev` of the first record of segment `seq` (within its first SCAN_BYTES). */
function firstPrev(dir: string, seq: number, maxBytes: number): string | undefined {
  const text = readRange(dir, seq, 0, SCAN_BYTES, maxBytes);
  if (text === undefined) return undefined;
  for (const line of text.split('\n')) {
    const seen = readChainLine(line);
    if (seen.kind === 'record') return seen.prev;
  }
  return undefined;
}

/**
 * The head's segment opened to append, when the head tells the whole story: that segment is
 * exactly as hookwerk's last append left it (regular, the head's size), the batch fits, and the
 * next number is free. Then the folder is not listed (a listing costs as much as the rest of an
 * append): segments are made only by writers going to the next number, O_EXCL. Anything else
 * (bytes someone added, a rotation due, a next segment there, a head that is missing or
 * hostile) takes the full way, which lists the folder; so does a segment planted further up,
 * found at the next rotation or head mismatch, and by readers and `--verify`, which list.
 */
function openAtHead(
  dir: string,
  head: ChainHead,
  estimate: number,
  bounds: JournalBounds,
): Target | undefined {
  if (head.seq >= MAX_SEGMENT_SEQ) return undefined;
  const open = openSegmentToAppend(segmentFile(dir, head.seq), 'no');
  if (open.kind !== 'open') return undefined;
  const fits = open.size === 0 || open.size + estimate <= bounds.segmentBytes;
  if (open.size === head.size && fits && lookAtSegment(segmentFile(dir, head.seq + 1)).kind === 'missing')
    return { fd: open.fd, seq: head.seq, size: open.size, made: false };
  closeSync(open.fd);
  return undefined;
}

/**
 * The segment this batch goes to: the newest when it has room, else a new one. Only one of
 * racing writers (without the lock) makes the next number; the others look again.
 */
function openTarget(
  dir: string,
  seqs: readonly number[],
  estimate: number,
  bounds: JournalBounds,
  notes: string[],
): Target {
  let list = seqs;
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MAX_ATTEMPTS;
    const newest = list.at(-1);
    if (newest === undefined) {
      const file = segmentFile(dir, 1);
      const open = opened(openSegmentToAppend(file, 'any'), file);
      return { fd: open.fd, seq: 1, size: open.size, made: open.size === 0 };
    }
    const file = segmentFile(dir, newest);
    const current = openSegmentToAppend(file, last ? 'any' : 'no');
    if (current.kind === 'open') {
      if (current.size === 0 || current.size + estimate <= bounds.segmentBytes || last)
        return { fd: current.fd, seq: newest, size: current.size, made: false };
      closeSync(current.fd);
    } else if (current.kind === 'refused') {
      const note = `journal segment ${file} ${current.why}: skipped, not opened; runs go to the next segment`;
      if (!notes.includes(note)) notes.push(note);
    } else {
      // Deleted since the listing (a burst of rotations): look again.
      list = listSegments(dir);
      continue;
    }
    if (newest >= MAX_SEGMENT_SEQ) throw refused(`journal segment numbers in ${dir} are used up (${file})`);
    const nextFile = segmentFile(dir, newest + 1);
    const next = openSegmentToAppend(nextFile, last ? 'any' : 'new');
    if (next.kind === 'exists') {
      list = listSegments(dir);
      continue;
    }
    const open = opened(next, nextFile);
    return { fd: open.fd, seq: newest + 1, size: open.size, made: true };
  }
}

function sizeIfRegular(dir: string, seq: number | undefined): number | undefined {
  if (seq === undefined) return undefined;
  const seen = lookAtSegment(segmentFile(dir, seq));
  return seen.kind === 'ok' ? seen.stats.size : undefined;
}

/** The folder, made 0700 when missing; one that is not a folder (a FIFO, a link) is refused. */
function makeFolder(dir: string): void {
  const seen = lookAtFolder(dir);
  if (seen.kind === 'refused') throw refused(`the journal folder ${dir} ${seen.why}`);
  if (seen.kind === 'missing') mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** An open that must have worked (a new segment): else an error naming the file. */
function opened(result: SegmentOpen, file: string): { fd: number; size: number } {
  if (result.kind === 'open') return result;
  if (result.kind === 'refused') throw refused(`journal segment ${file} ${result.why}`);
  throw refused(
    `journal segment ${file} could not be created (${result.kind === 'missing' ? 'its folder is gone' : 'it exists'})`,
  );
}

function refused(message: string): HookwerkError {
  return new HookwerkError('JOURNAL', message);
}

/**
 * The oldest segments to delete so that the rest fit the bound with a full current segment
 * (`seqs` ends with the one just made): the total stays ≤ `maxBytes` (give or take what racing
 * writers add). Only regular files count and go: what else sits under a segment's name stays,
 * never opened, for its owner to see.
 */
function dropPlan(dir: string, seqs: readonly number[], bounds: JournalBounds): number[] {
  let kept = bounds.segmentBytes;
  for (let i = seqs.length - 2; i >= 0; i--) {
    const seen = lookAtSegment(segmentFile(dir, seqs[i] ?? 0));
    if (seen.kind !== 'ok') continue;
    kept += seen.stats.size;
    if (kept <= bounds.maxBytes) continue;
    return seqs.slice(0, i + 1).filter((s) => lookAtSegment(segmentFile(dir, s)).kind === 'ok');
  }
  return [];
}

/** Gone already (another writer pruned), or swapped for a directory since the look: no error. */
function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if (!isErrno(err, 'ENOENT') && !isErrno(err, 'EISDIR')) throw err;
  }
}

/** Writes `data`: one write() for the whole batch, O_APPEND keeps it in one piece. */
function writeAll(fd: number, data: Buffer): void {
  let done = writeSync(fd, data);
  // A short write happens only on a full disk or a signal; the rest follows (or fails).
  while (done < data.length) done += writeSync(fd, data, done);
}
