import { describe, expect, it } from 'vitest';
import { frame } from '../src/server/sse.ts';
import { parseEnv } from '../ui/src/env-lines.ts';
import { gateItems, subjectOf } from '../ui/src/gate-records.ts';
import { latencyByHook, percentile } from '../ui/src/latency.ts';
import { RunsStore } from '../ui/src/runs-store.ts';
import type { RunRecord } from '../ui/src/schemas.ts';
import { runRecordSchema } from '../ui/src/schemas.ts';
import { SseParser } from '../ui/src/sse-parser.ts';

// The dashboard's logic that needs no browser (issue 13): the SSE parser the page reads the
// stream with, the latency figures, merging the run list with the stream, the env field.

const run = (hook: string, durationMs: number, extra: Partial<RunRecord> = {}): RunRecord => ({
  hook,
  source: 'hooks.json#/hooks/tool_call/0',
  event: 'tool_call',
  outcome: 'ok',
  durationMs,
  at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('SseParser', () => {
  it('reads the frames hookwerk sends, however the chunks are cut', () => {
    const record = run('a', 1.5);
    const text =
      ': subscribed to hookwerk.run.*\n\n' +
      frame({ topic: 'hookwerk.run.ok', payload: record, depth: 1 }) +
      ': keep-alive\n\n' +
      frame({ topic: 'hookwerk.run.ok', payload: { ...record, hook: 'b' }, depth: 2 });
    const whole = new SseParser().push(text);
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      const items = [];
      for (let i = 0; i < text.length; i += size) items.push(...parser.push(text.slice(i, i + size)));
      expect(items, `chunks of ${size}`).toEqual(whole);
    }
    expect(whole.map((i) => i.kind)).toEqual(['comment', 'event', 'comment', 'event']);
    expect(whole[0]).toEqual({ kind: 'comment', text: 'subscribed to hookwerk.run.*' });
    const first = whole[1];
    expect(first?.kind === 'event' && first.event).toBe('hookwerk.run.ok');
    expect(first?.kind === 'event' && JSON.parse(first.data)).toEqual({
      topic: 'hookwerk.run.ok',
      depth: 1,
      payload: record,
    });
  });

  it('joins data lines with \\n, takes CRLF and CR line ends, and ignores unknown fields', () => {
    const parser = new SseParser();
    const items = [
      ...parser.push('event: x\r\ndata: one\r'),
      ...parser.push('\ndata:two\rid: 7\rretry: 5\r'),
      ...parser.push('\r\n'),
      ...parser.push('data\n\n'),
    ];
    expect(items).toEqual([
      { kind: 'event', event: 'x', data: 'one\ntwo' },
      { kind: 'event', event: 'message', data: '' },
    ]);
  });
});

describe('latency', () => {
  it('percentile is nearest-rank: always a duration that happened', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 95)).toBe(10);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
  });

  it('per hook, leaving out runs that never started', () => {
    const records = [
      ...Array.from({ length: 20 }, (_, i) => run('b', i + 1)),
      run('a', 7),
      run('a', 3, { outcome: 'error' }),
      run('a', 0, { outcome: 'dropped', cause: 'queue_full' }),
      run('c', 0, { outcome: 'skipped_untrusted' }),
    ];
    expect(latencyByHook(records)).toEqual([
      { hook: 'a', runs: 2, p50: 3, p95: 7, max: 7 },
      { hook: 'b', runs: 20, p50: 10, p95: 19, max: 20 },
    ]);
  });
});

