// 4. Storm: 100 000 emits with one hook (/bin/true) on the event, default engine bounds.
//
// Runs in a child process (`node --expose-gc bench/storm.js --child`) so RSS is not polluted by
// the other benchmarks. The child emits in chunks of 1 000 with `await setImmediate` between
// chunks (a realistic agent loop: hooks run meanwhile), then drains. RSS is sampled every 10 ms
// and after every chunk, through the storm and the drain. The child prints one JSON line.
//
// Reported: peak RSS growth over the RSS before the storm (target < 100 MB), runs that ran vs
// were dropped (hook_runs_total by outcome, events_dropped_total by reason), the wall time of
// the 100 000 emits (vs the same chunked loop over an EventEmitter) and of the drain.
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  fmtMB,
  fmtRatio,
  hooksWith,
  nextImmediate,
  progress,
  quietLogger,
  sleep,
  tempWorkspace,
  verdict,
} from './lib.js';

const EMITS = 100_000;
const CHUNK = 1000;
const SAMPLE_MS = 10;
/** The drain is cut here (the engine is then closed, dropping what still waits) to bound the run. */
const DRAIN_CAP_MS = 45_000;
const TARGET_RSS_MB = 100;
const PAYLOAD = Object.freeze({ tool: 'bash', success: true, output: 'ok' });

async function chunkedLoop(emitOne) {
  const t0 = performance.now();
  for (let c = 0; c < EMITS / CHUNK; c++) {
    for (let i = 0; i < CHUNK; i++) emitOne();
    await nextImmediate();
  }
  return performance.now() - t0;
}

/** Values of one metric as the Prometheus registry reports it (what a scrape would see). */
async function metricValues(engine, name) {
  const metrics = await engine.metrics.registry.getMetricsAsJSON();
  const metric = metrics.find((m) => m.name === name);
  if (metric === undefined) throw new Error(`metric ${name} not found`);
  return metric.values;
}

function sumBy(values, label) {
  const out = {};
  for (const v of values) out[v.labels[label]] = (out[v.labels[label]] ?? 0) + v.value;
  return out;
}

async function child() {
  const { createHookEngine } = await import('../dist/index.js');
  const ws = tempWorkspace(hooksWith('tool_call', 1));
  try {
    // Warm-up on a throwaway engine: module loading, JIT, the first spawns.
    const warm = await createHookEngine({ workspace: ws.dir, watch: false, logger: quietLogger });
    for (let i = 0; i < 20; i++) {
      warm.emit('tool_call', PAYLOAD);
      await warm.drain();
    }
    await warm.close();

    // Baseline for the emit wall time: the same chunked loop over an EventEmitter with 1 listener.
    const ee = new EventEmitter();
    let seen = 0;
    ee.on('tool_call', () => {
      seen++;
    });
    await chunkedLoop(() => ee.emit('tool_call', PAYLOAD)); // warm-up
    const baselineEmitMs = await chunkedLoop(() => ee.emit('tool_call', PAYLOAD));
    if (seen !== 2 * EMITS) throw new Error('EventEmitter baseline lost events');

    const engine = await createHookEngine({ workspace: ws.dir, watch: false, logger: quietLogger });
    await sleep(50);
    globalThis.gc?.();
    await sleep(50);
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let samples = 0;
    const sample = () => {
      const rss = process.memoryUsage().rss;
      samples++;
      if (rss > peak) peak = rss;
    };
    const timer = setInterval(sample, SAMPLE_MS);

    const emitMs = await chunkedLoop(() => {
      engine.emit('tool_call', PAYLOAD);
    });
    sample();
    const peakDuringEmits = peak;
    const finished = async () =>
      (await metricValues(engine, 'hook_runs_total'))
        .filter((v) => v.labels.outcome !== 'dropped')
        .reduce((a, v) => a + v.value, 0);
    const ranDuringEmits = await finished();

    const d0 = performance.now();
    let capped = false;
    let capTimer;
    await Promise.race([
      engine.drain(),
      new Promise((resolve) => {
        capTimer = setTimeout(() => {
          capped = true;
          resolve();
        }, DRAIN_CAP_MS);
      }),
    ]);
    clearTimeout(capTimer);
    const drainMs = performance.now() - d0;
    const ranDuringDrain = (await finished()) - ranDuringEmits;
    if (capped) await engine.close(); // drops what still waits (outcome dropped, cause closed)
    sample();
    clearInterval(timer);
    const rssAfter = process.memoryUsage().rss;

    const runs = await metricValues(engine, 'hook_runs_total');
    const dropped = await metricValues(engine, 'events_dropped_total');
    const emitted = await metricValues(engine, 'events_emitted_total');
    const result = {
      emits: EMITS,
      emitted: emitted.reduce((s, v) => s + v.value, 0),
      rssBefore,
      peakRss: peak,
      peakDuringEmits,
      rssAfter,
      samples,
      emitMs,
      baselineEmitMs,
      drainMs,
      drainCapped: capped,
      ranDuringEmits,
      ranDuringDrain,
      runsByOutcome: sumBy(runs, 'outcome'),
      droppedByReason: sumBy(dropped, 'reason'),
      maxQueue: 10_000,
    };
    if (!capped) await engine.close();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    ws.cleanup();
  }
}

