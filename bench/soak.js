// Soak (issue 11): a real `hookwerk serve` (from dist/) driven with 10⁶ events over ~10 minutes
// through POST /api/events, with a mix of hooks — ok (`/bin/true`), slow (`sleep 0.2`), failing
// (`exit 3`), output-flooding (`head -c 2000000 /dev/zero`) — and Server-Sent-Event clients on
// /api/events/stream: some read everything, one reads a little every two seconds, one reads nothing
// for 30 s at a time (the server cuts such clients once they are 1 MiB behind; they reconnect).
//
// Every SOAK_REPORT_SECONDS (30) it prints the server's RSS and open fds (/proc/<pid>/status and
// /proc/<pid>/fd), the launcher's fds, and the record counts from /metrics (runs by outcome, drops
// by reason, SSE clients and drops). After the warm-up it fails (exit 1) when
//   RSS > warm-up RSS × 1.5 + 50 MB   or   fds > warm-up fds + 20,
// at any report or at the end. At the end (queue drained) it also checks that every accepted event
// is counted once in events_emitted_total and that each hooked event has exactly one run record
// (ran or dropped) per event, that /healthz answers, and that SIGTERM stops the server with exit 0.
//
//   npm run soak                                  # 10⁶ emits, ~600 s
//   SOAK_EMITS=20000 SOAK_SECONDS=30 SOAK_REPORT_SECONDS=10 node bench/soak.js   # smoke run
//   node bench/soak.js --emits 20000 --seconds 30 --report-every 10
//
// Other knobs (env): SOAK_WARMUP_SECONDS (default: a fifth of the run, 10…60 s), SOAK_CONNECTIONS
// (HTTP connections for the emits, default 8), SOAK_SSE_READERS (4), SOAK_SSE_SLOW (1),
// SOAK_SSE_STALLED (1).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { envLine, fmtMB, sleep } from './lib.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// Settings

function setting(flag, env, fallback) {
  const at = process.argv.indexOf(flag);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[env];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`soak: ${flag} / ${env} must be a number ≥ 0, got "${raw}"\n`);
    process.exit(2);
  }
  return n;
}

const EMITS = Math.round(setting('--emits', 'SOAK_EMITS', 1_000_000));
const SECONDS = setting('--seconds', 'SOAK_SECONDS', 600);
const REPORT_S = setting('--report-every', 'SOAK_REPORT_SECONDS', 30);
const WARMUP_S = setting('--warmup', 'SOAK_WARMUP_SECONDS', Math.min(60, Math.max(10, SECONDS / 5)));
const CONNECTIONS = setting('--connections', 'SOAK_CONNECTIONS', 8);
const SSE_READERS = setting('--sse-readers', 'SOAK_SSE_READERS', 4);
const SSE_SLOW = setting('--sse-slow', 'SOAK_SSE_SLOW', 1);
const SSE_STALLED = setting('--sse-stalled', 'SOAK_SSE_STALLED', 1);
/** Emits are paced to EMITS / SECONDS per second; after this long they stop, sent or not. */
const MAX_SECONDS = SECONDS * 2 + 60;
const DRAIN_CAP_MS = 90_000;

/** The bounds after warm-up. */
const RSS_FACTOR = 1.5;
const RSS_SLACK = 50 * 1024 * 1024;
const FD_SLACK = 20;

// ---------------------------------------------------------------------------------------------
// The workspace: one hook kind per event; the other events only reach the bus (and SSE clients)

const HOOKS = {
  tool_call: [{ id: 'ok', command: '/bin/true', timeout_ms: 10_000 }],
  llm_response: [{ id: 'slow', command: '/bin/sleep', args: ['0.2'], timeout_ms: 10_000 }],
  error: [{ id: 'failing', command: '/bin/sh', args: ['-c', 'exit 3'], timeout_ms: 10_000 }],
  agent_end: [
    { id: 'flood', command: '/bin/sh', args: ['-c', 'head -c 2000000 /dev/zero'], timeout_ms: 10_000 },
  ],
};

