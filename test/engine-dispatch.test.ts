/**
 * Observe dispatch through the engine: fire-and-forget, concurrency and its bounds, run records,
 * the lifecycle bus, depth, disabled actions and close [P-FF-*, P-BUS-1/3/4, SPEC §4].
 * Real hooks.json files and real hook processes.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/bus/memory-bus.ts';
import type { HookEngine } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { counterValue, makeEngine } from './engine-harness.ts';
import { tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';

const read = (file: string) => readFileSync(file, 'utf8');
const AGENT_START = { agent: 'main', session: 's' };
const TOOL_CALL = { tool: 'shell', success: true, output: 'ok' };

/** Highest number of runs between an `S` and its `E` line at once, from an append-only log. */
function maxOverlap(log: string): number {
  let now = 0;
  let max = 0;
  for (const line of log.split('\n')) {
    if (line.startsWith('S')) max = Math.max(max, ++now);
    else if (line.startsWith('E')) now--;
  }
  return max;
}

describe('[P-FF-1] emit is fire-and-forget', () => {
  it('[P-FF-1] emit returns synchronously (< 100 ms) with undefined while a 2 s hook runs', async () => {
    const ws = tempDir('hw-ws-');
    const done = path.join(ws, 'done');
    writeHooks(ws, { agent_start: [{ command: 'sh', args: ['-c', 'sleep 2; : > "$0"', done] }] });
    const engine = await makeEngine(ws);
    const t0 = performance.now();
    const result = engine.emit('agent_start', AGENT_START);
    const elapsed = performance.now() - t0;
    expect(result).toBeUndefined();
    expect(elapsed).toBeLessThan(100);
    expect(existsSync(done)).toBe(false);
    expect(engine.runs()).toEqual([]);
    await engine.drain();
    expect(existsSync(done)).toBe(true);
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok' });
  });

  it('[P-FF-1] emit never throws when hooks fail, time out or cannot spawn, nor when a bus subscriber throws', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, {
      error: [
        { id: 'fails', command: 'sh', args: ['-c', 'echo bad >&2; exit 1'] },
        { id: 'hangs', command: 'sleep', args: ['30'], timeout_ms: 100 },
        { id: 'missing', command: 'hw-no-such-command' },
        { id: 'killed', command: 'sh', args: ['-c', 'kill -9 $$'] },
      ],
    });
    const engine = await makeEngine(ws);
    engine.bus.subscribe('prx.lifecycle.*', () => {
      throw new Error('subscriber failure');
    });
    engine.bus.subscribe('hookwerk.run.*', async () => {
      throw new Error('async subscriber failure');
    });
    for (let i = 0; i < 3; i++) {
      expect(engine.emit('error', { component: 'c', message: `m${i}` })).toBeUndefined();
    }
    await engine.drain();
    // And emitting again after failures were recorded still works and returns nothing.
    expect(engine.emit('error', { component: 'c', message: 'again' })).toBeUndefined();
    await engine.drain();
    const outcomes = engine.runs().map((r) => `${r.hook}:${r.outcome}`);
    expect(outcomes.filter((o) => o === 'fails:error')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'hangs:timeout')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'missing:spawn_error')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'killed:error')).toHaveLength(4);
  });
});