function runChild() {
  const file = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', file, '--child'],
      { maxBuffer: 16 * 1024 * 1024, timeout: DRAIN_CAP_MS + 120_000 },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`storm child failed: ${err.message}\n${stderr}`));
          return;
        }
        if (stderr.trim() !== '') process.stderr.write(stderr);
        const last = stdout.trim().split('\n').pop();
        try {
          resolve(JSON.parse(last));
        } catch {
          reject(new Error(`storm child printed no result: ${stdout}`));
        }
      },
    );
  });
}

export async function run() {
  const r = await runChild();
  const growth = r.peakRss - r.rssBefore;
  const outcomes = r.runsByOutcome;
  const ran = Object.entries(outcomes)
    .filter(([k]) => k !== 'dropped')
    .reduce((s, [, v]) => s + v, 0);
  const droppedRuns = outcomes.dropped ?? 0;
  const droppedTotal = Object.values(r.droppedByReason).reduce((s, v) => s + v, 0);
  const accounted = ran + droppedRuns === r.emits && droppedTotal === droppedRuns && r.emitted === r.emits;
  const failed = ran - (outcomes.ok ?? 0);
  const rate = r.ranDuringDrain / (r.drainMs / 1000);
  const closedDrops = r.droppedByReason.closed ?? 0;
  progress(
    `storm: rss before ${fmtMB(r.rssBefore)}, peak ${fmtMB(r.peakRss)} (during emits ${fmtMB(r.peakDuringEmits)}), ` +
      `after drain ${fmtMB(r.rssAfter)}, ${r.samples} samples; outcomes ${JSON.stringify(outcomes)}; ` +
      `events_dropped_total ${JSON.stringify(r.droppedByReason)}; ran ${r.ranDuringEmits} during the emits, ` +
      `${r.ranDuringDrain} in the drain (${(r.drainMs / 1000).toFixed(1)} s, ${rate.toFixed(0)} runs/s)`,
  );
  const reasons = Object.entries(r.droppedByReason)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    {
      benchmark: 'storm 100k emits, 1 hook, default bounds: peak RSS growth',
      hookwerk: `+${fmtMB(growth)} (peak ${fmtMB(r.peakRss)})`,
      baseline: `${fmtMB(r.rssBefore)} (RSS before)`,
      ratio: fmtRatio(r.peakRss / r.rssBefore),
      target: `< ${TARGET_RSS_MB} MB growth`,
      verdict: verdict(growth < TARGET_RSS_MB * 1024 * 1024),
    },
    {
      benchmark: 'storm: runs ran / dropped (hook_runs_total, events_dropped_total)',
      hookwerk: `ran ${ran}${failed > 0 ? ` (${failed} not ok)` : ''} · dropped ${droppedRuns} (${reasons})`,
      baseline: `${r.emits} emits, maxQueue ${r.maxQueue}`,
      ratio: '—',
      target: 'every emit accounted for, drops counted',
      verdict: verdict(accounted && failed === 0),
    },
    {
      benchmark: 'storm: wall time of the 100k emits (chunks of 1 000, setImmediate between)',
      hookwerk: `${(r.emitMs / 1000).toFixed(2)} s`,
      baseline: `${r.baselineEmitMs.toFixed(0)} ms (same loop, EventEmitter)`,
      ratio: fmtRatio(r.emitMs / r.baselineEmitMs),
      target: '—',
      verdict: 'info',
    },
    {
      benchmark: 'storm: drain time after the emits',
      hookwerk:
        `${(r.drainMs / 1000).toFixed(1)} s, ${r.ranDuringDrain} runs (${rate.toFixed(0)}/s)` +
        (r.drainCapped
          ? `; cut: ${closedDrops} still queued${rate > 0 ? `, ≈ ${(closedDrops / rate).toFixed(0)} s more at that rate` : ''}`
          : ''),
      baseline: '—',
      ratio: '—',
      target: `drain finishes within ${DRAIN_CAP_MS / 1000} s`,
      verdict: r.drainCapped ? 'CUT' : 'PASS',
    },
  ];
}

if (process.argv.includes('--child')) {
  child().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
