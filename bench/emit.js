// 1. Caller cost of emit() with 10 hooks on the event vs EventEmitter.emit with 10 listeners.
//
// Two regimes. "Queued": many emits back to back (the steady state of a busy agent). "Right after
// hooks ran": one emit, timed alone, when the previous emit's 10 real /bin/true runs have just
// been drained — the agent's usual rhythm (an event, its hooks run, the next event), where caches
// are cold, the scheduler and the bus are idle and the first emit pays every "first after idle"
// cost. EventEmitter is timed in the same regime (alone, right after a drain), so both sides pay
// the same cold caches and timer reads.
//
// emit() only validates, builds the envelope and queues 10 runs; the scheduler pumps through
// setImmediate, so nothing spawns while a synchronous batch runs. We never yield to the event
// loop while an engine has runs queued: each timed batch (1000 emits = 10 000 queued runs, i.e.
// exactly the default maxQueue) gets a fresh engine, and the batch ends with close(), which drops
// the queued runs synchronously (before its first await), so the pending setImmediate pump finds
// an empty queue. Only then do we yield, so closed engines (and their pumps) can be collected.
//
// Why not one engine and many batches: queued runs pile up, and the GC cost of copying a queue far
// larger than any bounded engine holds (400 000 runs after 40 batches) dominated the measurement
// (batches of 70–300 µs per emit), which says nothing about emit() itself.
import { EventEmitter } from 'node:events';
import { createHookEngine } from '../dist/index.js';
import {
  fmtRatio,
  fmtUs,
  hooksWith,
  median,
  nextImmediate,
  progress,
  quantile,
  quietLogger,
  TOOL_CALL_PAYLOAD,
  tempWorkspace,
  timeBatches,
  verdict,
} from './lib.js';

const HOOKS = 10;
const BATCH = 1000; // emits per timed batch
const BATCHES = 61;
const WARMUP_BATCHES = 8;
const TARGET_US = 2;

/** One timed batch of emits on a fresh engine; returns µs per emit. */
async function engineBatch(dir) {
  const engine = await createHookEngine({
    workspace: dir,
    watch: false,
    maxQueue: BATCH * HOOKS,
    logger: quietLogger,
  });
  if (engine.actions().length !== HOOKS)
    throw new Error(`expected ${HOOKS} actions, got ${engine.actions().length}`);
  const [perCall] = timeBatches(() => engine.emit('tool_call', TOOL_CALL_PAYLOAD), {
    batchSize: BATCH,
    batches: 1,
  });
  const closing = engine.close(); // drops every queued run now, synchronously
  const records = engine.runs({ limit: BATCH * HOOKS });
  await closing;
  await nextImmediate();
  if (records.some((r) => r.outcome !== 'dropped' || r.cause !== 'closed')) {
    throw new Error('a run started or was dropped for another reason during the emit measurement');
  }
  return perCall;
}

const emitter = new EventEmitter();
let sink = 0;
for (let i = 0; i < HOOKS; i++) {
  emitter.on('tool_call', (p) => {
    if (p === undefined) sink++;
  });
}

/** One timed batch of EventEmitter.emit to 10 no-op listeners; returns µs per emit. */
async function emitterBatch() {
  const [perCall] = timeBatches(() => emitter.emit('tool_call', TOOL_CALL_PAYLOAD), {
    batchSize: BATCH,
    batches: 1,
  });
  if (sink !== 0) throw new Error('unreachable');
  await nextImmediate();
  return perCall;
}

const AFTER_RUNS_ROUNDS = 121; // timed emits per side, each right after a drain of real runs
// The batches above optimize emit() for engines whose runs never start; the first real runs
// invalidate what that code assumed (V8 deoptimizes it), and V8 needs ~200 rounds (~400 emits)
// of this rhythm to optimize it again. A 20-round warm-up timed that transient (baseline code;
// on a busy 2-vCPU host every build read ~3×, the load decided the verdict), not the agent's
// steady rhythm. 300 rounds are past it (issue 29: 41227af and this build re-optimize after ~200
// rounds; the build that had emit()'s per-hook loop in a helper did not within 300).
const AFTER_RUNS_WARMUP = 300;
const AFTER_RUNS_TARGET_RATIO = 3;

/** µs of one synchronous call, read around that call alone. */
function timeOnce(fn) {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1000;
}

/**
 * emit() and EventEmitter.emit, each timed alone right after the engine drained the 10 real runs of
 * the previous emit. Rounds alternate sides; a round that times EventEmitter still emits (untimed)
 * so that the next round again follows a drain of 10 runs.
 */