describe('RunsStore', () => {
  it('merges the loaded list with the same records from the stream once, newest first, bounded', () => {
    const store = new RunsStore();
    let changes = 0;
    store.onChange(() => changes++);
    const older = run('a', 1, { at: '2026-01-01T00:00:01.000Z' });
    const newer = run('a', 2, { at: '2026-01-01T00:00:02.000Z' });
    store.reset([newer, older]);
    store.add(newer); // arrived over the stream while the list loaded
    const newest = run('b', 3, { at: '2026-01-01T00:00:03.000Z' });
    store.add(newest);
    expect(store.records).toEqual([newest, newer, older]);
    expect(changes).toBe(2);
    const later = (i: number) => new Date(Date.parse('2026-01-01T00:01:00.000Z') + i).toISOString();
    for (let i = 0; i < 1100; i++) store.add(run('c', i, { at: later(i) }));
    expect(store.records).toHaveLength(1000);
    expect(store.records[0]?.durationMs).toBe(1099);
    // Older than all it holds when full: not kept.
    store.add(run('old', 1, { at: '2025-01-01T00:00:00.000Z' }));
    expect(store.records.some((r) => r.hook === 'old')).toBe(false);
  });

  it('(issue 23) keeps the runs newest first by time, whatever order they arrive in', () => {
    const store = new RunsStore();
    const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
    // Loaded out of order (parallel hooks are recorded as they finish), then streamed out of order.
    store.reset([run('b', 1, { at: at(2) }), run('c', 1, { at: at(3) }), run('a', 1, { at: at(1) })]);
    store.add(run('e', 1, { at: at(5) }));
    store.add(run('d', 1, { at: at(4) }));
    store.add(run('a0', 1, { at: at(0) }));
    expect(store.records.map((r) => r.hook)).toEqual(['e', 'd', 'c', 'b', 'a', 'a0']);
    // Of the same moment: the one that arrived later first, as the stream brings them.
    store.add(run('d2', 1, { at: at(4) }));
    expect(store.records.map((r) => r.hook).slice(0, 3)).toEqual(['e', 'd2', 'd']);
  });

  it('(issue 23) a decide with no run is a decision: the gate panel lists it among the gate runs by time', () => {
    const store = new RunsStore();
    const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
    const note = (s: number, runs: number) => ({
      at: at(s),
      dialect: 'claude',
      event: 'Stop',
      sessionId: 'sess_1',
      decision: 'allow' as const,
      blocked: false,
      runs,
      durationMs: 1,
    });
    store.reset(
      [
        run('gate', 1, { at: at(2), dialect: 'lurus', event: 'PreToolUse' }),
        run('observe', 1, { at: at(4) }),
      ],
      [note(2, 1), note(1, 0)],
    );
    store.addDecision(note(3, 0));
    store.addDecision(note(3, 0)); // the same one again (list and stream)
    expect(store.decisions).toHaveLength(3);
    const items = gateItems(store.records, store.decisions);
    expect(items.map((i) => (i.kind === 'run' ? i.r.hook : `none@${i.d.at}`))).toEqual([
      `none@${at(3)}`,
      'gate',
      `none@${at(1)}`,
    ]);
  });

  it('(issue 31) a decision says its tool and session; the page keeps both from the record', () => {
    const gate = run('guard', 1, { event: 'PreToolUse', toolName: 'Bash', sessionId: 'sess_a' });
    expect(subjectOf(gate)).toBe('Bash · session sess_a');
    expect(subjectOf({ sessionId: 'sess_b' })).toBe('no tool · session sess_b');
    const parsed = runRecordSchema.safeParse(gate);
    expect(parsed.success && parsed.data.toolName).toBe('Bash');
  });

  it('the page checks stream payloads against the server record type', () => {
    expect(runRecordSchema.safeParse(run('a', 1, { exitCode: 3, stderrTail: 'x' })).success).toBe(true);
    expect(runRecordSchema.safeParse({ ...run('a', 1), outcome: 'exploded' }).success).toBe(false);
    expect(runRecordSchema.safeParse({ hook: 'a' }).success).toBe(false);
  });
});

describe('parseEnv', () => {
  it('reads NAME=value lines, values may hold =, blank lines are skipped', () => {
    expect(parseEnv('A=1\n\nB=x=y\r\nC=')).toEqual({ ok: true, env: { A: '1', B: 'x=y', C: '' } });
  });

  it('names the line without a name', () => {
    expect(parseEnv('A=1\nnonsense')).toEqual({ ok: false, message: 'line 2: write NAME=value' });
    expect(parseEnv('=1')).toEqual({ ok: false, message: 'line 1: write NAME=value' });
  });
});
