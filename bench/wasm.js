// 6. A warm WASM plugin hook per event vs a bare worker postMessage round trip [P-WASM-3].
//
// Three sides, measured in the same run, interleaved call by call (order rotated every round):
//   bare    a worker_threads Worker that echoes: postMessage([id, event, json]) → reply id
//   plugin  PluginRunner.call(event, envelopeJson) on the example plugin (audit-logger): the
//           same round trip plus the jco glue and the component's on-event in the worker
//   engine  engine.emit('tool_call') then await engine.drain(): envelope, scheduler, plugin call,
//           run record, metrics, bus publish of the record
// The figure per side is the median of the per-round means. Target: the engine side ≤ 100 µs
// and ≤ 3× the bare round trip.
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createHookEngine } from '../dist/index.js';
import { PluginHost } from '../dist/sources/plugin-host.js';
import {
  fmtRatio,
  fmtUs,
  median,
  nowUs,
  progress,
  quietLogger,
  TOOL_CALL_PAYLOAD,
  tempWorkspace,
  verdict,
} from './lib.js';

const ROUNDS = 15;
const N = 2000;
const WARMUP = 2000;
const TARGET_US = 100;
const TARGET_RATIO = 3;

const EXAMPLE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'examples',
  'plugins',
  'audit-logger',
);

function bareWorker() {
  const w = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (m) => parentPort.postMessage(m[0]));`,
    { eval: true },
  );
  let pending;
  w.on('message', (id) => pending?.(id));
  let id = 0;
  return {
    call: (event, json) =>
      new Promise((resolve) => {
        pending = resolve;
        w.postMessage([++id, event, json]);
      }),
    close: () => w.terminate(),
  };
}

async function round(fn, n) {
  const t0 = nowUs();
  for (let i = 0; i < n; i++) await fn();
  return (nowUs() - t0) / n;
}

export async function run() {
  const ws = tempWorkspace({ hooks: {} });
  const pluginDir = path.join(ws.dir, 'plugins', 'audit-logger');
  mkdirSync(path.dirname(pluginDir), { recursive: true });
  cpSync(EXAMPLE, pluginDir, { recursive: true });
  const bare = bareWorker();
  const t0 = nowUs();
  const host = new PluginHost({ dir: path.join(ws.dir, 'plugins'), logger: quietLogger, watch: false });
  const engine = await createHookEngine({ workspace: ws.dir, watch: false, logger: quietLogger });
  try {
    const runner = host.plugins()[0];
    if (runner === undefined)
      throw new Error(`the example plugin did not load: ${JSON.stringify(host.issues())}`);
    const envelope = JSON.stringify({
      event: 'tool_call',
      timestamp: new Date().toISOString(),
      session_id: 'sess_bench',
      payload: TOOL_CALL_PAYLOAD,
    });
    const first = await runner.call('tool_call', envelope);
    if (first.outcome !== 'ok') throw new Error(`plugin call failed: ${JSON.stringify(first)}`);
    progress(`wasm: first call (transpile or disk cache, worker start, instantiate) ${fmtUs(nowUs() - t0)}`);

    const sides = {
      bare: () => bare.call('tool_call', envelope),
      plugin: async () => {
        const r = await runner.call('tool_call', envelope);
        if (r.outcome !== 'ok') throw new Error(`plugin call failed: ${JSON.stringify(r)}`);
      },
      engine: async () => {
        engine.emit('tool_call', TOOL_CALL_PAYLOAD);
        await engine.drain();
      },
    };
    for (const fn of Object.values(sides)) await round(fn, WARMUP);
    const means = { bare: [], plugin: [], engine: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = Object.keys(sides);
      for (let k = 0; k < r % order.length; k++) order.push(order.shift());
      for (const name of order) means[name].push(await round(sides[name], N));
    }
    const notOk = engine.runs({ limit: 100_000 }).filter((x) => x.outcome !== 'ok');
    if (notOk.length > 0) throw new Error(`engine runs not ok: ${JSON.stringify(notOk[0])}`);
    if (engine.runs({ limit: 1 })[0]?.hook !== 'audit-logger')
      throw new Error('the engine did not run the plugin');

    // Cold start with a warm disk cache: a new host reads the cached transpile, compiles the core
    // module, starts a worker and instantiates (a restart after a timeout skips the first two).
    const restart = [];
    for (let i = 0; i < 5; i++) {
      const h = new PluginHost({
        dir: path.join(ws.dir, 'plugins'),
        logger: quietLogger,
        watch: false,
        prewarm: false,
      });
      const s = nowUs();
      await h.plugins()[0].call('tool_call', envelope);
      restart.push(nowUs() - s);
      await h.close();
    }

    const bareUs = median(means.bare);
    const pluginUs = median(means.plugin);
    const engineUs = median(means.engine);
    progress(
      `wasm: bare ${means.bare.map((x) => x.toFixed(1)).join('/')} µs · plugin ${means.plugin
        .map((x) => x.toFixed(1))
        .join('/')} · engine ${means.engine.map((x) => x.toFixed(1)).join('/')}`,
    );
    const ok = engineUs <= TARGET_US && engineUs / bareUs <= TARGET_RATIO;
    return [
      {
        benchmark: `WASM plugin hook, warm, per event: emit + drain → record (audit-logger; median of ${ROUNDS} round means, n=${N})`,
        hookwerk: fmtUs(engineUs),
        baseline: `${fmtUs(bareUs)} (bare worker postMessage round trip)`,
        ratio: fmtRatio(engineUs / bareUs),
        target: `≤ ${TARGET_US} µs and ≤ ${TARGET_RATIO}×`,
        verdict: verdict(ok),
      },
      {
        benchmark: `WASM plugin call alone: PluginRunner.call (round trip + jco glue + on-event; n=${N})`,
        hookwerk: fmtUs(pluginUs),
        baseline: `${fmtUs(bareUs)} (bare worker postMessage round trip)`,
        ratio: fmtRatio(pluginUs / bareUs),
        target: `≤ ${TARGET_RATIO}× (extra row)`,
        verdict: verdict(pluginUs / bareUs <= TARGET_RATIO),
      },
      {
        benchmark:
          'WASM plugin cold start, transpile on disk: cache read + compile + worker + instantiate + first event (median of 5)',
        hookwerk: fmtUs(median(restart)),
        baseline: '—',
        ratio: '—',
        target: 'info',
        verdict: 'INFO',
      },
    ];
  } finally {
    await host.close();
    await engine.close();
    await bare.close();
    ws.cleanup();
  }
}