async function afterRunsRounds(dir, rounds) {
  const engine = await createHookEngine({ workspace: dir, watch: false, logger: quietLogger });
  const hw = [];
  const base = [];
  const emitOne = () => engine.emit('tool_call', TOOL_CALL_PAYLOAD);
  const emitterOne = () => emitter.emit('tool_call', TOOL_CALL_PAYLOAD);
  try {
    emitOne();
    for (let i = 0; i < 2 * rounds; i++) {
      await engine.drain();
      if (i % 2 === 0) hw.push(timeOnce(emitOne));
      else {
        base.push(timeOnce(emitterOne));
        emitOne();
      }
    }
    await engine.drain();
    const bad = engine.runs({ limit: HOOKS * 2 }).filter((r) => r.outcome !== 'ok');
    if (bad.length > 0) throw new Error(`a /bin/true run did not end ok: ${JSON.stringify(bad[0])}`);
  } finally {
    await engine.close();
  }
  if (sink !== 0) throw new Error('unreachable');
  return { hw, base };
}

/**
 * The overload path: the queue is full (maxQueue 0), so every emit drops its run on the spot
 * (record, metrics, bus message). This is what each emit costs during a storm.
 */
async function droppedBatch(dir, batches) {
  const engine = await createHookEngine({ workspace: dir, watch: false, maxQueue: 0, logger: quietLogger });
  const perCall = timeBatches(() => engine.emit('tool_call', TOOL_CALL_PAYLOAD), {
    batchSize: BATCH,
    batches,
  });
  await engine.close();
  await nextImmediate();
  return perCall;
}

export async function run() {
  const ws = tempWorkspace(hooksWith('tool_call', HOOKS));
  try {
    for (let i = 0; i < WARMUP_BATCHES; i++) {
      await engineBatch(ws.dir);
      await emitterBatch();
    }
    // Interleaved, so load from other processes hits both sides alike.
    const hw = [];
    const base = [];
    for (let i = 0; i < BATCHES; i++) {
      hw.push(await engineBatch(ws.dir));
      base.push(await emitterBatch());
    }
    if (process.env.DUMP) console.error(hw.map((x) => x.toFixed(1)).join(' '));
    const dropWs = tempWorkspace(hooksWith('tool_call', 1));
    let dropped;
    try {
      await droppedBatch(dropWs.dir, WARMUP_BATCHES);
      dropped = median(await droppedBatch(dropWs.dir, BATCHES));
    } finally {
      dropWs.cleanup();
    }
    const one = new EventEmitter();
    one.on('tool_call', () => {});
    const oneBase = median(
      timeBatches(() => one.emit('tool_call', TOOL_CALL_PAYLOAD), {
        batchSize: BATCH,
        batches: BATCHES,
        warmup: 5000,
      }),
    );
    await afterRunsRounds(ws.dir, AFTER_RUNS_WARMUP);
    const after = await afterRunsRounds(ws.dir, AFTER_RUNS_ROUNDS);
    const ah = median(after.hw);
    const ab = median(after.base);
    progress(
      `emit after runs: hookwerk median ${fmtUs(ah)} (p10 ${fmtUs(quantile(after.hw, 0.1))}, p90 ${fmtUs(quantile(after.hw, 0.9))}), ` +
        `EventEmitter median ${fmtUs(ab)} (p10 ${fmtUs(quantile(after.base, 0.1))}, p90 ${fmtUs(quantile(after.base, 0.9))})`,
    );
    if (process.env.DUMP) console.error(after.hw.map((x) => x.toFixed(2)).join(' '));
    const h = median(hw);
    const b = median(base);
    progress(
      `emit: hookwerk median ${fmtUs(h)} (p10 ${fmtUs(quantile(hw, 0.1))}, p90 ${fmtUs(quantile(hw, 0.9))}), ` +
        `EventEmitter median ${fmtUs(b)} (p10 ${fmtUs(quantile(base, 0.1))}, p90 ${fmtUs(quantile(base, 0.9))})`,
    );
    return [
      {
        benchmark: `emit() caller cost, ${HOOKS} hooks queued per emit (median of ${hw.length} batches × ${BATCH})`,
        hookwerk: fmtUs(h),
        baseline: `${fmtUs(b)} (EventEmitter, ${HOOKS} listeners)`,
        ratio: fmtRatio(h / b),
        target: `≤ ${TARGET_US} µs`,
        verdict: verdict(h <= TARGET_US),
      },
      {
        benchmark: `emit() when the run queue is full: 1 hook, its run dropped (median of ${BATCHES} batches × ${BATCH})`,
        hookwerk: fmtUs(dropped),
        baseline: `${fmtUs(oneBase)} (EventEmitter, 1 listener)`,
        ratio: fmtRatio(dropped / oneBase),
        target: `≤ ${TARGET_US} µs (extra row)`,
        verdict: verdict(dropped <= TARGET_US),
      },
      {
        benchmark: `emit() right after hooks ran, ${HOOKS} hooks, vs EventEmitter same regime (each call timed alone after a drain of ${HOOKS} /bin/true runs; median of ${after.hw.length})`,
        hookwerk: fmtUs(ah),
        baseline: `${fmtUs(ab)} (EventEmitter, ${HOOKS} listeners, timed alone after the same drain)`,
        ratio: fmtRatio(ah / ab),
        target: `≤ ${AFTER_RUNS_TARGET_RATIO}×`,
        verdict: verdict(ah / ab <= AFTER_RUNS_TARGET_RATIO),
      },
    ];
  } finally {
    ws.cleanup();
  }
}