describe('[P-FF-2] actions of one event run concurrently and independently', () => {
  it('[P-FF-2] four 1 s hooks on one event all finish, emit-to-drain < 2.5 s', async () => {
    const ws = tempDir('hw-ws-');
    const markers = [0, 1, 2, 3].map((i) => path.join(ws, `done-${i}`));
    writeHooks(ws, {
      tool_call: markers.map((m) => ({ command: 'sh', args: ['-c', 'sleep 1; : > "$0"', m] })),
    });
    const engine = await makeEngine(ws);
    const t0 = performance.now();
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const elapsed = performance.now() - t0;
    for (const m of markers) expect(existsSync(m)).toBe(true);
    expect(engine.runs({ outcome: 'ok' })).toHaveLength(4);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2500);
  });

  it('[P-FF-2] a hanging and a failing hook neither delay nor affect a third one', async () => {
    const ws = tempDir('hw-ws-');
    const marker = path.join(ws, 'quick');
    writeHooks(ws, {
      agent_end: [
        { id: 'hanging', command: 'sleep', args: ['30'], timeout_ms: 500 },
        { id: 'failing', command: 'sh', args: ['-c', 'exit 2'] },
        { id: 'quick', command: 'sh', args: ['-c', 'echo written > "$0"', marker] },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_end', { success: true, messages_count: 1 });
    await waitFor(() => existsSync(marker), 'the quick hook marker');
    // The marker is there while the hanging hook still runs.
    expect(engine.runs({ outcome: 'timeout' })).toEqual([]);
    await engine.drain();
    const byHook = Object.fromEntries(engine.runs().map((r) => [r.hook, r]));
    expect(byHook['quick']).toMatchObject({ outcome: 'ok', exitCode: 0 });
    expect(byHook['failing']).toMatchObject({ outcome: 'error', exitCode: 2 });
    expect(byHook['hanging']).toMatchObject({ outcome: 'timeout' });
    expect(read(marker)).toBe('written\n');
    expect(byHook['quick']!.durationMs).toBeLessThan(byHook['hanging']!.durationMs);
    // Records are pushed as runs end: the quick and failing ones before the hanging one.
    expect(engine.runs()[0]!.hook).toBe('hanging');
  });
});

describe('[P-FF-3] bounded concurrency and queue', () => {
  it('[P-FF-3] maxConcurrent 1, maxQueue 2: 1 running + 2 queued + 2 dropped (queue_full), drain waits for all', async () => {
    const ws = tempDir('hw-ws-');
    const log = path.join(ws, 'log');
    writeHooks(ws, {
      agent_start: [
        { id: 'slow', command: 'sh', args: ['-c', 'echo S >> "$0"; sleep 0.4; echo E >> "$0"', log] },
      ],
    });
    const engine = await makeEngine(ws, { maxConcurrent: 1, maxQueue: 2 });
    const published: BusMessage[] = [];
    engine.bus.subscribe('hookwerk.run.dropped', (msg) => {
      published.push(msg);
    });
    engine.emit('agent_start', AGENT_START, { sessionId: 'run-1' });
    await waitFor(() => existsSync(log) && read(log).includes('S'), 'the first run to start');
    for (let i = 2; i <= 5; i++) engine.emit('agent_start', AGENT_START, { sessionId: `run-${i}` });

    // Dropping happens at emit time, synchronously.
    const dropped = engine.runs({ outcome: 'dropped' });
    expect(dropped).toHaveLength(2);
    for (const r of dropped)
      expect(r).toMatchObject({ hook: 'slow', event: 'agent_start', cause: 'queue_full' });
    expect(dropped.map((r) => r.sessionId).sort()).toEqual(['run-4', 'run-5']);
    expect(await engine.metrics.registry.getSingleMetricAsString('events_dropped_total')).toContain(
      'events_dropped_total{reason="queue_full"} 2',
    );

    await engine.drain();
    // drain resolved only after the running and both queued runs finished.
    const lines = read(log).trim().split('\n');
    expect(lines).toEqual(['S', 'E', 'S', 'E', 'S', 'E']);
    expect(maxOverlap(read(log))).toBe(1);
    const ok = engine.runs({ outcome: 'ok' });
    expect(ok.map((r) => r.sessionId).sort()).toEqual(['run-1', 'run-2', 'run-3']);
    expect(engine.runs()).toHaveLength(5);
    expect(await counterValue(engine, 'hook_runs_total', { event: 'agent_start', outcome: 'dropped' })).toBe(
      2,
    );
    expect(await counterValue(engine, 'hook_runs_total', { event: 'agent_start', outcome: 'ok' })).toBe(3);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'queue_full' })).toBe(2);
    expect(published.map((m) => m.topic)).toEqual(['hookwerk.run.dropped', 'hookwerk.run.dropped']);
  });

  // Jobs start on the next setImmediate pump: runs about to take a free slot must not count as
  // queued, or a burst at idle loses runs that fit (and maxQueue: 0 would never run anything).
  it('[P-FF-3] back-to-back emits at idle: free slots are not queue: 5 emits → 3 run (1 running + 2 queued), 2 dropped', async () => {
    const ws = tempDir('hw-ws-');
    const log = path.join(ws, 'log');
    writeHooks(ws, {
      agent_start: [
        { id: 'slow', command: 'sh', args: ['-c', 'echo S >> "$0"; sleep 0.3; echo E >> "$0"', log] },
      ],
    });
    const engine = await makeEngine(ws, { maxConcurrent: 1, maxQueue: 2 });
    for (let i = 1; i <= 5; i++) engine.emit('agent_start', AGENT_START, { sessionId: `run-${i}` });
    await engine.drain();
    expect(
      engine
        .runs({ outcome: 'dropped' })
        .map((r) => r.sessionId)
        .sort(),
    ).toEqual(['run-4', 'run-5']);
    expect(
      engine
        .runs({ outcome: 'ok' })
        .map((r) => r.sessionId)
        .sort(),
    ).toEqual(['run-1', 'run-2', 'run-3']);
    expect(maxOverlap(read(log))).toBe(1);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'queue_full' })).toBe(2);
  });

  it('[P-FF-3] maxQueue: 0 means "no waiting", not "never run": an emit with a free slot runs', async () => {
    const ws = tempDir('hw-ws-');
    const marker = path.join(ws, 'ran');
    writeHooks(ws, { agent_start: [{ command: 'sh', args: ['-c', ': > "$0"', marker] }] });
    const engine = await makeEngine(ws, { maxConcurrent: 4, maxQueue: 0 });
    engine.emit('agent_start', AGENT_START);
    await engine.drain();
    expect(engine.runs().map((r) => r.outcome)).toEqual(['ok']);
    expect(existsSync(marker)).toBe(true);
  });

  it('[P-FF-3] never more than maxConcurrent hook processes at once (and that many are used)', async () => {
    const ws = tempDir('hw-ws-');
    const log = path.join(ws, 'log');
    writeHooks(ws, {
      tool_call: [{ command: 'sh', args: ['-c', 'echo S >> "$0"; sleep 0.3; echo E >> "$0"', log] }],
      tool_call_start: [
        { command: 'sh', args: ['-c', 'echo S >> "$0"; sleep 0.3; echo E >> "$0"', log] },
        { command: 'sh', args: ['-c', 'echo S >> "$0"; sleep 0.3; echo E >> "$0"', log] },
      ],
    });
    const engine = await makeEngine(ws, { maxConcurrent: 2, maxQueue: 100 });
    for (let i = 0; i < 4; i++) {
      engine.emit('tool_call', TOOL_CALL);
      engine.emit('tool_call_start', { tool: 't', arguments: {} });
    }
    await engine.drain();
    const text = read(log);
    expect(text.match(/S/g)).toHaveLength(12);
    expect(text.match(/E/g)).toHaveLength(12);
    expect(maxOverlap(text)).toBe(2);
    expect(engine.runs({ outcome: 'ok' })).toHaveLength(12);
    expect(engine.runs({ outcome: 'dropped' })).toEqual([]);
  });
  it('[P-FF-3] drain() also waits for runs emitted by subscribers of run records (a depth chain)', async () => {
    const ws = tempDir('hw-ws-');
    const log = path.join(ws, 'log');
    writeHooks(ws, {
      agent_start: [{ command: 'sh', args: ['-c', 'sleep 0.05; echo "$ZERO_HOOK_DEPTH" >> "$0"', log] }],
    });
    const engine = await makeEngine(ws);
    engine.bus.subscribe('hookwerk.run.ok', () => {
      engine.emit('agent_start', AGENT_START);
    });
    engine.emit('agent_start', AGENT_START);
    await engine.drain();
    expect(read(log).trim().split('\n')).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(engine.runs().map((r) => r.depth)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'depth' })).toBe(1);
  });
});

