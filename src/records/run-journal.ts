/**
 * [R-HOOK-3] The agents' audit trail: every run of `hookwerk hook` (and of the daemon, and of the
 * MCP proxy) as JSON lines in `<home>/.hookwerk/records/`, bounded, written by many processes at
 * once (`journal-append.ts`) and read back newest first.
 */
import { closeSync } from 'node:fs';
import { InvalidOptionError } from '../core/errors.ts';
import { appendJournal, type JournalBounds } from './journal-append.ts';
import type { JournalEntry } from './journal-entry.ts';
import { journalEntrySchema } from './journal-entry-schema.ts';
import { lookAtFolder, openSegmentToRead } from './journal-files.ts';
import type { LockTimes } from './journal-lock.ts';
import { JOURNAL_MAX_BYTES, JOURNAL_SEGMENT_BYTES, listSegments, segmentFile } from './journal-segments.ts';
import { type JournalVerdict, verifyJournal } from './journal-verify.ts';
import { linesBackwards } from './lines-backwards.ts';

/** A line longer than this is not one of ours (entries are ~50 KiB at most): skipped unread. */
const MAX_LINE_BYTES = 1024 * 1024;
/**
 * [T-SELF-3] With `since`, reading stops at the first entry this much older than it. The journal is
 * in write order; a run is written at most its call's timeout (1 hour at most, every agent) after
 * its `at`. The records' own times decide, never a segment's mtime (`touch -d` moves that).
 */
const RUN_SLACK_MS = 2 * 3_600_000;

export interface RunJournalOptions {
  /** The total the segments may take before the oldest are deleted; default 64 MiB. */
  maxBytes?: number;
  /** Size after which the next append starts a new segment; default 8 MiB. */
  segmentBytes?: number;
  /** [T-SELF-3] The append lock's bounds (default: wait 200 ms, stale after 2 s). */
  lock?: LockTimes;
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
  /**
   * [T-SELF-3] One line for each journal file not read: a segment that is not a regular file (or
   * is larger than the whole journal's bound), never opened; a folder that is not a folder.
   */
  refused: string[];
}

/** A bounded, multi-process journal of agents' runs in one folder. */
export class RunJournal {
  readonly dir: string;
  readonly maxBytes: number;
  readonly segmentBytes: number;
  readonly #lock: LockTimes | undefined;

  constructor(dir: string, opts: RunJournalOptions = {}) {
    this.dir = dir;
    this.#lock = opts.lock;
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
   * Synchronous: a CLI that is about to exit calls it last. Throws on I/O errors. Returns one
   * line for each segment skipped unopened (not a regular file) [T-SELF-3].
   */
  append(entries: readonly JournalEntry[]): string[] {
    const bounds: JournalBounds = { maxBytes: this.maxBytes, segmentBytes: this.segmentBytes };
    if (this.#lock !== undefined) bounds.lock = this.#lock;
    return appendJournal(this.dir, entries, bounds);
  }

  /**
   * Entries newest first, filtered. Reads segments from the newest backwards and stops at
   * `limit`; with `since`, at the first entry well before it (by the entries' own `at`).
   */
  read(query: JournalQuery = {}): JournalRead {
    const limit = query.limit ?? Number.POSITIVE_INFINITY;
    const out: JournalRead = { entries: [], skipped: 0, droppedSegments: 0, refused: [] };
    const folder = lookAtFolder(this.dir);
    if (folder.kind === 'refused') {
      out.refused.push(`the journal folder ${this.dir} ${folder.why}: not read`);
      return out;
    }
    const seqs = folder.kind === 'ok' ? listSegments(this.dir) : [];
    if (seqs.length > 0) out.droppedSegments = (seqs[0] ?? 1) - 1;
    // What the bound lets the journal hold, plus what racing writers may add: a reader never
    // reads more, however many (sparse, huge) files sit under segment names.
    let budget = this.maxBytes + this.segmentBytes;
    for (let i = seqs.length - 1; i >= 0 && out.entries.length < limit; i--) {
      const file = segmentFile(this.dir, seqs[i] ?? 0);
      const segment = openSegmentToRead(file, this.maxBytes);
      if (segment.kind === 'refused') {
        out.refused.push(`journal segment ${file} ${segment.why}: skipped, not opened`);
        continue;
      }
      // Gone: dropped at the bound since the listing.
      if (segment.kind !== 'open') continue;
      try {
        if (segment.size > budget) {
          out.refused.push(`journal segments up to ${file} lie past the journal's bound: not read`);
          break;
        }
        budget -= segment.size;
        if (this.#readSegment(segment.fd, segment.size, query, limit, out) === 'past since') break;
      } finally {
        closeSync(segment.fd);
      }
    }
    return out;
  }

  /** Entries of one open segment, newest first, into `out` until `limit` or well before `since`. */
  #readSegment(
    fd: number,
    size: number,
    query: JournalQuery,
    limit: number,
    out: JournalRead,
  ): 'past since' | undefined {
    const since = query.since?.getTime();
    for (const line of linesBackwards(fd, size, MAX_LINE_BYTES)) {
      const entry = line === undefined ? undefined : parseLine(line);
      if (entry === undefined) {
        out.skipped++;
        continue;
      }
      if (entry === null) continue;
      if (since !== undefined) {
        const at = Date.parse(entry.at);
        if (at < since - RUN_SLACK_MS) return 'past since';
        if (!(at >= since)) continue;
      }
      if (query.agent !== undefined && entry.agent !== query.agent) continue;
      out.entries.push(entry);
      if (out.entries.length >= limit) return undefined;
    }
    return undefined;
  }

  /**
   * [T-SELF-3] Checks the journal's hash chain (`hookwerk runs --verify`): the breaks, one per
   * place, and notes (where the chain starts, rotations, files not read).
   */
  verify(): JournalVerdict {
    return verifyJournal(this.dir, this.maxBytes, this.maxBytes + this.segmentBytes);
  }
}

/** `undefined`: not an entry (skip and count); `null`: a blank line (skip quietly); else the entry. */
function parseLine(line: Buffer): JournalEntry | undefined | null {
  const text = line.toString('utf8');
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // [T-SELF-3] The chain's own markers (`rotated`, `foreign`) are no runs: `--verify` reads them.
  if (typeof value === 'object' && value !== null && ('rotated' in value || 'foreign' in value)) return null;
  const parsed = journalEntrySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
