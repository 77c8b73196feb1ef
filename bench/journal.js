// Issue 30 [T-SELF-3] [R-HOOK-3]: what one append to the hash-chained journal costs (what
// `hookwerk hook` and the daemon pay per call that ran a hook), against a baseline of the same run:
// `appendFileSync` of the same bytes (the chained line of the same run) to a plain file, which is
// what the journal cost before the chain, give or take a stat. The append takes the lock, finds
// the tip (the chain's head: one read), writes the line and moves the head; no fsync on either side.
// Interleaved rounds, so that a slower moment of the machine falls on both sides. The median
// follows the machine's load (two rounds of one run differ up to 3×), so the row also gives the
// fastest batch and the CPU time per call, and no absolute number from another day is a target:
// the gain over the old append is an A/B of both builds in one process (docs/benchmarks.md).
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendJournal } from '../dist/records/journal-append.js';
import { fmtRatio, fmtUs, median, progress, timeBatches } from './lib.js';

/** Runs `fn` and adds its process CPU time (warm-up included) and call count to `into`. */
function withCpu(into, { batchSize, batches, warmup }, fn) {
  const start = process.cpuUsage();
  const out = fn();
  const used = process.cpuUsage(start);
  into.us += used.user + used.system;
  into.calls += warmup + batchSize * batches;
  return out;
}

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
    const cpuA = { us: 0, calls: 0 };
    const cpuB = { us: 0, calls: 0 };
    for (let round = 0; round < 7; round++) {
      const warmup = round === 0 ? 500 : 50;
      const opts = { batchSize: 100, batches: 11, warmup };
      a.push(...withCpu(cpuA, opts, () => timeBatches((i) => appendJournal(dir, [record(i)]), opts)));
      b.push(...withCpu(cpuB, opts, () => timeBatches(() => appendFileSync(plain, line), opts)));
    }
    const p50 = median(a);
    const base = median(b);
    const cpu = cpuA.us / cpuA.calls;
    const cpuBase = cpuB.us / cpuB.calls;
    progress(
      `journal: ${fmtUs(p50)} an append (fastest batch ${fmtUs(Math.min(...a))}, CPU ${fmtUs(cpu)}), ${fmtUs(base)} appendFileSync (CPU ${fmtUs(cpuBase)})`,
    );
    return [
      {
        benchmark: `[T-SELF-3] one run appended to the hash-chained journal (${line.length} bytes; lock, tip, write, head), median per call`,
        hookwerk: `${fmtUs(p50)} (fastest batch ${fmtUs(Math.min(...a))}; CPU ${fmtUs(cpu)} a call)`,
        baseline: `${fmtUs(base)} (appendFileSync of the same bytes to a plain file; CPU ${fmtUs(cpuBase)})`,
        ratio: fmtRatio(p50 / base),
        target: '— (issue 30: cheaper than the old append, A/B in docs/benchmarks.md)',
        verdict: '—',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