describe('SPEC §4 run records', () => {
  it('[§4 records] one record per run: name, source, event, outcome, durationMs, exitCode, cause, stderrTail; on the bus and in runs()', async () => {
    const ws = tempDir('hw-ws-');
    const hooksFile = writeHooks(ws, {
      tool_call: [
        { id: 'good', command: 'sh', args: ['-c', 'echo fine'] },
        { command: 'sh', args: ['-c', 'echo "boom on stderr" >&2; exit 3'] },
        { id: 'slow', command: 'sleep', args: ['30'], timeout_ms: 200 },
        { id: 'missing', command: 'hw-no-such-command' },
      ],
    });
    const engine = await makeEngine(ws);
    const messages: BusMessage[] = [];
    engine.bus.subscribe('hookwerk.run.*', (msg) => {
      messages.push(msg);
    });
    engine.emit('tool_call', TOOL_CALL, { sessionId: 'sess-rec' });
    await engine.drain();

    const runs = engine.runs();
    expect(runs).toHaveLength(4);
    const byHook = Object.fromEntries(runs.map((r) => [r.hook, r]));
    expect(Object.keys(byHook).sort()).toEqual(['good', 'missing', 'slow', 'tool_call[1]']);
    const source = (i: number) => `${hooksFile}#/hooks/tool_call/${i}`;

    expect(byHook['good']).toMatchObject({
      source: source(0),
      event: 'tool_call',
      outcome: 'ok',
      exitCode: 0,
    });
    expect(byHook['good']!.cause).toBeUndefined();
    expect(byHook['tool_call[1]']).toMatchObject({
      source: source(1),
      event: 'tool_call',
      outcome: 'error',
      exitCode: 3,
      cause: 'exit_code',
    });
    expect(byHook['tool_call[1]']!.stderrTail).toContain('boom on stderr');
    expect(byHook['slow']).toMatchObject({
      source: source(2),
      event: 'tool_call',
      outcome: 'timeout',
      cause: 'timeout',
    });
    expect(byHook['slow']!.durationMs).toBeGreaterThanOrEqual(190);
    expect(byHook['missing']).toMatchObject({
      source: source(3),
      event: 'tool_call',
      outcome: 'spawn_error',
    });
    expect(byHook['missing']!.exitCode).toBeUndefined();
    for (const r of runs) {
      expect(typeof r.durationMs).toBe('number');
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
      expect(['ok', 'error', 'timeout', 'spawn_error', 'dropped']).toContain(r.outcome);
      expect(r.sessionId).toBe('sess-rec');
    }

    // Published as hookwerk.run.<outcome>, with the record as payload.
    expect(messages).toHaveLength(4);
    for (const msg of messages) {
      const record = msg.payload as RunRecord;
      expect(msg.topic).toBe(`hookwerk.run.${record.outcome}`);
      expect(runs).toContainEqual(record);
    }
    expect(messages.map((m) => m.topic).sort()).toEqual([
      'hookwerk.run.error',
      'hookwerk.run.ok',
      'hookwerk.run.spawn_error',
      'hookwerk.run.timeout',
    ]);

    // Counted in hook_runs_total by event and outcome.
    for (const outcome of ['ok', 'error', 'timeout', 'spawn_error']) {
      expect(await counterValue(engine, 'hook_runs_total', { event: 'tool_call', outcome }), outcome).toBe(1);
    }
    expect(await engine.metrics.registry.getSingleMetricAsString('hook_runs_total')).toContain(
      'hook_runs_total{event="tool_call",outcome="error"} 1',
    );
  });

  it('[§4 records] stderrTail holds the end of a long stderr', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, {
      agent_start: [
        {
          id: 'noisy',
          command: 'sh',
          args: ['-c', 'i=0; while [ $i -lt 500 ]; do echo "line $i" >&2; i=$((i+1)); done; exit 1'],
        },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_start', AGENT_START);
    await engine.drain();
    const r = engine.runs()[0]!;
    expect(r).toMatchObject({ outcome: 'error', cause: 'exit_code', exitCode: 1 });
    expect(r.stderrTail).toMatch(/line 499\n$/);
    expect(r.stderrTail).not.toContain('line 0\n');
  });

  it('[§4 records] runs() is newest first, filters by limit and outcome, and is bounded by runLogSize', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, {
      agent_start: [{ command: 'sh', args: ['-c', 'exit 0'] }],
      error: [{ command: 'sh', args: ['-c', 'exit 1'] }],
    });
    const engine = await makeEngine(ws, { runLogSize: 3 });
    const sequence: Array<['agent_start' | 'error', string]> = [
      ['agent_start', 's1'],
      ['error', 's2'],
      ['agent_start', 's3'],
      ['error', 's4'],
      ['agent_start', 's5'],
    ];
    for (const [event, sessionId] of sequence) {
      if (event === 'error') engine.emit('error', { component: 'c', message: 'm' }, { sessionId });
      else engine.emit('agent_start', AGENT_START, { sessionId });
      await engine.drain();
    }
    const ids = (rs: RunRecord[]) => rs.map((r) => r.sessionId);
    expect(ids(engine.runs())).toEqual(['s5', 's4', 's3']);
    expect(ids(engine.runs({ limit: 2 }))).toEqual(['s5', 's4']);
    expect(ids(engine.runs({ limit: 1 }))).toEqual(['s5']);
    expect(ids(engine.runs({ outcome: 'ok' }))).toEqual(['s5', 's3']);
    expect(ids(engine.runs({ outcome: 'error' }))).toEqual(['s4']);
    expect(ids(engine.runs({ outcome: 'ok', limit: 1 }))).toEqual(['s5']);
    expect(ids(engine.runs({ event: 'error' }))).toEqual(['s4']);
    expect(engine.runs({ outcome: 'timeout' })).toEqual([]);
    // The metric keeps counting what the bounded log forgot.
    expect(await counterValue(engine, 'hook_runs_total', { event: 'agent_start', outcome: 'ok' })).toBe(3);
    expect(await counterValue(engine, 'hook_runs_total', { event: 'error', outcome: 'error' })).toBe(2);
  });
});

