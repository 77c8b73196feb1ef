/**
 * [R-HOOK-3] The journal's folder: numbered segments `runs-<seq>.jsonl`, the highest the one being
 * written. Numbers are never reused, so the lowest one left tells how many were dropped.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { isErrno } from '../core/errno.ts';

/** SPEC [R-HOOK-3]: "oldest dropped past 64 MiB". */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024;
/** One segment: the unit the bound drops, and the most a reader scans to find a few lines. */
export const JOURNAL_SEGMENT_BYTES = 8 * 1024 * 1024;

const SEGMENT = /^runs-(\d{1,15})\.jsonl$/;
/** The highest segment number a name may hold (15 digits). */
export const MAX_SEGMENT_SEQ = 999_999_999_999_999;

/** Where the journal of `home` lives [R-HOOK-3]. */
export function journalDir(home: string): string {
  return path.join(home, '.hookwerk', 'records');
}

/** Sequence numbers of the segments in `dir`, oldest first; none when the folder does not exist. */
export function listSegments(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
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

export function segmentFile(dir: string, seq: number): string {
  // Zero-padded: `ls` shows them in order.
  return path.join(dir, `runs-${String(seq).padStart(12, '0')}.jsonl`);
}
