// 9. What a hook run costs the agent's event loop, and how many runs per second it sustains
//    [X-PROC-1]: hooks started by the launcher (the C one where it was built) vs a raw
//    child_process.spawn of the same command from the agent's process.
//
//   blocked     event-loop active time per run (performance.eventLoopUtilization over n sequential
//               runs of /bin/true: emit + drain, vs spawn → close), interleaved in rounds
//   throughput  runs completed per second with 4 in flight (4 hooks on one event, emit + drain, vs
//               4 raw spawns at a time), interleaved in rounds
import { performance } from 'node:perf_hooks';
import { createHookEngine } from '../dist/index.js';
import {
  fmtRatio,
  fmtUs,
  hooksWith,
  median,
  nowUs,
  progress,
  quietLogger,
  rawSpawn,
  TOOL_CALL_PAYLOAD,
  tempWorkspace,
  verdict,
} from './lib.js';

const ROUNDS = 8;
/** Runs per round of the blocked-time row: long enough that one scavenge (~2.5 ms) is not a round's median. */
const N = 200;
/** Batches of 4 per round of the throughput row. */
const BATCHES = 25;
/** Warm-up: engine runs (its code must reach the optimizing compiler), of which 1 in 5 also raw. */
const WARMUP = 1500;
/**
 * Unmeasured runs of a side before each of its rounds. The two sides alternate in one process, and
 * each leaves something behind for the other: a raw spawn forks the benchmark process, so the
 * pages it touches next fault once each (copy-on-write), and both leave garbage. Without these,
 * a round pays for the other side's last round.
 */
const SETTLE = 20;

/** Event-loop active µs per call, over n sequential calls. */
async function activePerCall(fn, n) {
  const before = performance.eventLoopUtilization();
  for (let i = 0; i < n; i++) await fn();
  const d = performance.eventLoopUtilization(before);
  return (d.active * 1000) / n;
}

/** Runs per second with `width` in flight, over `batches` batches. */
async function throughput(batch, width, batches) {
  const t0 = nowUs();
  for (let i = 0; i < batches; i++) await batch();
  return (width * batches) / ((nowUs() - t0) / 1e6);
}

export async function run() {
  const one = tempWorkspace(hooksWith('tool_call', 1));
  const four = tempWorkspace(hooksWith('tool_call', 4));
  const e1 = await createHookEngine({
    workspace: one.dir,
    watch: false,
    plugins: false,
    logger: quietLogger,
  });
  const e4 = await createHookEngine({
    workspace: four.dir,
    watch: false,
    plugins: false,
    logger: quietLogger,
  });
  try {
    const engineRun = async () => {
      e1.emit('tool_call', TOOL_CALL_PAYLOAD);
      await e1.drain();
    };
    const raw = () => rawSpawn(one.dir);
    // Steady state, as in a long-lived agent: both paths compiled by the JIT before measuring.
    for (let i = 0; i < WARMUP; i++) {
      await engineRun();
      if (i % 5 === 0) await raw();
      if (i % 4 === 0) {
        e4.emit('tool_call', TOOL_CALL_PAYLOAD);
        await e4.drain();
      }
    }
    const blocked = { engine: [], raw: [] };
    const tput = { engine: [], raw: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? ['engine', 'raw'] : ['raw', 'engine'];
      for (const side of order) {
        const one = side === 'engine' ? engineRun : raw;
        for (let i = 0; i < SETTLE; i++) await one();
        blocked[side].push(await activePerCall(one, N));
      }
      for (const side of order) {
        const batch =
          side === 'engine'
            ? async () => {
                e4.emit('tool_call', TOOL_CALL_PAYLOAD);
                await e4.drain();
              }
            : () => Promise.all([raw(), raw(), raw(), raw()]);
        for (let i = 0; i < SETTLE / 4; i++) await batch();
        tput[side].push(await throughput(batch, 4, BATCHES));
      }
    }
    const bad = [...e1.runs({ limit: 100000 }), ...e4.runs({ limit: 100000 })].filter(
      (x) => x.outcome !== 'ok',
    );
    if (bad.length > 0) throw new Error(`runs not ok: ${JSON.stringify(bad[0])}`);
    const be = median(blocked.engine);
    const br = median(blocked.raw);
    const te = median(tput.engine);
    const tr = median(tput.raw);
    progress(
      `launcher: blocked µs/run engine ${blocked.engine.map((x) => x.toFixed(0)).join('/')} · raw ${blocked.raw.map((x) => x.toFixed(0)).join('/')}`,
    );
    progress(
      `launcher: runs/s (4 in flight) engine ${tput.engine.map((x) => x.toFixed(0)).join('/')} · raw ${tput.raw.map((x) => x.toFixed(0)).join('/')}`,
    );
    return [
      {
        benchmark: `event-loop time blocked per shell hook run (emit + drain of /bin/true; ELU active time, median of ${ROUNDS} rounds × ${N}, each after ${SETTLE} unmeasured runs, after ${WARMUP} warm-up runs)`,
        hookwerk: fmtUs(be),
        baseline: `${fmtUs(br)} (raw spawn → close from the agent's process)`,
        ratio: fmtRatio(be / br),
        target: '≤ 100 µs',
        verdict: verdict(be <= 100),
      },
      {
        benchmark: `shell hook throughput, 4 in flight (one event, 4 hooks of /bin/true; median of ${ROUNDS} rounds × ${BATCHES} batches, each after ${SETTLE / 4} unmeasured batches)`,
        hookwerk: `${te.toFixed(0)} runs/s`,
        baseline: `${tr.toFixed(0)} runs/s (4 raw spawns at a time)`,
        ratio: fmtRatio(te / tr),
        target: '≥ 2×',
        verdict: verdict(te / tr >= 2),
      },
    ];
  } finally {
    await e1.close();
    await e4.close();
    one.cleanup();
    four.cleanup();
  }
}
