/**
 * [T-SELF-3] The journal's chain as the dashboard shows it (`GET /api/journal-chain`): whole up
 * to which record, broken at which, or not chained yet (a journal written before the chain).
 * The page asks every few seconds and the journal may hold 64 MiB, so the work is bounded twice:
 * only the newest TAIL_BYTES are checked (the answer says so; `hookwerk runs --verify` checks
 * all), and an answer is kept while no segment nor the head changed (size, mtime, inode).
 */
import path from 'node:path';
import { homeFolder, NoHomeError } from '../core/home.ts';
import { lookAtSegment } from '../records/journal-files.ts';
import { HEAD_NAME } from '../records/journal-head.ts';
import { type LockWaitCounts, readLockWaits } from '../records/journal-lock-counts.ts';
import { journalDir, listSegments, segmentFile } from '../records/journal-segments.ts';
import { verifyJournal } from '../records/journal-verify.ts';
import { RunJournal } from '../records/run-journal.ts';

/** The most the dashboard's check reads and hashes per look. */
export const TAIL_BYTES = 1024 * 1024;
/** Breaks listed in an answer (the first ones); `runs --verify` lists every one. */
const MAX_BREAKS = 20;

export interface ChainState {
  /** `whole`: no break in what was checked; `unchained`: only lines from before the chain. */
  state: 'whole' | 'broken' | 'unchained' | 'empty';
  /** `tail`: the newest TAIL_BYTES only, from `from`; `all`: the whole journal. */
  checked: 'all' | 'tail';
  from?: string;
  to?: string;
  records: number;
  /** Lines before the chain's first record, written before the journal was chained. */
  unchained: number;
  breaks: { segment: string; line: number; kind: string }[];
  /** More breaks than listed. */
  moreBreaks: number;
  notes: string[];
}

/** The journal folder of `home` (default: the account's), or undefined when there is no home. */
export function agentJournalDir(home: string | undefined): string | undefined {
  try {
    return journalDir(homeFolder(home));
  } catch (err) {
    if (err instanceof NoHomeError) return undefined;
    throw err;
  }
}

/** The journal's lock counts for `/metrics` (none without a home). */
export function journalLockWaits(home: string | undefined): LockWaitCounts {
  const dir = agentJournalDir(home);
  return dir === undefined ? { waited: 0, gave_up: 0 } : readLockWaits(dir);
}

/** A checker with its one-answer cache (one per server). */
export function chainStateReader(home: string | undefined, tailBytes = TAIL_BYTES): () => ChainState {
  let kept: { key: string; state: ChainState } | undefined;
  return () => {
    const dir = agentJournalDir(home);
    if (dir === undefined) return emptyState();
    const key = stamp(dir);
    if (kept?.key === key) return kept.state;
    const journal = new RunJournal(dir);
    const v = verifyJournal(dir, journal.maxBytes, journal.maxBytes + journal.segmentBytes, { tailBytes });
    const state: ChainState = {
      state:
        v.breaks.length > 0 ? 'broken' : v.records > 0 ? 'whole' : v.unchained > 0 ? 'unchained' : 'empty',
      checked: v.tail ? 'tail' : 'all',
      ...(v.from !== undefined ? { from: v.from } : {}),
      ...(v.to !== undefined ? { to: v.to } : {}),
      records: v.records,
      unchained: v.unchained,
      breaks: v.breaks.slice(0, MAX_BREAKS),
      moreBreaks: Math.max(0, v.breaks.length - MAX_BREAKS),
      notes: v.notes,
    };
    kept = { key, state };
    return state;
  };
}

function emptyState(): ChainState {
  return { state: 'empty', checked: 'all', records: 0, unchained: 0, breaks: [], moreBreaks: 0, notes: [] };
}

/** What changes when anything is appended, rotated, edited or replaced: each file's size, mtime, inode. */
function stamp(dir: string): string {
  const parts: string[] = [];
  for (const file of [...listSegments(dir).map((seq) => segmentFile(dir, seq)), path.join(dir, HEAD_NAME)]) {
    const seen = lookAtSegment(file);
    parts.push(seen.kind === 'ok' ? `${seen.stats.ino}:${seen.stats.size}:${seen.stats.mtimeMs}` : seen.kind);
  }
  return parts.join(' ');
}