describe('[P-BUS-1] every emit is published on the bus', () => {
  const ALL: Array<[string, Record<string, unknown>]> = [
    ['agent_start', AGENT_START],
    ['agent_end', { success: true, messages_count: 1 }],
    ['llm_request', { provider: 'p', model: 'm', messages_count: 1 }],
    ['llm_response', { provider: 'p', model: 'm', duration_ms: 5, success: true }],
    ['tool_call_start', { tool: 't', arguments: { a: 1 } }],
    ['tool_call', { ...TOOL_CALL, extra: 'kept' }],
    ['turn_complete', {}],
    ['error', { component: 'c', message: 'm' }],
  ];

  async function checkPublishes(engine: HookEngine) {
    const lifecycle: BusMessage[] = [];
    const prx: BusMessage[] = [];
    const exact: BusMessage[] = [];
    engine.bus.subscribe('prx.lifecycle.*', (m) => {
      lifecycle.push(m);
    });
    engine.bus.subscribe('prx.*', (m) => {
      prx.push(m);
    });
    engine.bus.subscribe('prx.lifecycle.tool_call', (m) => {
      exact.push(m);
    });
    for (const [event, payload] of ALL) engine.emit(event, payload, { sessionId: `sess-${event}` });
    await engine.drain();
    expect(lifecycle.map((m) => m.topic)).toEqual(ALL.map(([e]) => `prx.lifecycle.${e}`));
    expect(prx.map((m) => m.topic)).toEqual(ALL.map(([e]) => `prx.lifecycle.${e}`));
    expect(exact.map((m) => m.topic)).toEqual(['prx.lifecycle.tool_call']);
    lifecycle.forEach((m, i) => {
      const [event, payload] = ALL[i]!;
      const envelope = m.payload as Record<string, unknown>;
      expect(Object.keys(envelope).sort()).toEqual(['event', 'payload', 'session_id', 'timestamp']);
      expect(envelope).toMatchObject({ event, session_id: `sess-${event}`, payload });
      expect(m.depth).toBe(1);
      expect(JSON.parse(m.json!)).toEqual(envelope);
    });
  }

  it('[P-BUS-1] with a hooks.json that configures no hooks', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, {});
    await checkPublishes(await makeEngine(ws));
  });

  it('[P-BUS-1] with no hooks.json at all', async () => {
    const ws = tempDir('hw-ws-');
    await checkPublishes(await makeEngine(ws));
  });

  it('[P-BUS-1] with no workspace at all', async () => {
    await checkPublishes(await makeEngine(undefined));
  });

  it('[P-BUS-1] alongside the hooks that do run', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, { tool_call: [{ command: 'sh', args: ['-c', 'exit 0'] }] });
    await checkPublishes(await makeEngine(ws));
  });
});

