// [T-SELF-3] The cost of one journal append (what `hookwerk hook` pays per call that ran a hook),
// measured in one process: `node scripts/journal-append-cost.mjs [DIST] [N]`. DIST is a built
// dist/ (default this checkout's): point it at an older build to compare before/after.
// Not a test and not a bench row: a number for the docs and the change's report.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
const n = Number(process.argv[3] ?? 2000);
const { appendJournal } = await import(pathToFileURL(path.join(dist, 'records', 'journal-append.js')).href);

const run = (i) => ({
  hook: 'no-rm-rf',
  source: '/home/me/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
  event: 'PreToolUse',
  dialect: 'claude',
  outcome: i % 3 === 0 ? 'deny' : 'ok',
  durationMs: 3.2,
  at: new Date().toISOString(),
  sessionId: '0f3c5e2a-0000-4000-8000-000000000000',
  decision: i % 3 === 0 ? 'deny' : undefined,
  reason: i % 3 === 0 ? 'rm -rf is not allowed here' : undefined,
  agent: 'claude',
  toolName: 'Bash',
});

function measure() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hw-append-cost-'));
  const dir = path.join(home, '.hookwerk', 'records');
  try {
    // Warm up: module code optimized, folder made, first segment there.
    for (let i = 0; i < 200; i++) appendJournal(dir, [run(i)]);
    const times = [];
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      appendJournal(dir, [run(i)]);
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
    const mean = times.reduce((a, b) => a + b, 0) / n;
    times.sort((a, b) => a - b);
    return { median: times[Math.floor(n / 2)], p95: times[Math.floor(n * 0.95)], mean };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const rounds = [measure(), measure(), measure()].sort((a, b) => a.median - b.median);
const best = rounds[0];
console.log(
  `${dist}: ${n} appends of one run, median ${best.median.toFixed(1)} µs, p95 ${best.p95.toFixed(1)} µs, mean ${best.mean.toFixed(1)} µs (best of 3 rounds)`,
);
