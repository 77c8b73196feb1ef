/**
 * [T-SELF-3] Where the next record chains to, found under the append lock. Usually the head
 * says it (the newest segment is as hookwerk left it: one stat). Otherwise the bytes after the
 * head are read, at most SCAN_BYTES: records of a writer that crashed before it updated the
 * head chain on from it and are ours; anything else was written by someone else, and the next
 * append leaves a `foreign` marker in the chain saying where and how much, which outlives the
 * bytes themselves when rotation drops them (64 MiB of noise). No zod [R-HOOK-4].
 */
import { closeSync, readSync } from 'node:fs';
import { GENESIS, readChainLine } from './journal-chain.ts';
import { lookAtSegment, openSegmentToRead } from './journal-files.ts';
import type { ChainHead } from './journal-head.ts';
import { segmentFile } from './journal-segments.ts';

/** The most the writer reads to find the chain's tip when the head does not say it. */
export const SCAN_BYTES = 1024 * 1024;

/** Bytes hookwerk did not write, found after its last append (negative: its own bytes gone). */
export interface ForeignBytes {
  segment: number;
  offset: number;
  bytes: number;
}

export interface ChainTip {
  prev: string;
  /** The newest segment ends mid-line (a torn write, or someone's): the next append starts a line first. */
  torn: boolean;
  foreign?: ForeignBytes;
}

/**
 * The tip of the chain in `dir`, whose segments are `seqs` (oldest first), the newest of which
 * is `newestSize` bytes (undefined: not a regular file, or none).
 */
export function findTip(
  dir: string,
  seqs: readonly number[],
  head: ChainHead | undefined,
  newestSize: number | undefined,
  maxBytes: number,
): ChainTip {
  const newest = seqs.at(-1);
  if (head !== undefined && head.seq === newest && head.size === newestSize)
    return { prev: head.hash, torn: false };
  const sizes = new Map<number, number>();
  for (const seq of seqs) {
    if (seq === newest && newestSize !== undefined) sizes.set(seq, newestSize);
    else if (head === undefined || seq >= head.seq) {
      const seen = lookAtSegment(segmentFile(dir, seq));
      if (seen.kind === 'ok') sizes.set(seq, seen.stats.size);
    }
  }
  const torn = endsMidLine(dir, seqs, sizes, maxBytes);
  if (head === undefined) return { prev: lastRecordBackwards(dir, seqs, sizes, maxBytes) ?? GENESIS, torn };
  const headSize = sizes.get(head.seq);
  if (headSize === undefined || headSize < head.size) {
    // hookwerk's own bytes were taken away (a record removed, the segment deleted): the chain
    // goes on from the true last record, so the gap shows where it is.
    return {
      prev: head.hash,
      torn,
      foreign: { segment: head.seq, offset: head.size, bytes: (headSize ?? 0) - head.size },
    };
  }
  let total = headSize - head.size;
  for (const [seq, size] of sizes) if (seq > head.seq) total += size;
  if (total > SCAN_BYTES) {
    // Too much to read on the hook path: the chain goes on from hookwerk's last record.
    return { prev: head.hash, torn, foreign: { segment: head.seq, offset: head.size, bytes: total } };
  }
  // Small enough to read whole: records chained on from the head are a crashed writer's (ours);
  // anything else is someone else's, and the chain goes on past it.
  let prev = head.hash;
  let ours = true;
  for (const seq of seqs) {
    const size = sizes.get(seq);
    if (seq < head.seq || size === undefined) continue;
    const from = seq === head.seq ? head.size : 0;
    const text = readRange(dir, seq, from, size - from, maxBytes);
    if (text === undefined) continue;
    const lines = text.split('\n');
    // The piece after the last newline is a torn line (or empty).
    if (lines.pop() !== '') ours = false;
    for (const line of lines) {
      const seen = readChainLine(line);
      if (seen.kind === 'blank') continue;
      if (seen.kind === 'record' && seen.prev === prev) prev = seen.hash;
      else ours = false;
    }
  }
  if (ours) return { prev, torn };
  return { prev, torn, foreign: { segment: head.seq, offset: head.size, bytes: total } };
}

/** Whether the newest regular segment's last byte is not a newline. */
function endsMidLine(dir: string, seqs: readonly number[], sizes: Map<number, number>, maxBytes: number) {
  const newest = seqs.at(-1);
  const size = newest === undefined ? undefined : sizes.get(newest);
  if (newest === undefined || size === undefined || size === 0) return false;
  return readRange(dir, newest, size - 1, 1, maxBytes) !== '\n';
}

/** The hash of the last intact record in the newest SCAN_BYTES of the segments, if any. */
function lastRecordBackwards(
  dir: string,
  seqs: readonly number[],
  sizes: Map<number, number>,
  maxBytes: number,
): string | undefined {
  let budget = SCAN_BYTES;
  for (let i = seqs.length - 1; i >= 0 && budget > 0; i--) {
    const seq = seqs[i] ?? 0;
    let size = sizes.get(seq);
    if (size === undefined) {
      const seen = lookAtSegment(segmentFile(dir, seq));
      if (seen.kind !== 'ok') continue;
      size = seen.stats.size;
    }
    const len = Math.min(size, budget);
    budget -= len;
    const text = readRange(dir, seq, size - len, len, maxBytes);
    // Unreadable (larger than the journal's bound): what lies before it is no tip.
    if (text === undefined) return undefined;
    const lines = text.split('\n');
    // A piece cut at the window's start is not a whole line.
    if (len < size) lines.shift();
    for (let j = lines.length - 1; j >= 0; j--) {
      const seen = readChainLine(lines[j] ?? '');
      if (seen.kind === 'record') return seen.hash;
    }
  }
  return undefined;
}

/** `len` bytes of segment `seq` from `from`, as text; undefined when it is not a readable segment. */
export function readRange(dir: string, seq: number, from: number, len: number, maxBytes: number) {
  const opened = openSegmentToRead(segmentFile(dir, seq), maxBytes);
  if (opened.kind !== 'open') return undefined;
  try {
    const buf = Buffer.allocUnsafe(Math.max(0, Math.min(len, opened.size - from)));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(opened.fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } finally {
    closeSync(opened.fd);
  }
}
