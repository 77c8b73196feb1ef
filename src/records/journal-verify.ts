/**
 * [T-SELF-3] `hookwerk runs --verify`: walks the journal's chain oldest first and names each break
 * — a line whose text no longer hashes to its hash (`edited`), a record whose predecessor is
 * nowhere (`removed`), a line that is not a chained record, or a record chained to the same
 * predecessor as the one before it (`inserted`), a record whose predecessor sits elsewhere
 * (`reordered`). Lines before the chain's first record (a journal written before the chain) are
 * said, not counted as breaks; a gap left by rotation is whole when a `rotated` marker in the
 * chain carries the dropped range's last hash. Reads every segment in full, within the bound.
 */
import { closeSync, readSync } from 'node:fs';
import path from 'node:path';
import { type ChainLine, GENESIS, readChainLine } from './journal-chain.ts';
import { lookAtSegment, openSegmentToRead } from './journal-files.ts';
import { readHead } from './journal-head.ts';
import { listSegments, segmentFile } from './journal-segments.ts';

export type BreakKind = 'edited' | 'removed' | 'inserted' | 'reordered';

export interface ChainBreak {
  /** The segment's file name (`runs-000000000003.jsonl`). */
  segment: string;
  /** 1-based line in it. */
  line: number;
  kind: BreakKind;
}

export interface JournalVerdict {
  breaks: ChainBreak[];
  /** What a reader should know that is not a break: where the chain starts, rotations, files not read. */
  notes: string[];
  /** Chained records checked (markers included). */
  records: number;
  /** The last record's hash: note it elsewhere to check later that nothing was rewritten after it. */
  last: string | undefined;
  /** Lines before the chain's first record (written before the journal was chained). */
  unchained: number;
  /** The first and last line judged (`runs-000000000003.jsonl:12`); none when nothing was. */
  from?: string;
  to?: string;
  /** Only the newest bytes were checked (`tailBytes`): the records before `from` were not. */
  tail: boolean;
}

export interface VerifyOptions {
  /**
   * Check only the newest this many bytes, from the first whole line in them: the first record
   * there is taken as the chain's start (what came before is not checked). Bounds the work of a
   * dashboard that looks every few seconds; `runs --verify` checks everything.
   */
  tailBytes?: number;
}

interface Rotated {
  to: number;
  last: string | null;
  from: number;
}

interface Foreign {
  segment: number;
  offset: number;
  bytes: number;
}

/** One non-blank line: where it is, and what the chain makes of it. */
interface Seen {
  seq: number;
  line: number;
  what: ChainLine;
  marker?: { rotated?: Rotated; foreign?: Foreign };
}

/** Checks the chain of the journal in `dir`, reading at most `maxBytes` per segment. */
export function verifyJournal(
  dir: string,
  maxBytes: number,
  totalBytes: number,
  opts: VerifyOptions = {},
): JournalVerdict {
  // The head first: a writer that appends meanwhile moves it only past what is read next.
  const head = readHead(dir);
  const notes: string[] = [];
  const lines: Seen[] = [];
  const present = new Set<number>();
  let budget = totalBytes;
  const seqs = listSegments(dir);
  const cut = opts.tailBytes === undefined ? undefined : tailStart(dir, seqs, opts.tailBytes);
  for (const seq of seqs) {
    if (cut !== undefined && seq < cut.seq) continue;
    const file = segmentFile(dir, seq);
    const opened = openSegmentToRead(file, maxBytes);
    if (opened.kind === 'refused') {
      notes.push(`journal segment ${file} ${opened.why}: skipped, not opened`);
      continue;
    }
    if (opened.kind !== 'open') continue;
    try {
      if (opened.size > budget) {
        notes.push(`journal segments from ${file} on lie past the journal's bound: not read`);
        break;
      }
      budget -= opened.size;
      present.add(seq);
      const fromByte = cut !== undefined && seq === cut.seq ? cut.offset : 0;
      collect(seq, readAll(opened.fd, opened.size), lines, fromByte);
    } finally {
      closeSync(opened.fd);
    }
  }
  // Mid-journal: what the tail's first record chains to was not read.
  const anchored = cut !== undefined && !cut.all;
  const verdict = judge(lines, present, head?.hash, notes, anchored);
  const first = lines[0];
  const end = lines.at(-1);
  if (first !== undefined) verdict.from = `${name(first.seq)}:${first.line}`;
  if (end !== undefined) verdict.to = `${name(end.seq)}:${end.line}`;
  verdict.tail = anchored;
  return verdict;
}

