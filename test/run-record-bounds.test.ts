/**
 * Issue 11, "memory bounded by bytes": stored run records cap their text fields (original size
 * kept), and `GET /api/runs` caps its answer, so hooks with huge answers can neither fill the
 * heap nor break the API ("Invalid string length").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../src/records/logger.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { MAX_RECORD_FIELD_BYTES, truncateRecord } from '../src/records/truncate-record.ts';
import { createApp } from '../src/server/app.ts';
import { MAX_RUNS_RESPONSE_BYTES, runsResponseJson } from '../src/server/runs-response.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeScript } from './helpers.ts';
import { serveApp } from './server-harness.ts';

const TOKEN = 'bounds-token-0123456789abcdef';
const MiB = 1024 * 1024;
const trustAll = () => ({ trusted: true, reason: 'test' });
const bytes = (s: string | undefined) => Buffer.byteLength(s ?? '', 'utf8');

function record(extra: Partial<RunRecord> = {}): RunRecord {
  return {
    hook: 'h',
    source: 'in-process',
    event: 'PreToolUse',
    outcome: 'ok',
    durationMs: 1,
    at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('issue 11: stored run records are bounded in bytes', () => {
  it('issue 11: truncateRecord cuts text fields at a character boundary, keeps the original size, leaves small records as they are', () => {
    const small = record({ reason: 'fine', additionalContext: 'é'.repeat(100) });
    expect(truncateRecord(small)).toBe(small);

    // 'é' is 2 bytes, '😀' 4 (a surrogate pair): a cut at a fixed byte count would split them.
    const reason = `a${'é'.repeat(6000)}`;
    const context = `${'😀'.repeat(3000)}z`;
    const given = record({ reason, additionalContext: context, sessionId: 's'.repeat(9000), hook: 'hook' });
    const stored = truncateRecord(given);
    expect(stored).not.toBe(given);
    expect(given.reason).toBe(reason); // the caller's record is untouched
    expect(given.truncated).toBeUndefined();
    expect(stored.truncated).toEqual({ reason: 12_001, additionalContext: 12_001, sessionId: 9000 });
    for (const [field, original] of [
      ['reason', reason],
      ['additionalContext', context],
      ['sessionId', given.sessionId!],
    ] as const) {
      const cut = stored[field]!;
      expect(original.startsWith(cut), field).toBe(true);
      expect(bytes(cut), field).toBeLessThanOrEqual(MAX_RECORD_FIELD_BYTES);
      expect(bytes(cut), field).toBeGreaterThan(MAX_RECORD_FIELD_BYTES - 4);
      expect(cut, field).not.toContain('\uFFFD');
    }
    expect(stored.hook).toBe('hook');
    expect(stored.stderrTail).toBeUndefined();
  });

  it('[L-ANS-4] issue 11: a command hook answering 200 KB of context and a 100 KB reason: the decision has them whole, the stored record 8 KiB each and the sizes', async () => {
    const project = tempDir('hw-bounds-proj-');
    const home = tempDir('hw-bounds-home-');
    writeScript(
      project,
      '.lurus/big.sh',
      [
        `printf '{"decision":"deny","reason":"'`,
        `head -c 100000 /dev/zero | tr '\\000' r`,
        `printf '","additionalContext":"'`,
        `head -c 200000 /dev/zero | tr '\\000' c`,
        `printf '"}'`,
        `head -c 50000 /dev/zero | tr '\\000' e >&2`,
      ].join('\n'),
    );
    mkdirSync(path.join(project, '.lurus'), { recursive: true });
    writeFileSync(
      path.join(project, '.lurus', 'hooks.json'),
      JSON.stringify({ PreToolUse: [{ hooks: [{ type: 'command', command: './.lurus/big.sh' }] }] }),
    );
    const engine = await makeEngine(undefined, { projectDir: project, home, trust: trustAll });
    const decision = await engine.decide('PreToolUse', { toolName: 'Write' });
    expect(decision).toMatchObject({ decision: 'deny', blocked: true });
    expect(decision.reason).toBe('r'.repeat(100_000));
    expect('additionalContext' in decision && decision.additionalContext).toBe('c'.repeat(200_000));
    expect(decision.runs[0]!.additionalContext).toHaveLength(200_000);

    const [stored] = engine.runs();
    expect(stored).toMatchObject({
      outcome: 'deny',
      reason: 'r'.repeat(MAX_RECORD_FIELD_BYTES),
      additionalContext: 'c'.repeat(MAX_RECORD_FIELD_BYTES),
      truncated: { reason: 100_000, additionalContext: 200_000 },
    });
    // The stderr tail is shorter than the cap already: kept as the runner made it.
    expect(stored!.stderrTail).toMatch(/^e+$/);
    expect(stored!.truncated).not.toHaveProperty('stderrTail');
  });

  it('[P-API-4] issue 11: 1000 runs with 1 MiB of additionalContext: stored records stay small, GET /api/runs?limit=1000 answers valid JSON within 4 MiB and counts what it left out', async () => {
    const engine = await makeEngine(undefined, {
      projectDir: tempDir('hw-bounds-proj-'),
      home: tempDir('hw-bounds-home-'),
      trust: trustAll,
    });
    let n = 0;
    // A fresh 1 MiB string per run, as a hook's parsed answer would be.
    engine.use('PreToolUse', { name: 'big' }, () => ({
      decision: 'allow',
      additionalContext: `${n++}:`.padEnd(MiB, 'x'),
    }));
    for (let i = 0; i < 1000; i++) {
      const d = await engine.decide('PreToolUse', { toolName: 'Read' });
      if (i % 250 === 0) expect('additionalContext' in d && d.additionalContext).toHaveLength(MiB);
    }
    const runs = engine.runs();
    expect(runs).toHaveLength(1000);
    for (const r of runs) {
      expect(bytes(r.additionalContext)).toBe(MAX_RECORD_FIELD_BYTES);
      expect(r.truncated).toEqual({ additionalContext: MiB });
    }
    // What the run log holds: ~8 MiB, not ~1 GB.
    expect(bytes(JSON.stringify(runs))).toBeLessThan(1000 * (MAX_RECORD_FIELD_BYTES + 1024));

    const app = createApp({
      engine,
      token: TOKEN,
      logger: silentLogger,
      workspace: tempDir('hw-bounds-ws-'),
    });
    const { url, stop } = await serveApp(engine, app);
    try {
      const res = await fetch(`${url}/api/runs?limit=1000`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await res.text();
      expect(bytes(text)).toBeLessThanOrEqual(MAX_RUNS_RESPONSE_BYTES);
      const body = JSON.parse(text) as { runs: RunRecord[]; omitted?: number };
      expect(body.runs.length).toBeGreaterThan(100);
      expect(body.omitted).toBe(1000 - body.runs.length);
      // Newest first; the oldest were left out.
      expect(body.runs.map((r) => Number.parseInt(r.additionalContext ?? '', 10))).toEqual(
        [...Array(body.runs.length).keys()].map((i) => 999 - i),
      );

      const hundred = await fetch(`${url}/api/runs?limit=100`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const all = (await hundred.json()) as { runs: RunRecord[]; omitted?: number };
      expect(all.runs).toHaveLength(100);
      expect(all).not.toHaveProperty('omitted');
    } finally {
      await stop();
    }
  });

  it('issue 11: runsResponseJson keeps whole records only, newest first, within the byte cap', () => {
    const runs = [0, 1, 2, 3].map((i) => record({ hook: `h${i}`, reason: 'x'.repeat(1000) }));
    const one = bytes(JSON.stringify(runs[0]));
    const text = runsResponseJson(runs, 32 + 2 * (one + 1));
    expect(JSON.parse(text)).toEqual({ runs: runs.slice(0, 2), omitted: 2 });
    expect(bytes(text)).toBeLessThanOrEqual(32 + 2 * (one + 1));
    expect(JSON.parse(runsResponseJson(runs))).toEqual({ runs });
    expect(JSON.parse(runsResponseJson([]))).toEqual({ runs: [] });
  });
});
