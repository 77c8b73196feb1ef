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
  ];
}