/**
 * Where the newest `tailBytes` of the regular segments start: a segment and a byte in it; `all`
 * when that is the start of the journal (the tail is all of it).
 */
function tailStart(
  dir: string,
  seqs: readonly number[],
  tailBytes: number,
): { seq: number; offset: number; all: boolean } {
  let left = tailBytes;
  for (let i = seqs.length - 1; i >= 0; i--) {
    const seq = seqs[i] ?? 0;
    const seen = lookAtSegment(segmentFile(dir, seq));
    if (seen.kind !== 'ok') continue;
    if (seen.stats.size > left) return { seq, offset: seen.stats.size - left, all: false };
    left -= seen.stats.size;
  }
  return { seq: seqs[0] ?? 0, offset: 0, all: true };
}

function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

const PLAIN: ChainLine = { kind: 'plain' };
const NEWLINE = 0x0a;

/** The lines of segment `seq` into `into`; with `fromByte`, only whole lines that start at or after it. */
function collect(seq: number, buf: Buffer, into: Seen[], fromByte = 0): void {
  let start = 0;
  let before = 0;
  if (fromByte > 0) {
    // The line the cut falls in is not whole here: judging starts at the next one. The lines
    // before are counted (a newline search, no hashing) so that line numbers stay the file's.
    const end = buf.indexOf(NEWLINE, fromByte - 1);
    start = end === -1 ? buf.length : end + 1;
    for (let i = buf.indexOf(NEWLINE); i !== -1 && i < start; i = buf.indexOf(NEWLINE, i + 1)) before++;
  }
  const parts = buf.toString('utf8', start).split('\n');
  // The piece after the last newline: a write in progress (or torn); not judged yet.
  parts.pop();
  for (let i = 0; i < parts.length; i++) {
    const line = parts[i] ?? '';
    const what = readChainLine(line);
    if (what.kind === 'blank') continue;
    const seen: Seen = { seq, line: before + i + 1, what: what.kind === 'plain' ? PLAIN : what };
    if (what.kind === 'record' && (line.startsWith('{"rotated":') || line.startsWith('{"foreign":')))
      seen.marker = markerOf(line);
    into.push(seen);
  }
}

function markerOf(line: string): Seen['marker'] {
  const value: unknown = JSON.parse(line);
  if (typeof value !== 'object' || value === null) return undefined;
  if ('rotated' in value && typeof value.rotated === 'object' && value.rotated !== null) {
    const r = value.rotated;
    const from = 'from' in r && typeof r.from === 'number' ? r.from : undefined;
    const to = 'to' in r && typeof r.to === 'number' ? r.to : undefined;
    const last = 'last' in r && typeof r.last === 'string' ? r.last : null;
    if (from !== undefined && to !== undefined) return { rotated: { from, to, last } };
  }
  if ('foreign' in value && typeof value.foreign === 'object' && value.foreign !== null) {
    const f = value.foreign;
    const segment = 'segment' in f && typeof f.segment === 'number' ? f.segment : undefined;
    const offset = 'offset' in f && typeof f.offset === 'number' ? f.offset : 0;
    const bytes = 'bytes' in f && typeof f.bytes === 'number' ? f.bytes : 0;
    if (segment !== undefined) return { foreign: { segment, offset, bytes } };
  }
  return undefined;
}

const name = (seq: number) => path.basename(segmentFile('', seq));

