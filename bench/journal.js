// Issue 30 [T-SELF-3] [R-HOOK-3]: what one append to the hash-chained journal costs (what
// `hookwerk hook` and the daemon pay per call that ran a hook), against a baseline of the same run:
// `appendFileSync` of the same bytes (the chained line of the same run) to a plain file, which is
// what the journal cost before the chain, give or take a stat. The append takes the lock, finds
// the tip (the chain's head: one read), writes the line and moves the head; no fsync on either side.
// Interleaved rounds, so that a slower moment of the machine falls on both sides.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendJournal } from '../dist/records/journal-append.js';
import { fmtRatio, fmtUs, median, progress, timeBatches } from './lib.js';

/** A run as `hookwerk hook` records it (a deny, with its reason). */
function record(i) {
  return {
    hook: 'no-rm-rf',
    source: '/home/me/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    dialect: 'claude',
    outcome: 'deny',
    durationMs: 3.2,
    at: new Date(1_796_000_000_000 + i).toISOString(),
    sessionId: '0f3c5e2a-0000-4000-8000-000000000000',
    decision: 'deny',
    reason: 'rm -rf is not allowed here',
    agent: 'claude',
    toolName: 'Bash',
  };
}

export async function run() {
  const root = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-journal-'));
  try {
    const dir = path.join(root, 'records');
    const plain = path.join(root, 'plain.jsonl');
    // The chained line's shape and length: the run, then `prev` and `hash` (64 hex digits each).
    const line = `${JSON.stringify({ ...record(0), prev: '0'.repeat(64), hash: 'f'.repeat(64) })}\n`;
    const a = [];
    const b = [];
    for (let round = 0; round < 7; round++) {
      const warmup = round === 0 ? 500 : 50;
      a.push(...timeBatches((i) => appendJournal(dir, [record(i)]), { batchSize: 100, batches: 11, warmup }));
      b.push(...timeBatches(() => appendFileSync(plain, line), { batchSize: 100, batches: 11, warmup }));
    }
    const p50 = median(a);
    const base = median(b);
    progress(`journal: ${fmtUs(p50)} an append, ${fmtUs(base)} appendFileSync`);
    return [
      {
        benchmark: `[T-SELF-3] one run appended to the hash-chained journal (${line.length} bytes; lock, tip, write, head), median per call`,
        hookwerk: fmtUs(p50),
        baseline: `${fmtUs(base)} (appendFileSync of the same bytes to a plain file)`,
        ratio: fmtRatio(p50 / base),
        target: '— (issue 30: cheaper than 92 µs, the chain whole)',
        verdict: '—',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