describe('[P-BUS-3] recursion depth', () => {
  it('[P-BUS-3] a subscriber that re-emits: depth 1..8 published, the 9th is dropped and counted', async () => {
    const engine = await makeEngine(tempDir('hw-ws-'));
    const depths: number[] = [];
    const throws: unknown[] = [];
    engine.bus.subscribe('prx.lifecycle.agent_start', (msg) => {
      depths.push(msg.depth);
      try {
        engine.emit('agent_start', AGENT_START);
      } catch (err) {
        throws.push(err);
      }
    });
    engine.emit('agent_start', AGENT_START);
    await engine.drain();
    expect(depths).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(throws).toEqual([]);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'depth' })).toBe(1);
    expect(await counterValue(engine, 'events_emitted_total', { event: 'agent_start' })).toBe(8);
    expect(await engine.metrics.registry.getSingleMetricAsString('events_dropped_total')).toContain(
      'events_dropped_total{reason="depth"} 1',
    );
  });

  it('[P-BUS-3] an async subscriber re-emitting after an await is tracked too', async () => {
    const engine = await makeEngine(undefined);
    const depths: number[] = [];
    engine.bus.subscribe('prx.lifecycle.error', async (msg) => {
      depths.push(msg.depth);
      await new Promise((r) => setTimeout(r, 1));
      engine.emit('error', { component: 'c', message: 'again' });
    });
    engine.emit('error', { component: 'c', message: 'first' });
    await waitFor(() => depths.length === 8, 'eight nested publishes');
    await engine.drain();
    expect(depths).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'depth' })).toBe(1);
  });

  it('[P-BUS-3] emit with { depth: 9 } is dropped silently (no publish, no hook) and counted; depth 8 is not', async () => {
    const ws = tempDir('hw-ws-');
    const log = path.join(ws, 'log');
    writeHooks(ws, {
      turn_complete: [{ command: 'sh', args: ['-c', 'echo "$ZERO_HOOK_DEPTH" >> "$0"', log] }],
    });
    const engine = await makeEngine(ws);
    const seen: number[] = [];
    engine.bus.subscribe('prx.*', (m) => {
      seen.push(m.depth);
    });
    expect(engine.emit('turn_complete', {}, { depth: 9 })).toBeUndefined();
    expect(engine.emit('turn_complete', {}, { depth: 100 })).toBeUndefined();
    engine.emit('turn_complete', {}, { depth: 8 });
    await engine.drain();
    expect(seen).toEqual([8]);
    expect(read(log)).toBe('8\n');
    expect(engine.runs()).toHaveLength(1);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'depth' })).toBe(2);
  });

  it('[P-BUS-4] a hook at depth 3 sees ZERO_HOOK_DEPTH=3; one triggered from a depth-1 subscriber sees 2', async () => {
    const ws = tempDir('hw-ws-');
    const out = (name: string) => path.join(ws, name);
    writeHooks(ws, {
      agent_end: [{ command: 'sh', args: ['-c', 'printf "%s" "$ZERO_HOOK_DEPTH" > "$0"', out('explicit')] }],
      tool_call: [{ command: 'sh', args: ['-c', 'printf "%s" "$ZERO_HOOK_DEPTH" > "$0"', out('nested')] }],
    });
    const engine = await makeEngine(ws);
    engine.bus.subscribe('prx.lifecycle.agent_start', () => {
      engine.emit('tool_call', TOOL_CALL);
    });
    engine.emit('agent_end', { success: true, messages_count: 2 }, { depth: 3 });
    engine.emit('agent_start', AGENT_START);
    await engine.drain();
    expect(read(out('explicit'))).toBe('3');
    expect(read(out('nested'))).toBe('2');
    const depths = Object.fromEntries(engine.runs().map((r) => [r.event, r.depth]));
    expect(depths).toEqual({ agent_end: 3, tool_call: 2 });
  });
});

