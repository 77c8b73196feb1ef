// 8. NATS worker fleet (issue 12, SPEC §8): a real nats-server, real `hookwerk worker` processes.
//
// (a) Throughput, core mode: an agent engine (`nats: { runLocally: false }`) emits N tool_call
//     events; 2 worker processes (the CLI, queue group `hookwerk`) run the workspace's one hook
//     (/bin/true) and publish the run records back; the clock stops when the agent's bus has N ok
//     records (`hookwerk.run.*`). Baseline: one engine running the same hooks.json in-process,
//     emit N + drain(). Rounds alternate the two sides; the figure is the median of the rounds.
// (b) Latency, emit → run record back on the agent's bus, one event at a time (p50 / p99), core
//     and durable (JetStream stream, durable consumer, ack after the record). Baseline: the same
//     in-process engine, emit → the record on its own bus.
//
// The nats-server (Debian package) is started here on a free port with JetStream in a temp folder
// and stopped at the end, with the workers; `setpriv --pdeathsig KILL` (util-linux) makes sure
// neither outlives this process.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHookEngine } from '../dist/index.js';
import {
  fmtRatio,
  fmtUs,
  hooksWith,
  median,
  nextImmediate,
  nowUs,
  progress,
  quantile,
  quietLogger,
  TOOL_CALL_PAYLOAD,
  tempWorkspace,
  verdict,
} from './lib.js';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'hookwerk.js');
const WORKERS = 2;
const THROUGHPUT_EVENTS = 2000;
const THROUGHPUT_ROUNDS = 3;
const WARMUP_EVENTS = 200;
const LATENCY_SAMPLES = 300;
const LATENCY_WARMUP = 30;
/** Emits per loop turn in the throughput rounds (an agent loop that yields, as in the storm bench). */
const CHUNK = 100;
const WAIT_MS = 60_000;
/** Both sides share this machine's CPUs (agent, server, 2 workers vs one engine): NATS may cost half. */
const TARGET_THROUGHPUT_RATIO = 0.5;
const TARGET_P99_MS = 25;

const SEARCH_PATH = [process.env.PATH ?? '', '/usr/local/sbin', '/usr/sbin', '/sbin'].join(path.delimiter);