const BIG = 'x'.repeat(50_000);
/** [event, share of the emits, body variants] — shares add up to 1. */
const MIX = [
  ['tool_call', 0.1, [{ tool: 'bash', success: true, output: 'ok' }]],
  ['llm_response', 0.004, [{ provider: 'p', model: 'm', duration_ms: 812, success: true }]],
  ['error', 0.02, [{ component: 'soak', message: 'something failed' }]],
  ['agent_end', 0.002, [{ success: true, messages_count: 12 }]],
  // No hooks: the bus and the SSE clients only. 1 % carry 50 kB (SSE byte buffers).
  [
    'tool_call_start',
    0.424,
    [
      { tool: 'bash', arguments: { command: 'ls -la' } },
      { tool: 'bash', arguments: { command: 'ls -la' } },
      { tool: 'read', arguments: { path: BIG } },
    ],
  ],
  ['turn_complete', 0.25, [{}]],
  ['llm_request', 0.1, [{ provider: 'p', model: 'm', messages_count: 3 }]],
  ['agent_start', 0.1, [{ agent: 'soak', session: 's' }]],
];
const HOOKED = new Set(Object.keys(HOOKS));

/** A deterministic schedule: emit i gets MIX entry pick(i) (a low-discrepancy sequence). */
const CUMULATIVE = [];
{
  let sum = 0;
  for (const [event, share, variants] of MIX) {
    sum += share;
    CUMULATIVE.push({
      upTo: sum,
      event,
      bodies: variants.map((payload, v) => JSON.stringify({ event, session_id: `soak-${v}`, payload })),
    });
  }
}
const GOLDEN = 0.6180339887498949;
function pick(i) {
  const x = (i * GOLDEN) % 1;
  for (const entry of CUMULATIVE) if (x < entry.upTo) return entry;
  return CUMULATIVE[CUMULATIVE.length - 1];
}
/** Variant v of an entry: the big payload only for 1 emit in 100 of tool_call_start (variant 2). */
function bodyOf(entry, i) {
  if (entry.bodies.length === 1) return entry.bodies[0];
  return i % 100 === 7 ? entry.bodies[2] : entry.bodies[i % 2];
}

// ---------------------------------------------------------------------------------------------
// /proc and /metrics

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return kb * 1024;
}

function fdsOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
}

/** Direct children of `pid` (the launcher of serve, and whatever else it started). */
function childrenOf(pid) {
  const out = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text !== '') out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** Prometheus text → [{name, labels, value}]. */
