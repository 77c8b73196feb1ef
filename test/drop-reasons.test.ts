/**
 * Issue 11: every drop says why. A full bus queue and a full run queue are counted apart
 * (`bus_queue_full` / `queue_full`), and runs that waited too long for a slot are dropped when
 * they would start (`maxQueueAgeMs`, cause `stale`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/bus/memory-bus.ts';
import { DEFAULT_MAX_QUEUE_AGE_MS, ObserveScheduler } from '../src/dispatch/observe-scheduler.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { counterValue, makeEngine } from './engine-harness.ts';
import { tempDir, waitFor, writeHooks } from './helpers.ts';

const AGENT_START = { agent: 'main', session: 's' };
const TOOL_CALL = { tool: 'shell', success: true, output: 'ok' };

/** An in-process observer that holds its slot until `release()`; `started` lists the sessions it ran for. */
function slotHolder(engine: HookEngine) {
  const started: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  engine.use('agent_start', async (envelope) => {
    started.push(envelope.session_id);
    if (started.length === 1) await released;
  });
  return { started, release };
}

describe('issue 11: drop reasons', () => {
  it('[P-BUS-3] [P-FF-3] issue 11: a full bus queue is counted as bus_queue_full, a full run queue as queue_full', async () => {
    const engine = await makeEngine(undefined, { maxConcurrent: 1, maxQueue: 0 });
    const { started, release } = slotHolder(engine);
    let delivered = 0;
    engine.bus.subscribe('prx.lifecycle.turn_complete', () => {
      delivered++;
    });

    // Run queue: one run takes the only slot, the next two find no room.
    engine.emit('agent_start', AGENT_START, { sessionId: 'a1' });
    await waitFor(() => started.length === 1, 'the first run to start');
    engine.emit('agent_start', AGENT_START, { sessionId: 'a2' });
    engine.emit('agent_start', AGENT_START, { sessionId: 'a3' });
    expect(engine.runs({ outcome: 'dropped' }).map((r) => r.cause)).toEqual(['queue_full', 'queue_full']);
    await engine.bus.flush();

    // Bus queue: 10 000 messages wait at most; 5 more in the same turn are dropped.
    for (let i = 0; i < 10_005; i++) engine.emit('turn_complete', {});
    await engine.bus.flush();
    expect(delivered).toBe(10_000);

    expect(await counterValue(engine, 'events_dropped_total', { reason: 'queue_full' })).toBe(2);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'bus_queue_full' })).toBe(5);
    const text = await engine.metrics.registry.getSingleMetricAsString('events_dropped_total');
    expect(text).toMatch(/^# HELP events_dropped_total .*queue_full \(hook run queue full\)/m);
    expect(text).toMatch(/^# HELP events_dropped_total .*bus_queue_full \(bus delivery queue full\)/m);
    release();
    await engine.drain();
  });

  it('[P-FF-3] issue 11: maxQueueAgeMs: runs that waited longer behind a slow hook are dropped when they would start, recorded (cause stale) and counted', async () => {
    const ws = tempDir('hw-stale-');
    const log = path.join(ws, 'ran.log');
    writeHooks(ws, {
      tool_call: [
        { id: 'shell-hook', command: 'sh', args: ['-c', 'echo "$ZERO_HOOK_SESSION" >> "$0"', log] },
      ],
    });
    const maxQueueAgeMs = 20;
    const engine = await makeEngine(ws, { maxConcurrent: 1, maxQueueAgeMs });
    const { started, release } = slotHolder(engine);
    const published: BusMessage[] = [];
    engine.bus.subscribe('hookwerk.run.dropped', (msg) => {
      published.push(msg);
    });

    engine.emit('agent_start', AGENT_START, { sessionId: 'slow' });
    await waitFor(() => started.length === 1, 'the slow hook to hold the only slot');
    engine.emit('tool_call', TOOL_CALL, { sessionId: 'late-1' });
    engine.emit('agent_start', AGENT_START, { sessionId: 'late-2' });
    const queuedBy = performance.now();
    expect(engine.runs()).toEqual([]); // both wait
    // Let them grow older than the limit (a condition, not a deadline), then free the slot.
    await waitFor(() => performance.now() - queuedBy > maxQueueAgeMs, 'the queued runs to age');
    release();
    await engine.drain();

    const dropped = engine.runs({ outcome: 'dropped' });
    expect(dropped.map((r) => [r.hook, r.sessionId, r.cause]).sort()).toEqual([
      ['in-process:agent_start#1', 'late-2', 'stale'],
      ['shell-hook', 'late-1', 'stale'],
    ]);
    for (const r of dropped) {
      expect(r.reason).toMatch(/^the run waited for a slot longer than maxQueueAgeMs \(waited \d+ ms\)$/);
      expect(r.durationMs).toBe(0);
    }
    // Never started: the in-process hook saw only the slow run, the shell hook never ran.
    expect(started).toEqual(['slow']);
    expect(existsSync(log)).toBe(false);
    expect(published).toHaveLength(2);
    expect(await counterValue(engine, 'events_dropped_total', { reason: 'stale' })).toBe(2);
    expect(await counterValue(engine, 'hook_runs_total', { event: 'tool_call', outcome: 'dropped' })).toBe(1);

    // A run that finds a free slot is not stale, however old the engine.
    engine.emit('tool_call', TOOL_CALL, { sessionId: 'fresh' });
    await engine.drain();
    expect(readFileSync(log, 'utf8')).toBe('fresh\n');
  });

  it('[P-FF-3] issue 11: maxQueueAgeMs defaults to 10 minutes; Infinity turns it off; 0, negative or NaN are refused', async () => {
    expect(DEFAULT_MAX_QUEUE_AGE_MS).toBe(600_000);
    expect(new ObserveScheduler().maxQueueAgeMs).toBe(600_000);

    const engine = await makeEngine(undefined, { maxConcurrent: 1, maxQueueAgeMs: Number.POSITIVE_INFINITY });
    const { started, release } = slotHolder(engine);
    engine.emit('agent_start', AGENT_START, { sessionId: 'slow' });
    await waitFor(() => started.length === 1, 'the slow hook to hold the only slot');
    engine.emit('agent_start', AGENT_START, { sessionId: 'waits' });
    const queuedBy = performance.now();
    await waitFor(() => performance.now() - queuedBy > 20, 'the queued run to age');
    release();
    await engine.drain();
    expect(started).toEqual(['slow', 'waits']);
    expect(engine.runs({ outcome: 'dropped' })).toEqual([]);

    for (const bad of [0, -1, Number.NaN]) {
      await expect(makeEngine(undefined, { maxQueueAgeMs: bad }), String(bad)).rejects.toThrow(
        /maxQueueAgeMs must be a number > 0/,
      );
    }
  });
});