function which(name) {
  for (const dir of SEARCH_PATH.split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A child process whose output is kept, with `waitFor(text)` (rejects when it exits first) and
 * `stop()` (SIGTERM, SIGKILL after 10 s, resolves on exit).
 */
function startProcess(label, cmd, args) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let exited = false;
  const onData = (d) => {
    out += d;
    if (out.length > 65_536) out = out.slice(-65_536);
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  const exit = new Promise((resolve) => {
    child.once('close', () => {
      exited = true;
      resolve();
    });
  });
  child.once('error', () => {});
  return {
    child,
    output: () => out,
    async waitFor(text, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes(text)) {
        if (exited) throw new Error(`${label} exited before "${text}":\n${out.slice(-2000)}`);
        if (Date.now() > deadline)
          throw new Error(`${label}: no "${text}" within ${timeoutMs} ms:\n${out.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** A real nats-server with JetStream on a free 127.0.0.1 port; `stop()` also removes its store. */
async function startNatsServer() {
  const bin = which('nats-server');
  if (bin === undefined) throw new Error('nats-server not found: apt-get install nats-server');
  const setpriv = which('setpriv');
  const storeDir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-nats-'));
  const port = await freePort();
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  const proc =
    setpriv === undefined
      ? startProcess('nats-server', bin, args)
      : startProcess('nats-server', setpriv, ['--pdeathsig', 'KILL', '--', bin, ...args]);
  try {
    await proc.waitFor('Server is ready', 10_000);
  } catch (err) {
    await proc.stop();
    rmSync(storeDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      await proc.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** `hookwerk worker` processes on `workspace`; resolves once each printed `ready`. */
async function startWorkers(url, workspace, durable) {
  const workers = [];
  for (let i = 0; i < WORKERS; i++) {
    const name = `bench-${durable ? 'durable' : 'core'}-${i + 1}`;
    const args = [BIN, 'worker', '--nats', url, '--workspace', workspace, '--name', name];
    if (durable) args.push('--durable');
    workers.push(startProcess(name, process.execPath, args));
  }
  try {
    await Promise.all(workers.map((w) => w.waitFor('ready\n')));
  } catch (err) {
    await stopAll(workers);
    throw err;
  }
  return workers;
}

async function stopAll(procs) {
  await Promise.all(procs.map((p) => p.stop()));
}

/**
 * Run records arriving on an engine's bus, by session id: `next(sessionId)` resolves with the
 * arrival time (µs) of that session's record; `ok` / `notOk` count them, `byWorker` by worker.
 */
function recordWatch(engine) {
  const waiting = new Map();
  const watch = { ok: 0, notOk: 0, firstBad: undefined, byWorker: new Map() };
  engine.bus.subscribe('hookwerk.run.*', (msg) => {
    const at = nowUs();
    const r = msg.payload;
    if (r.worker !== undefined) watch.byWorker.set(r.worker, (watch.byWorker.get(r.worker) ?? 0) + 1);
    if (r.outcome === 'ok') watch.ok++;
    else {
      watch.notOk++;
      watch.firstBad ??= r;
    }
    const resolve = waiting.get(r.sessionId);
    if (resolve !== undefined) {
      waiting.delete(r.sessionId);
      resolve(at);
    }
  });
  watch.next = (sessionId) => new Promise((resolve) => waiting.set(sessionId, resolve));
  return watch;
}

async function until(check, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Emits `n` events in chunks of CHUNK (yielding between chunks); returns the µs of the whole run. */
async function emitChunked(engine, n, prefix, done) {
  const t0 = nowUs();
  for (let i = 0; i < n; i += CHUNK) {
    for (let k = i; k < Math.min(n, i + CHUNK); k++)
      engine.emit('tool_call', TOOL_CALL_PAYLOAD, { sessionId: `${prefix}-${k}` });
    await nextImmediate();
  }
  await done();
  return nowUs() - t0;
}

/** Events/s through NATS: emit n, wait for n ok records back on the agent's bus. */
async function natsRound(agent, watch, n, prefix) {
  const start = watch.ok;
  const us = await emitChunked(agent, n, prefix, () =>
    until(() => watch.ok - start >= n || watch.notOk > 0, `${n} run records from the workers`),
  );
  if (watch.notOk > 0) throw new Error(`a worker run was not ok: ${JSON.stringify(watch.firstBad)}`);
  return n / (us / 1e6);
}

/** Events/s in-process: emit n, drain. */
async function localRound(engine, n, prefix) {
  return n / ((await emitChunked(engine, n, prefix, () => engine.drain())) / 1e6);
}

/** Emit → record latencies (ms), one event at a time. */
async function latencies(engine, watch, samples, prefix) {
  const out = [];
  for (let i = 0; i < samples; i++) {
    const sessionId = `${prefix}-${i}`;
    const arrived = watch.next(sessionId);
    const t0 = nowUs();
    engine.emit('tool_call', TOOL_CALL_PAYLOAD, { sessionId });
    out.push(((await arrived) - t0) / 1000);
  }
  if (watch.notOk > 0) throw new Error(`a run was not ok: ${JSON.stringify(watch.firstBad)}`);
  return out;
}

function fmtMs(ms) {
  return fmtUs(ms * 1000);
}

export async function run() {
  const ws = tempWorkspace(hooksWith('tool_call', 1));
  const server = await startNatsServer();
  const engines = [];
  let workers = [];
  const open = async (opts) => {
    const e = await createHookEngine({ watch: false, plugins: false, logger: quietLogger, ...opts });
    engines.push(e);
    return e;
  };
  try {
    const local = await open({ workspace: ws.dir });
    const localWatch = recordWatch(local);
    const agent = await open({ nats: { servers: server.url, runLocally: false, name: 'bench-agent' } });
    const agentWatch = recordWatch(agent);
    workers = await startWorkers(server.url, ws.dir, false);

    // (a) throughput, core mode
    await localRound(local, WARMUP_EVENTS, 'warm-local');
    await natsRound(agent, agentWatch, WARMUP_EVENTS, 'warm-nats');
    const rates = { nats: [], local: [] };
    for (let r = 0; r < THROUGHPUT_ROUNDS; r++) {
      const order = r % 2 === 0 ? ['local', 'nats'] : ['nats', 'local'];
      for (const side of order) {
        const rate =
          side === 'local'
            ? await localRound(local, THROUGHPUT_EVENTS, `tp-local-${r}`)
            : await natsRound(agent, agentWatch, THROUGHPUT_EVENTS, `tp-nats-${r}`);
        rates[side].push(rate);
      }
    }
    progress(
      `nats throughput: nats ${rates.nats.map((x) => x.toFixed(0)).join('/')} ev/s · in-process ${rates.local
        .map((x) => x.toFixed(0))
        .join('/')} ev/s`,
    );
    const natsRate = median(rates.nats);
    const localRate = median(rates.local);
    // How the queue group shared the runs (records carry `worker`), warm-up included.
    const byWorker = [...agentWatch.byWorker.values()].join('/');

    // (b) latency, core mode, vs in-process
    await latencies(agent, agentWatch, LATENCY_WARMUP, 'lw-nats');
    await latencies(local, localWatch, LATENCY_WARMUP, 'lw-local');
    const coreLat = [];
    const localLat = [];
    // Interleaved in blocks of 10 so drift hits both alike.
    for (let i = 0; i < LATENCY_SAMPLES; i += 10) {
      coreLat.push(...(await latencies(agent, agentWatch, 10, `lat-nats-${i}`)));
      localLat.push(...(await latencies(local, localWatch, 10, `lat-local-${i}`)));
    }

    // (b) latency, durable mode: the core workers go, durable ones come (a durable publish is
    // also a core message on the subject, which core workers would run too).
    await stopAll(workers);
    workers = [];
    const durableAgent = await open({
      nats: { servers: server.url, runLocally: false, durable: true, name: 'bench-agent-durable' },
    });
    const durableWatch = recordWatch(durableAgent);
    workers = await startWorkers(server.url, ws.dir, true);
    await latencies(durableAgent, durableWatch, LATENCY_WARMUP, 'lw-durable');
    const durableLat = await latencies(durableAgent, durableWatch, LATENCY_SAMPLES, 'lat-durable');

    const p = (xs, q) => quantile(xs, q);
    progress(
      `nats latency ms p50/p99: core ${p(coreLat, 0.5).toFixed(2)}/${p(coreLat, 0.99).toFixed(2)} · durable ${p(
        durableLat,
        0.5,
      ).toFixed(2)}/${p(durableLat, 0.99).toFixed(2)} · in-process ${p(localLat, 0.5).toFixed(2)}/${p(
        localLat,
        0.99,
      ).toFixed(2)}`,
    );
    const localP = `p50 ${fmtMs(p(localLat, 0.5))} / p99 ${fmtMs(p(localLat, 0.99))} (in-process: emit → record on its bus)`;
    return [
      {
        benchmark: `events/s through NATS (core) to ${WORKERS} worker processes, /bin/true hook, record back on the agent's bus (median of ${THROUGHPUT_ROUNDS} rounds × ${THROUGHPUT_EVENTS}; runs per worker ${byWorker})`,
        hookwerk: `${natsRate.toFixed(0)} events/s`,
        baseline: `${localRate.toFixed(0)} events/s (one engine, same hooks.json, in-process: emit + drain)`,
        ratio: fmtRatio(natsRate / localRate),
        target: `≥ ${TARGET_THROUGHPUT_RATIO}× (all on this machine's CPUs)`,
        verdict: verdict(natsRate / localRate >= TARGET_THROUGHPUT_RATIO),
      },
      {
        benchmark: `emit → run record on the agent's bus via NATS, core mode, one at a time (p50 / p99 of ${coreLat.length})`,
        hookwerk: `p50 ${fmtMs(p(coreLat, 0.5))} / p99 ${fmtMs(p(coreLat, 0.99))}`,
        baseline: localP,
        ratio: fmtRatio(p(coreLat, 0.5) / p(localLat, 0.5)),
        target: `p99 ≤ ${TARGET_P99_MS} ms`,
        verdict: verdict(p(coreLat, 0.99) <= TARGET_P99_MS),
      },
      {
        benchmark: `emit → run record on the agent's bus via NATS, durable mode (stream, durable consumer, ack after record), one at a time (p50 / p99 of ${durableLat.length})`,
        hookwerk: `p50 ${fmtMs(p(durableLat, 0.5))} / p99 ${fmtMs(p(durableLat, 0.99))}`,
        baseline: localP,
        ratio: fmtRatio(p(durableLat, 0.5) / p(localLat, 0.5)),
        target: `p99 ≤ ${TARGET_P99_MS} ms (extra row)`,
        verdict: verdict(p(durableLat, 0.99) <= TARGET_P99_MS),
      },
    ];
  } finally {
    for (const e of engines.splice(0)) await e.close();
    await stopAll(workers);
    await server.stop();
    ws.cleanup();
  }
}