function parseMetrics(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (m === null) continue;
    const labels = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

function sumBy(metrics, name, label) {
  const out = {};
  for (const m of metrics) {
    if (m.name !== name) continue;
    const key = label === undefined ? '' : (m.labels[label] ?? '');
    out[key] = (out[key] ?? 0) + m.value;
  }
  return out;
}

/** `tool_call ok 10, …`: the outcomes of each hooked event's runs. */
function hookedRuns(metrics) {
  const parts = [];
  for (const event of Object.keys(HOOKS)) {
    const byOutcome = {};
    for (const m of metrics)
      if (m.name === 'hook_runs_total' && m.labels.event === event)
        byOutcome[m.labels.outcome] = (byOutcome[m.labels.outcome] ?? 0) + m.value;
    parts.push(`${event} (${HOOKS[event][0].id}): ${fmtCounts(byOutcome)}`);
  }
  return parts.join('; ');
}

function fmtCounts(counts) {
  const parts = Object.entries(counts)
    .filter(([, v]) => v !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`);
  return parts.length === 0 ? '—' : parts.join(', ');
}

// ---------------------------------------------------------------------------------------------
// The server

async function startServe(workspace, home, token) {
  const child = spawn(
    process.execPath,
    [
      path.join(REPO, 'bin/hookwerk.js'),
      'serve',
      '--workspace',
      workspace,
      '--project',
      workspace,
      '--port',
      '0',
    ],
    {
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home, HOOKWERK_TOKEN: token, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr += d;
    if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    exited.then(({ code, signal }) =>
      reject(new Error(`serve exited (${code ?? signal}) before listening:\n${stderr}`)),
    );
    setTimeout(() => reject(new Error(`serve did not listen within 30 s:\n${out}\n${stderr}`)), 30_000);
  });
  return { child, url, exited, stderr: () => stderr };
}

// ---------------------------------------------------------------------------------------------
// SSE clients

class SseClient {
  constructor(base, token, kind, topic) {
    this.url = new URL(`/api/events/stream?topic=${encodeURIComponent(topic)}`, base);
    this.token = token;
    this.kind = kind; // reader | slow | stalled
    this.topic = topic;
    this.bytes = 0;
    this.messages = 0;
    this.connects = 0;
    this.ends = 0;
    this.refused = 0;
    this.stopped = false;
    this.req = undefined;
    this.timer = undefined;
  }

  connect() {
    if (this.stopped) return;
    const headers = { authorization: `Bearer ${this.token}` };
    const req = http.get(this.url, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        this.refused++;
        res.resume();
        return;
      }
      this.connects++;
      const count = (chunk) => {
        this.bytes += chunk.length;
        for (let i = chunk.indexOf('\n\n'); i >= 0; i = chunk.indexOf('\n\n', i + 2)) this.messages++;
      };
      if (this.kind === 'reader') res.on('data', count);
      else if (this.kind === 'slow') {
        // Reads for 50 ms every 2 s: falls behind whenever the bus is busy.
        res.on('data', count);
        res.pause();
        this.timer = setInterval(() => {
          res.resume();
          setTimeout(() => res.pause(), 50).unref();
        }, 2000);
      } else {
        // Stalled: reads nothing for 30 s at a time, then drains what waits (which is how a
        // paused client learns that the server cut it: the end comes after the unread data).
        res.on('data', count);
        res.pause();
        this.timer = setInterval(() => {
          res.resume();
          setTimeout(() => res.pause(), 200).unref();
        }, 30_000);
      }
      res.on('error', () => {});
    });
    // The socket's close: the server ended the stream or cut the connection. (A paused response
    // never ends while its data waits unread: the socket tells.)
    let closed = false;
    const onClose = () => {
      if (closed) return;
      closed = true;
      clearInterval(this.timer);
      req.destroy();
      if (this.stopped) return;
      const opened = req.res?.statusCode === 200;
      if (opened) this.ends++;
      this.again(opened ? 1000 : 2000);
    };
    req.once('socket', (socket) => socket.once('close', onClose));
    req.once('close', onClose);
    req.on('error', () => {});
    this.req = req;
  }

  again(ms) {
    if (this.stopped) return;
    setTimeout(() => this.connect(), ms).unref();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    this.req?.destroy();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const elapsed = () => (Date.now() - started) / 1000;
  process.stdout.write(`soak: ${envLine()}\n`);
  process.stdout.write(
    `soak: ${EMITS} emits over ~${SECONDS} s (${Math.round(EMITS / SECONDS)}/s), report every ${REPORT_S} s, ` +
      `warm-up ${WARMUP_S} s, bounds after warm-up: RSS ≤ warm-up × ${RSS_FACTOR} + ${fmtMB(RSS_SLACK)}, ` +
      `fds ≤ warm-up + ${FD_SLACK}\n`,
  );
  const workspace = mkdtempSync(path.join(tmpdir(), 'hookwerk-soak-'));
  const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-soak-home-'));
  writeFileSync(path.join(workspace, 'hooks.json'), JSON.stringify({ hooks: HOOKS }, null, 2));
  const token = randomBytes(24).toString('hex');
  const auth = { authorization: `Bearer ${token}` };
  const serve = await startServe(workspace, home, token);
  const pid = serve.child.pid;
  process.stdout.write(`soak: serve pid ${pid} at ${serve.url}, workspace ${workspace}\n`);
  const pool = new Pool(serve.url, { connections: CONNECTIONS, pipelining: 1 });

  const failures = [];
  let serveGone = false;
  let stopping = false;
  serve.exited.then(({ code, signal }) => {
    serveGone = true;
    if (!stopping) failures.push(`serve exited early (${code ?? signal})`);
  });

  const sse = [];
  const readerTopics = ['*', 'prx.lifecycle.*', 'hookwerk.run.*', '*'];
  for (let i = 0; i < SSE_READERS; i++)
    sse.push(new SseClient(serve.url, token, 'reader', readerTopics[i % 4]));
  for (let i = 0; i < SSE_SLOW; i++) sse.push(new SseClient(serve.url, token, 'slow', '*'));
  for (let i = 0; i < SSE_STALLED; i++) sse.push(new SseClient(serve.url, token, 'stalled', '*'));
  for (const c of sse) c.connect();

  // ---- the emits ----
  const rate = EMITS / SECONDS;
  let next = 0;
  let accepted = 0;
  const acceptedBy = {};
  const refusedBy = {};
  let errors = 0;
  let lastError = '';
  const emitStart = Date.now();
  const worker = async () => {
    while (!stopping && !serveGone) {
      const i = next;
      if (i >= EMITS) return;
      // Paced: emit i is due at i / rate seconds.
      const due = emitStart + (i / rate) * 1000;
      const wait = due - Date.now();
      if (wait > 0) {
        await sleep(Math.min(wait, 50));
        continue;
      }
      next++;
      const entry = pick(i);
      try {
        const res = await pool.request({
          path: '/api/events',
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: bodyOf(entry, i),
        });
        await res.body.dump();
        if (res.statusCode === 202) {
          accepted++;
          acceptedBy[entry.event] = (acceptedBy[entry.event] ?? 0) + 1;
        } else refusedBy[res.statusCode] = (refusedBy[res.statusCode] ?? 0) + 1;
      } catch (err) {
        errors++;
        lastError = String(err?.message ?? err);
      }
    }
  };
  const workers = Array.from({ length: CONNECTIONS * 2 }, worker);
  const emitting = Promise.all(workers);

  // ---- reports ----
  let warm;
  const samples = [];
  const sample = async (label) => {
    const rss = rssOf(pid);
    const fds = fdsOf(pid);
    const kids = childrenOf(pid);
    const kidFds = kids.reduce((n, k) => n + (fdsOf(k) || 0), 0);
    let metrics = [];
    try {
      const res = await pool.request({ path: '/metrics', method: 'GET', headers: auth });
      metrics = parseMetrics(await res.body.text());
    } catch (err) {
      failures.push(`${label}: /metrics failed: ${err?.message ?? err}`);
    }
    const runs = sumBy(metrics, 'hook_runs_total', 'outcome');
    const dropped = sumBy(metrics, 'events_dropped_total', 'reason');
    const s = {
      label,
      t: elapsed(),
      rss,
      fds,
      kids: kids.length,
      kidFds,
      runs,
      dropped,
      emitted: sumBy(metrics, 'events_emitted_total')[''] ?? 0,
      queue: sumBy(metrics, 'hook_queue_depth')[''] ?? 0,
      inFlight: sumBy(metrics, 'hook_runs_in_flight')[''] ?? 0,
      sseClients: sumBy(metrics, 'sse_clients')[''] ?? 0,
      // Clients cut for falling behind / refused at the limit; messages dropped (older servers).
      sseCut: sumBy(metrics, 'sse_clients_dropped_total', 'reason'),
      sseDropped: sumBy(metrics, 'sse_messages_dropped_total')[''] ?? 0,
      metrics,
    };
    samples.push(s);
    const sseEnds = sse.reduce((n, c) => n + c.ends, 0);
    const sseRefused = sse.reduce((n, c) => n + c.refused, 0);
    const sseMsgs = sse.reduce((n, c) => n + c.messages, 0);
    const rateNow = accepted / Math.max(0.001, (Date.now() - emitStart) / 1000);
    process.stdout.write(
      `[${label.padStart(6)} ${s.t.toFixed(0).padStart(4)} s] emits ${accepted}/${EMITS} (${rateNow.toFixed(0)}/s)` +
        ` · RSS ${fmtMB(rss)} · fds ${fds} (launcher ${kids.length} proc, ${kidFds} fds)` +
        ` · runs ${fmtCounts(runs)} · dropped ${fmtCounts(dropped)} · queue ${s.queue} running ${s.inFlight}` +
        ` · SSE ${s.sseClients} open, ${sseMsgs} msgs read, clients cut ${fmtCounts(s.sseCut)}, ${s.sseDropped} msgs dropped, ${sseEnds} ended, ${sseRefused} refused` +
        (errors > 0 || Object.keys(refusedBy).length > 0
          ? ` · HTTP non-202 ${fmtCounts(refusedBy)}, errors ${errors}${lastError ? ` (${lastError})` : ''}`
          : '') +
        '\n',
    );
    if (warm === undefined) return s;
    const rssBound = warm.rss * RSS_FACTOR + RSS_SLACK;
    const fdBound = warm.fds + FD_SLACK;
    if (!(rss <= rssBound)) failures.push(`${label}: RSS ${fmtMB(rss)} > bound ${fmtMB(rssBound)}`);
    if (!(fds <= fdBound)) failures.push(`${label}: fds ${fds} > bound ${fdBound}`);
    return s;
  };

  let reports = 0;
  const reporter = (async () => {
    await sleep(WARMUP_S * 1000);
    if (serveGone) return;
    warm = await sample('warm');
    process.stdout.write(
      `soak: warm-up done: RSS ${fmtMB(warm.rss)}, fds ${warm.fds}; bounds RSS ≤ ${fmtMB(warm.rss * RSS_FACTOR + RSS_SLACK)}, fds ≤ ${warm.fds + FD_SLACK}\n`,
    );
    let at = Date.now();
    while (!stopping && !serveGone) {
      const due = at + REPORT_S * 1000;
      while (!stopping && Date.now() < due) await sleep(Math.min(500, due - Date.now()));
      if (stopping || serveGone) break;
      at = due;
      reports++;
      await sample(`#${reports}`);
    }
  })();

  const deadline = setTimeout(() => {
    if (next < EMITS) failures.push(`only ${next} of ${EMITS} emits sent within ${MAX_SECONDS} s`);
    stopping = true;
  }, MAX_SECONDS * 1000);
  await emitting;
  const emitSeconds = (Date.now() - emitStart) / 1000;
  stopping = true;
  clearTimeout(deadline);
  await reporter;
  if (warm === undefined && !serveGone) {
    warm = await sample('warm');
    process.stdout.write('soak: the run ended before the warm-up did; the bounds below use its end\n');
  }

  // ---- drain, final figures, checks ----
  const drainStart = Date.now();
  let last;
  while (!serveGone && Date.now() - drainStart < DRAIN_CAP_MS) {
    const res = await pool.request({ path: '/metrics', method: 'GET', headers: auth });
    last = parseMetrics(await res.body.text());
    const queued = sumBy(last, 'hook_queue_depth')[''] ?? 0;
    const running = sumBy(last, 'hook_runs_in_flight')[''] ?? 0;
    if (queued === 0 && running === 0) break;
    await sleep(250);
  }
  const final = serveGone ? undefined : await sample('final');
  if (final !== undefined) {
    if (final.queue !== 0 || final.inFlight !== 0)
      failures.push(`the queue did not drain within ${DRAIN_CAP_MS / 1000} s`);
    // Every accepted event counted once; every hooked event has exactly one record (ran or dropped).
    if (final.emitted !== accepted)
      failures.push(`events_emitted_total ${final.emitted} ≠ accepted emits ${accepted}`);
    const perEvent = {};
    for (const m of final.metrics)
      if (m.name === 'hook_runs_total') perEvent[m.labels.event] = (perEvent[m.labels.event] ?? 0) + m.value;
    for (const event of HOOKED) {
      if ((perEvent[event] ?? 0) !== (acceptedBy[event] ?? 0))
        failures.push(
          `${event}: ${perEvent[event] ?? 0} run records for ${acceptedBy[event] ?? 0} accepted emits`,
        );
    }
    const health = await pool.request({ path: '/healthz', method: 'GET' });
    const healthBody = await health.body.text();
    if (health.statusCode !== 200) failures.push(`/healthz answered ${health.statusCode} ${healthBody}`);
  }

  for (const c of sse) c.stop();
  await pool.close();
  if (!serveGone) serve.child.kill('SIGTERM');
  const exit = await Promise.race([serve.exited, sleep(30_000).then(() => undefined)]);
  if (exit === undefined) {
    failures.push('serve did not exit within 30 s of SIGTERM');
    serve.child.kill('SIGKILL');
  } else if (exit.code !== 0) failures.push(`serve exited with ${exit.code ?? exit.signal} after SIGTERM`);

  // ---- summary ----
  const peak = samples.reduce((m, s) => Math.max(m, s.rss), 0);
  const peakFds = samples.reduce((m, s) => Math.max(m, s.fds), 0);
  const sseMsgs = sse.reduce((n, c) => n + c.messages, 0);
  const sseEnds = sse.reduce((n, c) => n + c.ends, 0);
  const sseConnects = sse.reduce((n, c) => n + c.connects, 0);
  const sseRefused = sse.reduce((n, c) => n + c.refused, 0);
  const verdict = failures.length === 0 ? 'PASS' : 'FAIL';
  process.stdout.write(
    [
      '',
      `soak: ${verdict} — ${accepted} of ${EMITS} emits accepted in ${emitSeconds.toFixed(0)} s (${(accepted / emitSeconds).toFixed(0)}/s), total ${elapsed().toFixed(0)} s`,
      warm
        ? `  RSS: warm-up ${fmtMB(warm.rss)}, peak after ${fmtMB(peak)}, final ${final ? fmtMB(final.rss) : '—'} (bound ${fmtMB(warm.rss * RSS_FACTOR + RSS_SLACK)})`
        : '  RSS: —',
      warm
        ? `  fds: warm-up ${warm.fds}, peak ${peakFds}, final ${final?.fds ?? '—'} (bound ${warm.fds + FD_SLACK})`
        : '  fds: —',
      final ? `  runs by outcome: ${fmtCounts(final.runs)}` : '',
      final ? `  runs of the hooked events: ${hookedRuns(final.metrics)}` : '',
      final ? `  dropped by reason: ${fmtCounts(final.dropped)}` : '',
      `  accepted by event: ${fmtCounts(acceptedBy)}; HTTP non-202: ${fmtCounts(refusedBy)}; errors ${errors}`,
      `  SSE: ${sse.length} clients (${SSE_READERS} reading, ${SSE_SLOW} slow, ${SSE_STALLED} stalled), ${sseConnects} connects, ${sseEnds} ended by the server (then reconnected), ${sseRefused} refused, ${sseMsgs} messages read; server: clients cut ${final ? fmtCounts(final.sseCut) : '—'}, ${final?.sseDropped ?? '—'} messages dropped`,
      ...failures.map((f) => `  FAIL: ${f}`),
      '',
    ].join('\n'),
  );
  if (failures.length > 0 && serve.stderr() !== '')
    process.stdout.write(`serve stderr (tail):\n${serve.stderr().slice(-4000)}\n`);
  rmSync(workspace, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main().catch((err) => {
  process.stderr.write(`soak: ${err?.stack ?? err}\n`);
  process.exitCode = 1;
});
