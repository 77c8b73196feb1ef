// 1. Caller cost of emit() with 10 hooks on the event vs EventEmitter.emit with 10 listeners.
//
// emit() only validates, builds the envelope and queues 10 runs; the scheduler pumps through
// setImmediate, so nothing spawns while a synchronous batch runs. We never yield to the event
// loop while an engine has runs queued: each round uses a fresh engine whose maxQueue holds every
// run of the round, and the round ends with close(), which drops the queued runs synchronously
// (before its first await), so the pending setImmediate pump finds an empty queue.
import { EventEmitter } from 'node:events';
import { createHookEngine } from '../dist/index.js';
import {
  fmtRatio,
  fmtUs,
  hooksWith,
  median,
  progress,
  quietLogger,
  TOOL_CALL_PAYLOAD,
  tempWorkspace,
  timeBatches,
  verdict,
} from './lib.js';

const HOOKS = 10;
const BATCH = 1000; // emits per timed batch
const BATCHES_PER_ROUND = 8;
const ROUNDS = 6;
const WARMUP_EMITS = 5000;
const TARGET_US = 2;

async function engineRound(dir, batches, warmup) {
  const emitsPerRound = batches * BATCH + warmup;
  const engine = await createHookEngine({
    workspace: dir,
    watch: false,
    maxQueue: emitsPerRound * HOOKS,
    logger: quietLogger,
  });
  if (engine.actions().length !== HOOKS) throw new Error(`expected ${HOOKS} actions, got ${engine.actions().length}`);
  const perCall = timeBatches(() => engine.emit('tool_call', TOOL_CALL_PAYLOAD), {
    batchSize: BATCH,
    batches,
    warmup,
  });
  const closing = engine.close(); // drops every queued run now, synchronously
  const started = engine.runs({ limit: 1_000_000 }).filter((r) => r.outcome !== 'dropped').length;
  await closing;
  if (started !== 0) throw new Error(`${started} runs started during the emit measurement`);
  return perCall;
}

function emitterRound(batches, warmup) {
  const ee = new EventEmitter();
  ee.setMaxListeners(HOOKS + 1);
  let sink = 0;
  for (let i = 0; i < HOOKS; i++) {
    ee.on('tool_call', (p) => {
      if (p === undefined) sink++;
    });
  }
  const perCall = timeBatches(() => ee.emit('tool_call', TOOL_CALL_PAYLOAD), { batchSize: BATCH, batches, warmup });
  if (sink !== 0) throw new Error('unreachable');
  return perCall;
}

export async function run() {
  const ws = tempWorkspace(hooksWith('tool_call', HOOKS));
  try {
    // Warm-up of both sides (JIT, prom-client label caches).
    await engineRound(ws.dir, 2, WARMUP_EMITS);
    emitterRound(2, WARMUP_EMITS);
    const hw = [];
    const base = [];
    for (let r = 0; r < ROUNDS; r++) {
      hw.push(...(await engineRound(ws.dir, BATCHES_PER_ROUND, 0)));
      base.push(...emitterRound(BATCHES_PER_ROUND, 0));
    }
    const h = median(hw);
    const b = median(base);
    progress(
      `emit: hookwerk ${fmtUs(h)} (batches ${fmtUs(Math.min(...hw))}…${fmtUs(Math.max(...hw))}), EventEmitter ${fmtUs(b)}`,
    );
    return [
      {
        benchmark: `emit() caller cost, ${HOOKS} hooks (median of ${hw.length}×${BATCH})`,
        hookwerk: fmtUs(h),
        baseline: `${fmtUs(b)} (EventEmitter, ${HOOKS} listeners)`,
        ratio: fmtRatio(h / b),
        target: `≤ ${TARGET_US} µs`,
        verdict: verdict(h <= TARGET_US),
      },
    ];
  } finally {
    ws.cleanup();
  }
}
