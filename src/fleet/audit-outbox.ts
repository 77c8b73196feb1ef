/**
 * [F-AUD-1] The local journal read as the audit stream's outbox: from a cursor, the next records
 * in write order (each with its chain hash, which becomes its `Nats-Msg-Id`), at most a batch at
 * a time, and the gap when rotation dropped segments the cursor had not reached. Files only (no
 * NATS), opened the journal's own careful way (`journal-files.ts`).
 */
import { closeSync, readSync } from 'node:fs';
import { z } from 'zod';
import { readChainLine } from '../records/journal-chain.ts';
import { openSegmentToRead } from '../records/journal-files.ts';
import { JOURNAL_MAX_BYTES, listSegments, segmentFile } from '../records/journal-segments.ts';
import type { AuditCursor } from './audit-cursor.ts';

/** The most bytes one read takes from a segment (entries are ~50 KiB at most). */
const READ_BYTES = 1024 * 1024;

export interface OutboxRecord {
  /** The journal line as written, without its newline. */
  line: string;
  hash: string;
  agent: string;
  /** The cursor once this record is acknowledged. */
  after: AuditCursor;
}

/** Segments rotation deleted before their records were sent. */
export interface OutboxGap {
  /** The first segment lost (its bytes from `fromOffset` on). */
  fromSegment: number;
  fromOffset: number;
  /** The last segment lost. */
  toSegment: number;
  /** The hash of the last record sent before the gap (null: none was). */
  afterHash: string | null;
  /** The `prev` of the first line kept after it: the records in between are the ones lost. */
  beforeHash: string | null;
}

export interface OutboxBatch {
  gap?: OutboxGap;
  records: OutboxRecord[];
  /** Where reading stopped: past the records and past lines that are no records (markers, torn, foreign). */
  end: AuditCursor | undefined;
  /** Lines passed over that are not chained records of an agent's run. */
  skipped: number;
}

/** Only the agent is needed from a record (the subject); the rest is sent as written. */
const agentOf = z.object({ agent: z.string() });

/**
 * The next at most `max` records of the journal in `dir` after `cursor` (undefined: from its
 * oldest record). An empty batch with `end` equal to the cursor: nothing new.
 */
export function readOutbox(dir: string, cursor: AuditCursor | undefined, max: number): OutboxBatch {
  const seqs = listSegments(dir);
  const out: OutboxBatch = { records: [], end: cursor, skipped: 0 };
  const oldest = seqs[0];
  if (oldest === undefined) return out;
  let pos: AuditCursor = cursor ?? { seq: oldest, offset: 0, hash: null };
  if (!seqs.includes(pos.seq)) {
    const next = seqs.find((s) => s > pos.seq);
    if (next === undefined) {
      // Every segment is older than the cursor: the journal was deleted and begun again (numbers
      // start at 1 again). Its records are new: all of them go.
      pos = { seq: oldest, offset: 0, hash: pos.hash };
    } else {
      out.gap = {
        fromSegment: pos.seq,
        fromOffset: pos.offset,
        toSegment: next - 1,
        afterHash: pos.hash,
        beforeHash: null,
      };
      pos = { seq: next, offset: 0, hash: pos.hash };
    }
  }
  out.end = pos;
  for (let i = seqs.indexOf(pos.seq); i < seqs.length && out.records.length < max; i++) {
    const seq = seqs[i] ?? pos.seq;
    const newest = i === seqs.length - 1;
    const offset = seq === pos.seq ? pos.offset : 0;
    const done = readSegment(dir, seq, offset, max, out);
    if (!done || newest) break;
    // This segment is read to its end and a newer one exists: no writer appends here again.
    out.end = { seq: seqs[i + 1] ?? seq, offset: 0, hash: out.end?.hash ?? null };
  }
  return out;
}

/**
 * Records of segment `seq` from `offset` into `out` (and `out.end` moved past each line read);
 * true when the segment was read to its end (a torn last line, or one being written, is left
 * for a later look).
 */
function readSegment(dir: string, seq: number, offset: number, max: number, out: OutboxBatch): boolean {
  const opened = openSegmentToRead(segmentFile(dir, seq), JOURNAL_MAX_BYTES);
  // Gone since the listing, or not a regular file: nothing of it can be sent.
  if (opened.kind !== 'open') return true;
  try {
    // Shorter than the cursor: the segment was cut or replaced; it is read again from its start.
    let at = opened.size < offset ? 0 : offset;
    while (at < opened.size) {
      const len = Math.min(READ_BYTES, opened.size - at);
      const buf = Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) {
        const n = readSync(opened.fd, buf, got, len - got, at + got);
        if (n === 0) break;
        got += n;
      }
      let start = 0;
      for (;;) {
        if (out.records.length >= max) return false;
        const nl = buf.indexOf(0x0a, start);
        if (nl < 0 || nl >= got) break;
        take(buf.toString('utf8', start, nl), seq, at + nl + 1, out);
        start = nl + 1;
      }
      if (start === 0 && got === READ_BYTES) {
        // No newline in a whole read: no entry is that long. Passed over.
        out.skipped++;
        start = got;
        out.end = { seq, offset: at + got, hash: out.end?.hash ?? null };
      }
      if (got < len) return true;
      // What is left at the segment's end is a line without its newline (torn, or being written).
      if (start < got && at + got >= opened.size) return true;
      at += start;
    }
    return true;
  } finally {
    closeSync(opened.fd);
  }
}

/** One complete line ending at `end`: a record to send, or a line passed over. */
function take(line: string, seq: number, end: number, out: OutboxBatch): void {
  const seen = readChainLine(line);
  const hashBefore = out.end?.hash ?? null;
  if (out.gap !== undefined && out.gap.beforeHash === null && seen.kind === 'record') {
    // The first chained line after the dropped segments: when it chains to the last record
    // sent, nothing unsent was in them (the cursor stood at the end of the oldest).
    if (seen.prev === out.gap.afterHash) delete out.gap;
    else out.gap.beforeHash = seen.prev;
  }
  if (seen.kind === 'record') {
    const agent = agentFromLine(line);
    if (agent !== undefined) {
      const after = { seq, offset: end, hash: seen.hash };
      out.records.push({ line, hash: seen.hash, agent, after });
      out.end = after;
      return;
    }
  }
  // The chain's own markers (`rotated`, `foreign`), torn or edited lines, lines from before the
  // chain: not a run to send. `runs --verify` reports them locally.
  if (seen.kind !== 'blank') out.skipped++;
  out.end = { seq, offset: end, hash: hashBefore };
}

function agentFromLine(line: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = agentOf.safeParse(value);
  return parsed.success ? parsed.data.agent : undefined;
}
