/**
 * [R-HOOK-3] The agents' audit trail: every run of `hookwerk hook` (and of the daemon, and of the
 * MCP proxy) as JSON lines in `<home>/.hookwerk/records/`, bounded. Written by many short-lived
 * processes at once, so every append is one `write()` of whole lines on an O_APPEND descriptor
 * (the kernel never interleaves two of them), and the folder needs no lock: segments are numbered,
 * the newest is the current one, and a full one is followed by exactly one next (O_EXCL).
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { isErrno } from '../core/errno.ts';
import { InvalidOptionError } from '../core/errors.ts';
import type { JournalEntry } from './journal-entry.ts';
import { journalEntrySchema } from './journal-entry-schema.ts';
import { truncateEntry } from './truncate-entry.ts';

/** SPEC [R-HOOK-3]: "oldest dropped past 64 MiB". */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024;
/** One segment: the unit the bound drops, and the most a reader scans to find a few lines. */
export const JOURNAL_SEGMENT_BYTES = 8 * 1024 * 1024;
/** A line longer than this is not one of ours (entries are ~50 KiB at most): skipped unread. */
const MAX_LINE_BYTES = 1024 * 1024;
/** Bytes read at a time, from the end of a segment backwards. */
const CHUNK_BYTES = 64 * 1024;
/** Rotation races lost in a row before a writer appends to whatever is newest (never loops). */
const MAX_ATTEMPTS = 8;
/** File systems with coarse modification times: a segment counts as older than `since` only by this much. */
const MTIME_SLACK_MS = 2000;

const SEGMENT = /^runs-(\d{1,15})\.jsonl$/;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW;

/** Where the journal of `home` lives [R-HOOK-3]. */
export function journalDir(home: string): string {
  return path.join(home, '.hookwerk', 'records');
}

export interface RunJournalOptions {
  /** The total the segments may take before the oldest are deleted; default 64 MiB. */
  maxBytes?: number;
  /** Size after which the next append starts a new segment; default 8 MiB. */
  segmentBytes?: number;
}

export interface JournalQuery {
  /** Only this agent's runs. */
  agent?: string;
  /** Only runs scheduled at or after this time. */
  since?: Date;
  /** At most this many (the newest). */
  limit?: number;
}

export interface JournalRead {
  /** Newest first: the order they were written in, reversed. */
  entries: JournalEntry[];
  /** Lines of the segments read that were not entries (torn, edited, foreign): skipped. */
  skipped: number;
  /** Segments deleted at the bound so far (their numbers are never reused, so the gap says it). */
  droppedSegments: number;
}

/** A bounded, multi-process journal of agents' runs in one folder. */
export class RunJournal {
  readonly dir: string;
  readonly maxBytes: number;
  readonly segmentBytes: number;

  constructor(dir: string, opts: RunJournalOptions = {}) {
    this.dir = dir;
    this.maxBytes = opts.maxBytes ?? JOURNAL_MAX_BYTES;
    this.segmentBytes = opts.segmentBytes ?? Math.min(JOURNAL_SEGMENT_BYTES, this.maxBytes);
    if (!Number.isSafeInteger(this.segmentBytes) || this.segmentBytes < 1)
      throw new InvalidOptionError('journal segmentBytes must be a whole number ≥ 1');
    if (!Number.isSafeInteger(this.maxBytes) || this.maxBytes < this.segmentBytes)
      throw new InvalidOptionError('journal maxBytes must be a whole number ≥ segmentBytes');
  }

  /**
   * Adds `entries` in one write (whole lines, never interleaved with another process's), to the
   * current segment, or to a new one when it is full (then the oldest past the bound are deleted).
   * Synchronous: a CLI that is about to exit calls it last. Throws on I/O errors.
   */
  append(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    let text = '';
    for (const entry of entries) text += `${JSON.stringify(truncateEntry(entry))}\n`;
    const data = Buffer.from(text, 'utf8');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= MAX_ATTEMPTS;
      const newest = this.#segments().at(-1);
      if (newest === undefined) {
        writeAll(this.#open(1, constants.O_CREAT), data);
        return;
      }
      let fd: number;
      try {
        fd = this.#open(newest, last ? constants.O_CREAT : 0);
      } catch (err) {
        // Deleted since the listing (a burst of rotations): look again.
        if (isErrno(err, 'ENOENT')) continue;
        throw err;
      }
      const size = fstatOrClose(fd);
      if (size === 0 || size + data.length <= this.segmentBytes || last) {
        writeAll(fd, data);
        return;
      }
      closeSync(fd);
      // Full: one writer creates the next segment; one that loses the race looks again and
      // appends to the segment the winner made.
      try {
        fd = this.#open(newest + 1, constants.O_CREAT | constants.O_EXCL);
      } catch (err) {
        if (isErrno(err, 'EEXIST')) continue;
        throw err;
      }
      writeAll(fd, data);
      this.#prune();
      return;
    }
  }