function judge(
  lines: readonly Seen[],
  present: Set<number>,
  head: string | undefined,
  notes: string[],
  anchored: boolean,
): JournalVerdict {
  const known = new Set<string>();
  const rotations: Rotated[] = [];
  for (const seen of lines) {
    if (seen.what.kind === 'record' || seen.what.kind === 'edited') {
      if (seen.what.hash !== undefined) known.add(seen.what.hash);
    }
    if (seen.marker?.rotated !== undefined) rotations.push(seen.marker.rotated);
  }
  const breaks: ChainBreak[] = [];
  let started = false;
  let unchained = 0;
  let records = 0;
  let last: string | undefined;
  let beforeLast: string | undefined;
  let previous: Seen | undefined;
  /** The break at `previous`, if it was one. */
  let previousBreak: ChainBreak | undefined;
  const at = (s: Seen, kind: BreakKind): ChainBreak => ({ segment: name(s.seq), line: s.line, kind });
  for (const seen of lines) {
    let broke: ChainBreak | undefined;
    const what = seen.what;
    if (what.kind === 'plain') {
      if (started) broke = at(seen, 'inserted');
      else unchained++;
    } else if (what.kind === 'edited') {
      started = true;
      broke = at(seen, 'edited');
      if (what.hash !== undefined) {
        beforeLast = last;
        last = what.hash;
      }
    } else if (what.kind === 'record') {
      records++;
      if (!started) {
        started = true;
        if (anchored && what.prev !== GENESIS)
          notes.push(
            `checked from ${name(seen.seq)}:${seen.line}, the newest records only: run hookwerk runs --verify for the whole chain`,
          );
        else broke = chainStart(seen, what.prev, unchained, rotations, present, notes);
      } else if (what.prev !== last) {
        if (what.prev === beforeLast && previous !== undefined && previousBreak?.kind !== 'reordered') {
          // Two records chained to the same predecessor: the one before this was slipped in.
          if (unlockedNear(seen, previous))
            notes.push(
              `${name(seen.seq)}:${seen.line}: a fork beside a record appended without the lock (it was busy)`,
            );
          else if (previousBreak !== undefined) previousBreak.kind = 'inserted';
          else breaks.push(at(previous, 'inserted'));
        } else if (known.has(what.prev)) broke = at(seen, 'reordered');
        else broke = at(seen, 'removed');
      }
      const foreign = seen.marker?.foreign;
      if (foreign !== undefined && broke === undefined && !present.has(foreign.segment)) {
        broke = at(seen, foreign.bytes < 0 ? 'removed' : 'inserted');
        notes.push(
          `${name(seen.seq)}:${seen.line}: ${Math.abs(foreign.bytes)} bytes hookwerk did not ${foreign.bytes < 0 ? 'remove' : 'write'} were found in ${name(foreign.segment)} after byte ${foreign.offset}, which is gone since`,
        );
      }
      beforeLast = last;
      last = what.hash;
    }
    // A fork next to a record appended without the lock (busy past its bound) is said, not a break.
    if (broke !== undefined && broke.kind !== 'edited' && unlockedNear(seen, previous)) {
      notes.push(
        `${name(seen.seq)}:${seen.line}: a fork beside a record appended without the lock (it was busy)`,
      );
      broke = undefined;
    }
    if (broke !== undefined) {
      const run = breaks.at(-1);
      // A run of foreign lines, or of records out of order, is one break: said at its first line.
      const continues =
        run !== undefined &&
        run === previousBreak &&
        run.kind === broke.kind &&
        (broke.kind === 'inserted' || broke.kind === 'reordered');
      if (!continues) breaks.push(broke);
      previousBreak = continues ? run : broke;
    } else previousBreak = undefined;
    previous = seen;
  }
  // Records after the last one read, gone: the head names a hash no line has.
  if (head !== undefined && last !== undefined && head !== last && !known.has(head)) {
    const end = lines.at(-1);
    if (end !== undefined) breaks.push({ segment: name(end.seq), line: end.line + 1, kind: 'removed' });
  }
  if (!started && unchained > 0)
    notes.push(`no chained record yet: the ${unchained} lines were written before the journal was chained`);
  return { breaks, notes, records, last, unchained, tail: false };
}

function unlockedNear(seen: Seen, previous: Seen | undefined): boolean {
  const flagged = (s: Seen | undefined) => s?.what.kind === 'record' && s.what.unlocked;
  return flagged(seen) || flagged(previous);
}

/** The chain's first record: a new chain, the first kept after a rotation, or records lost before it. */
function chainStart(
  seen: Seen,
  prev: string,
  unchained: number,
  rotations: readonly Rotated[],
  present: Set<number>,
  notes: string[],
): ChainBreak | undefined {
  const where = `${name(seen.seq)}:${seen.line}`;
  if (prev === GENESIS) {
    notes.push(
      unchained > 0
        ? `the chain starts at ${where}: the ${unchained} lines before it were written before the journal was chained`
        : `the chain starts at ${where}`,
    );
    return undefined;
  }
  const rotation = rotations.find((r) => r.last === prev && r.to < seen.seq && !present.has(r.to));
  if (rotation !== undefined) {
    notes.push(
      `segments up to ${name(rotation.to)} were rotated out; the chain goes on from their last hash at ${where}`,
    );
    return undefined;
  }
  return { segment: name(seen.seq), line: seen.line, kind: 'removed' };
}