describe('disabled actions', () => {
  it('[P-CFG-2] "enabled": false never runs and leaves no record', async () => {
    const ws = tempDir('hw-ws-');
    const off = path.join(ws, 'off');
    const on = path.join(ws, 'on');
    writeHooks(ws, {
      agent_start: [
        { id: 'off', command: 'sh', args: ['-c', ': > "$0"', off], enabled: false },
        { id: 'on', command: 'sh', args: ['-c', ': > "$0"', on] },
      ],
      turn_complete: [{ id: 'off-only', command: 'sh', args: ['-c', ': > "$0"', off], enabled: false }],
    });
    const engine = await makeEngine(ws);
    const records: BusMessage[] = [];
    engine.bus.subscribe('hookwerk.run.*', (m) => {
      records.push(m);
    });
    engine.emit('agent_start', AGENT_START);
    engine.emit('turn_complete', {});
    await engine.drain();
    expect(existsSync(on)).toBe(true);
    expect(existsSync(off)).toBe(false);
    expect(engine.runs().map((r) => r.hook)).toEqual(['on']);
    expect(records.map((m) => (m.payload as RunRecord).hook)).toEqual(['on']);
    expect(engine.actions().map((a) => `${a.name}:${a.enabled}`)).toEqual([
      'off:false',
      'on:true',
      'off-only:false',
    ]);
  });
});