  /**
   * Entries newest first, filtered. Reads segments from the newest backwards and stops at
   * `limit`; with `since`, segments last written before it are not read at all.
   */
  read(query: JournalQuery = {}): JournalRead {
    const limit = query.limit ?? Number.POSITIVE_INFINITY;
    const since = query.since?.getTime();
    const seqs = this.#segments();
    const out: JournalRead = {
      entries: [],
      skipped: 0,
      droppedSegments: seqs.length === 0 ? 0 : (seqs[0] ?? 1) - 1,
    };
    for (let i = seqs.length - 1; i >= 0 && out.entries.length < limit; i--) {
      const file = this.#file(seqs[i] ?? 0);
      let fd: number;
      try {
        fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (err) {
        if (isErrno(err, 'ENOENT')) continue;
        throw err;
      }
      try {
        const stat = fstatSync(fd);
        // Every entry's `at` is before the write that stored it, so before the segment's mtime.
        if (since !== undefined && stat.mtimeMs + MTIME_SLACK_MS < since) continue;
        for (const line of linesBackwards(fd, stat.size)) {
          const entry = line === undefined ? undefined : parseLine(line);
          if (entry === undefined) {
            out.skipped++;
            continue;
          }
          if (entry === null) continue;
          if (query.agent !== undefined && entry.agent !== query.agent) continue;
          if (since !== undefined && !(Date.parse(entry.at) >= since)) continue;
          out.entries.push(entry);
          if (out.entries.length >= limit) break;
        }
      } finally {
        closeSync(fd);
      }
    }
    return out;
  }

  /** Sequence numbers of the segments, oldest first; none when the folder does not exist. */
  #segments(): number[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return [];
      throw err;
    }
    const seqs: number[] = [];
    for (const name of names) {
      const m = SEGMENT.exec(name);
      if (m !== null) seqs.push(Number(m[1]));
    }
    return seqs.sort((a, b) => a - b);
  }

  #file(seq: number): string {
    // Zero-padded: `ls` shows them in order.
    return path.join(this.dir, `runs-${String(seq).padStart(12, '0')}.jsonl`);
  }

  #open(seq: number, flags: number): number {
    return openSync(this.#file(seq), APPEND | flags, 0o600);
  }

  /**
   * Deletes the oldest segments until the rest fit the bound with a full current segment:
   * the total stays ≤ `maxBytes` (give or take what racing writers add to a segment they found
   * not yet full). Any writer may run this; a segment already gone is no error.
   */
  #prune(): void {
    const seqs = this.#segments();
    let kept = this.segmentBytes;
    for (let i = seqs.length - 2; i >= 0; i--) {
      const file = this.#file(seqs[i] ?? 0);
      let size = 0;
      try {
        size = statSync(file).size;
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
      }
      kept += size;
      if (kept <= this.maxBytes) continue;
      for (let j = i; j >= 0; j--) {
        try {
          unlinkSync(this.#file(seqs[j] ?? 0));
        } catch (err) {
          if (!isErrno(err, 'ENOENT')) throw err;
        }
      }
      return;
    }
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

/**
 * `undefined`: not an entry (skip and count); `null`: a blank line (skip quietly); else the entry.
 */
function parseLine(line: Buffer): JournalEntry | undefined | null {
  const text = line.toString('utf8');
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = journalEntrySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The complete lines of the first `size` bytes of `fd`, last first, reading backwards a chunk at a
 * time. A last line without its newline (a write in progress, or torn) is left out; a line over
 * MAX_LINE_BYTES comes as `undefined`, unread.
 */
function* linesBackwards(fd: number, size: number): Generator<Buffer | undefined> {
  let pos = size;
  // The line being assembled, its later pieces first (read backwards).
  let pieces: Buffer[] = [];
  let pending = 0;
  let tooLong = false;
  // Until the first newline from the end is seen, what was read is the unfinished last line.
  let inTail = true;
  const take = (): Buffer | undefined => {
    const line = tooLong ? undefined : Buffer.concat(pieces.reverse(), pending);
    pieces = [];
    pending = 0;
    tooLong = false;
    return line;
  };
  while (pos > 0) {
    const len = Math.min(CHUNK_BYTES, pos);
    pos -= len;
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = readSync(fd, buf, got, len - got, pos + got);
      if (n === 0) break;
      got += n;
    }
    let end = got;
    while (end > 0) {
      const nl = buf.lastIndexOf(0x0a, end - 1);
      if (nl < 0) break;
      add(buf.subarray(nl + 1, end));
      if (inTail) {
        inTail = false;
        take();
      } else yield take();
      end = nl;
    }
    add(buf.subarray(0, end));
  }
  // The file's first line (it ended at a newline unless the file has none at all).
  if (!inTail && (pending > 0 || tooLong)) yield take();

  function add(piece: Buffer): void {
    if (tooLong || piece.length === 0) return;
    pending += piece.length;
    if (pending > MAX_LINE_BYTES) {
      tooLong = true;
      pieces = [];
    } else pieces.push(piece);
  }
}
