// 3. MemoryBus publish with 1 000 mixed subscriptions vs 1 subscription.
//
// Cost per message = (publish N messages, then await flush(), i.e. every delivery done) ÷ N.
// Handlers are no-ops. Every publish is on `prx.lifecycle.tool_call`, with depth and a
// ready-made JSON string like the engine's (so serialization is not what we measure).
//
// The 1 000 subscriptions: 5 that match the topic (`*` twice, `prx.*`, `prx.lifecycle.*`, the
// exact topic) and 995 that do not: exact topics and `a.b.*` prefixes at depths 1–5, many of
// them sharing the `prx` / `prx.lifecycle` prefix so the trie walk meets crowded nodes.
//
// Rows: 1 000 mixed vs 1 exact subscription (the target), and 1 000 mixed vs only its 5 matching
// subscriptions (same deliveries, so it isolates what the 995 others cost).
//
// Fan-out row: 1 000 subscriptions that all match (the exact topic) vs an EventEmitter with 1 000
// listeners: cost per message = (FANOUT_N publishes, then flush) ÷ FANOUT_N, against FANOUT_N
// emit() calls ÷ FANOUT_N. Both sides call 1 000 no-op handlers per message; the bus also runs each
// handler inside the message's depth context [P-BUS-3], which is what this row keeps in check.
import { EventEmitter } from 'node:events';
import { MemoryBus } from '../dist/bus/memory-bus.js';
import { PRX_EVENT_NAMES } from '../dist/index.js';
import { fmtRatio, fmtUs, median, nextImmediate, nowUs, progress, verdict } from './lib.js';

const TOPIC = 'prx.lifecycle.tool_call';
const N = 5000; // messages per timed batch (below the default maxPending of 10 000)
const BATCHES = 101;
const WARMUP_BATCHES = 10;
const TARGET_RATIO = 2;

const MATCHING = ['*', '*', 'prx.*', 'prx.lifecycle.*', TOPIC];

function nonMatchingPatterns(count) {
  const out = [];
  const outcomes = ['ok', 'error', 'timeout', 'spawn_error', 'dropped'];
  for (const e of PRX_EVENT_NAMES) if (e !== 'tool_call') out.push(`prx.lifecycle.${e}`);
  for (const o of outcomes) out.push(`hookwerk.run.${o}`);
  out.push('hookwerk.run.*', 'hookwerk.*');
  for (let i = 0; out.length < count; i++) {
    switch (i % 8) {
      case 0:
        out.push(`app.svc${i % 97}.*`); // depth 2 prefix
        break;
      case 1:
        out.push(`app.svc${i % 97}.evt${i}`); // exact, depth 3
        break;
      case 2:
        out.push(`tenant.t${i % 31}.agent.a${i}.*`); // depth 4 prefix
        break;
      case 3:
        out.push(`prx.lifecycle.tool_call.detail${i}`); // deeper than the topic: exact, no match
        break;
      case 4:
        out.push(`prx.lifecycle.tool_call.x${i}.*`); // prefix below the topic: no match
        break;
      case 5:
        out.push(`prx.custom${i}.*`); // sibling of prx.lifecycle
        break;
      case 6:
        out.push(`metrics${i % 13}.*`); // depth 1 prefix
        break;
      default:
        out.push(`a.b.c.d${i % 7}.e${i}`); // exact, depth 5
    }
  }
  return out.slice(0, count);
}

function makeBus(patterns) {
  const bus = new MemoryBus({ maxPending: N * 2 });
  let sink = 0;
  const handler = (msg) => {
    if (msg === undefined) sink++;
  };
  for (const p of patterns) bus.subscribe(p, handler);
  return { bus, sink: () => sink };
}

const ENVELOPE = Object.freeze({
  event: 'tool_call',
  timestamp: '2025-01-01T00:00:00.000Z',
  session_id: 'sess_bench',
  payload: { tool: 'bash', success: true, output: 'ok' },
});
const JSON_TEXT = JSON.stringify(ENVELOPE);
const OPTS = Object.freeze({ depth: 1, json: JSON_TEXT });

/** µs per message: N publishes, then flush. */
async function batch(bus) {
  const t0 = nowUs();
  for (let i = 0; i < N; i++) bus.publish(TOPIC, ENVELOPE, OPTS);
  await bus.flush();
  const dt = (nowUs() - t0) / N;
  await nextImmediate();
  return dt;
}

const FANOUT = 1000;
const FANOUT_N = 50; // messages per timed batch: 50 000 handler calls
const FANOUT_BATCHES = 61;

function fanoutSides() {
  let sink = 0;
  const handler = (msg) => {
    if (msg === undefined) sink++;
  };
  const bus = new MemoryBus();
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  for (let i = 0; i < FANOUT; i++) {
    bus.subscribe(TOPIC, handler);
    emitter.on(TOPIC, handler);
  }
  return { bus, emitter, sink: () => sink };
}

/** µs per message to 1 000 subscribers: FANOUT_N publishes, then flush. */
async function fanoutBusBatch(bus) {
  const t0 = nowUs();
  for (let i = 0; i < FANOUT_N; i++) bus.publish(TOPIC, ENVELOPE, OPTS);
  await bus.flush();
  const dt = (nowUs() - t0) / FANOUT_N;
  await nextImmediate();
  return dt;
}