describe('close()', () => {
  it('[§4 close] drops queued runs (cause closed), waits for the running one, removes the temp folder', async () => {
    const ws = tempDir('hw-ws-');
    const pathFile = path.join(ws, 'path');
    const done = path.join(ws, 'done');
    writeScript(
      ws,
      'slow.sh',
      `printf '%s' "$ZERO_HOOK_PAYLOAD_FILE" > "${pathFile}"\nsleep 1\n: > "${done}"`,
    );
    writeHooks(ws, { agent_start: [{ id: 'slow', command: './slow.sh' }] });
    const engine = await makeEngine(ws, { maxConcurrent: 1 });
    const dropped: BusMessage[] = [];
    engine.bus.subscribe('hookwerk.run.dropped', (m) => {
      dropped.push(m);
    });
    for (let i = 1; i <= 3; i++) engine.emit('agent_start', AGENT_START, { sessionId: `c${i}` });
    const payloadFile = await waitFor(
      () => (existsSync(pathFile) ? read(pathFile) : ''),
      'the first run to start',
    );
    const tmpFolder = path.dirname(payloadFile);
    expect(existsSync(tmpFolder)).toBe(true);

    await engine.close();
    // The running one was waited for (it finished by itself), the queued ones were dropped.
    expect(existsSync(done)).toBe(true);
    const runs = engine.runs();
    expect(runs).toHaveLength(3);
    expect(runs.find((r) => r.sessionId === 'c1')).toMatchObject({ outcome: 'ok', exitCode: 0 });
    const droppedRuns = engine.runs({ outcome: 'dropped' });
    expect(droppedRuns.map((r) => r.sessionId).sort()).toEqual(['c2', 'c3']);
    for (const r of droppedRuns) expect(r).toMatchObject({ hook: 'slow', cause: 'closed' });
    expect(dropped).toHaveLength(2);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'closed' })).toBe(2);
    expect(existsSync(tmpFolder)).toBe(false);

    // After close, emit still never throws and runs nothing.
    expect(engine.emit('agent_start', AGENT_START)).toBeUndefined();
    await engine.drain();
    expect(engine.runs()).toHaveLength(3);
    await engine.close(); // idempotent
  });

  it('[§4 close] closing one engine waits for its own runs and leaves another engine’s running hooks alone', async () => {
    const wsA = tempDir('hw-ws-');
    const wsB = tempDir('hw-ws-');
    const started = path.join(wsB, 'started');
    const done = path.join(wsB, 'done');
    writeHooks(wsA, { agent_start: [{ command: 'sh', args: ['-c', 'exit 0'] }] });
    writeHooks(wsB, {
      agent_start: [
        { id: 'b-slow', command: 'sh', args: ['-c', ': > "$0"; sleep 1; : > "$1"', started, done] },
      ],
    });
    const a = await makeEngine(wsA);
    const b = await makeEngine(wsB);
    a.emit('agent_start', AGENT_START);
    b.emit('agent_start', AGENT_START);
    await waitFor(() => existsSync(started), 'engine B hook to start');
    await a.close();
    expect(a.runs()[0]).toMatchObject({ outcome: 'ok' });
    await b.drain();
    expect(b.runs()[0]).toMatchObject({ hook: 'b-slow', outcome: 'ok', exitCode: 0 });
    expect(existsSync(done)).toBe(true);
  });
});