/** µs per message to 1 000 listeners: FANOUT_N emits. */
async function fanoutEmitterBatch(emitter) {
  const t0 = nowUs();
  for (let i = 0; i < FANOUT_N; i++) emitter.emit(TOPIC, ENVELOPE);
  const dt = (nowUs() - t0) / FANOUT_N;
  await nextImmediate();
  return dt;
}

/** The fan-out row: bus and EventEmitter batches interleaved, order flipped every batch. */
async function fanoutRow() {
  const s = fanoutSides();
  const bus = [];
  const ee = [];
  const sides = [
    async () => bus.push(await fanoutBusBatch(s.bus)),
    async () => ee.push(await fanoutEmitterBatch(s.emitter)),
  ];
  for (let i = 0; i < WARMUP_BATCHES; i++) for (const side of sides) await side();
  bus.length = 0;
  ee.length = 0;
  for (let i = 0; i < FANOUT_BATCHES; i++) {
    if (i % 2 === 0) for (const side of sides) await side();
    else for (const side of [...sides].reverse()) await side();
  }
  const st = s.bus.stats();
  const expected = (WARMUP_BATCHES + FANOUT_BATCHES) * FANOUT_N * FANOUT;
  if (st.delivered !== expected || st.handlerErrors !== 0 || s.sink() !== 0) {
    throw new Error(`fan-out bus delivered ${st.delivered}, expected ${expected}: ${JSON.stringify(st)}`);
  }
  const b = median(bus);
  const e = median(ee);
  progress(`bus fan-out to ${FANOUT}: bus ${fmtUs(b)} · EventEmitter ${fmtUs(e)} per message`);
  return {
    benchmark: `bus publish to ${FANOUT} subscribers vs EventEmitter with ${FANOUT} listeners (per message; median of ${FANOUT_BATCHES} batches × ${FANOUT_N})`,
    hookwerk: fmtUs(b),
    baseline: `${fmtUs(e)} (EventEmitter, ${FANOUT} listeners)`,
    ratio: fmtRatio(b / e),
    target: `≤ ${TARGET_RATIO}×`,
    verdict: verdict(b / e <= TARGET_RATIO),
  };
}

export async function run() {
  const mixedPatterns = [...MATCHING, ...nonMatchingPatterns(1000 - MATCHING.length)];
  const sides = {
    mixed: makeBus(mixedPatterns),
    single: makeBus([TOPIC]),
    matchingOnly: makeBus(MATCHING),
  };
  if (sides.mixed.bus.subscriptionCount() !== 1000) throw new Error('expected 1000 subscriptions');
  // Check what each side delivers per message.
  const perMessage = {};
  for (const [name, s] of Object.entries(sides)) {
    const before = s.bus.stats().delivered;
    s.bus.publish(TOPIC, ENVELOPE, OPTS);
    await s.bus.flush();
    perMessage[name] = s.bus.stats().delivered - before;
  }
  if (
    perMessage.mixed !== MATCHING.length ||
    perMessage.single !== 1 ||
    perMessage.matchingOnly !== MATCHING.length
  ) {
    throw new Error(`unexpected deliveries per message: ${JSON.stringify(perMessage)}`);
  }

  for (let i = 0; i < WARMUP_BATCHES; i++) for (const s of Object.values(sides)) await batch(s.bus);
  const times = { mixed: [], single: [], matchingOnly: [] };
  for (let i = 0; i < BATCHES; i++) {
    const order = Object.keys(sides);
    for (let k = 0; k < i % order.length; k++) order.push(order.shift());
    for (const name of order) times[name].push(await batch(sides[name].bus));
  }
  for (const [name, s] of Object.entries(sides)) {
    const st = s.bus.stats();
    if (
      st.droppedQueueFull + st.droppedOversize + st.droppedInvalid + st.droppedDepth !== 0 ||
      s.sink() !== 0
    ) {
      throw new Error(`bus ${name} dropped messages: ${JSON.stringify(st)}`);
    }
  }
  const mixed = median(times.mixed);
  const single = median(times.single);
  const only = median(times.matchingOnly);
  progress(
    `bus: 1000 mixed ${fmtUs(mixed)} · 1 exact ${fmtUs(single)} · 5 matching only ${fmtUs(only)} per message`,
  );
  return [
    {
      benchmark: `bus publish+delivery, 1 000 mixed subs (${MATCHING.length} match) vs 1 sub (median of ${BATCHES} batches × ${N})`,
      hookwerk: fmtUs(mixed),
      baseline: `${fmtUs(single)} (1 exact sub)`,
      ratio: fmtRatio(mixed / single),
      target: `≤ ${TARGET_RATIO}×`,
      verdict: verdict(mixed / single <= TARGET_RATIO),
    },
    {
      benchmark: `bus publish+delivery, 1 000 mixed subs vs its ${MATCHING.length} matching subs alone (cost of the 995 others)`,
      hookwerk: fmtUs(mixed),
      baseline: `${fmtUs(only)} (${MATCHING.length} matching subs)`,
      ratio: fmtRatio(mixed / only),
      target: `≤ ${TARGET_RATIO}× (extra row)`,
      verdict: verdict(mixed / only <= TARGET_RATIO),
    },
    await fanoutRow(),
  ];
}
