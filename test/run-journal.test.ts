import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runsCommand } from '../src/cli/runs.ts';
import { createHookEngine } from '../src/engine.ts';
import { type JournalEntry, journalDir, RunJournal } from '../src/index.ts';
import { journalEntrySchema } from '../src/records/journal-entry-schema.ts';
import { parseSince } from '../src/records/since-time.ts';
import { MAX_RECORD_FIELD_BYTES } from '../src/records/truncate-record.ts';
import { createApp } from '../src/server/app.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { serveApp } from './server-harness.ts';

// [R-HOOK-3] The agents' journal: real files in temp homes, real writer processes appending at
// once, the real `hookwerk runs` and the real API on 127.0.0.1.

const BASE = Date.parse('2026-12-01T10:00:00.000Z');

function entry(i: number, over: Partial<JournalEntry> = {}): JournalEntry {
  return {
    hook: `guard-${i}`,
    source: '/p/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    dialect: 'claude',
    outcome: 'ok',
    durationMs: 1.25,
    at: new Date(BASE + i * 1000).toISOString(),
    sessionId: 'sess-1',
    agent: 'claude',
    toolName: 'Bash',
    ...over,
  };
}

function segments(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^runs-\d+\.jsonl$/.test(f))
    .sort();
}

function totalBytes(dir: string): number {
  return segments(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
}

/** Every run line of every segment, oldest segment first, parsed (throws on a line that is not JSON). */
function allLines(dir: string): Array<Record<string, unknown>> {
  return segments(dir).flatMap((f) =>
    readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l))
      .filter((v) => !('rotated' in v) && !('foreign' in v)),
  );
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'records', 'run-journal.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
});

describe('[R-HOOK-3] RunJournal', () => {
  it('[R-HOOK-3] keeps entries as JSON lines in <home>/.hookwerk/records/ (0700, files 0600), read back newest first', () => {
    const home = tempDir('hw-journal-');
    const dir = journalDir(home);
    expect(dir).toBe(path.join(home, '.hookwerk', 'records'));
    const journal = new RunJournal(dir);
    expect(journal.read()).toEqual({ entries: [], skipped: 0, droppedSegments: 0, refused: [] });
    const first = [
      entry(1),
      entry(2, { agent: 'codex', toolName: 'apply_patch', outcome: 'deny', reason: 'no' }),
    ];
    journal.append(first);
    journal.append([entry(3, { agent: 'gemini', toolName: undefined, event: 'SessionStart' })]);
    journal.append([]);

    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(home, '.hookwerk')).mode & 0o777).toBe(0o700);
    const files = segments(dir);
    expect(files).toEqual(['runs-000000000001.jsonl']);
    expect(statSync(path.join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    // One JSON object per line.
    const text = readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).hook),
    ).toEqual(['guard-1', 'guard-2', 'guard-3']);

    const read = journal.read();
    expect(read.skipped).toBe(0);
    expect(read.entries).toEqual([
      JSON.parse(JSON.stringify(entry(3, { agent: 'gemini', toolName: undefined, event: 'SessionStart' }))),
      first[1],
      first[0],
    ]);
  });

  it('[R-HOOK-3] filters by agent and since, and stops at limit', () => {
    const journal = new RunJournal(journalDir(tempDir('hw-journal-')), { segmentBytes: 2048 });
    for (let i = 0; i < 60; i++) journal.append([entry(i, { agent: ['claude', 'codex', 'cursor'][i % 3]! })]);
    expect(segments(journal.dir).length).toBeGreaterThan(3);

    const codex = journal.read({ agent: 'codex' }).entries;
    expect(codex.map((e) => e.hook)).toEqual(Array.from({ length: 20 }, (_, k) => `guard-${58 - 3 * k}`));
    const since = journal.read({ since: new Date(BASE + 50_000) }).entries;
    expect(since.map((e) => e.hook)).toEqual(Array.from({ length: 10 }, (_, k) => `guard-${59 - k}`));
    const both = journal.read({ agent: 'cursor', since: new Date(BASE + 50_000), limit: 2 }).entries;
    expect(both.map((e) => e.hook)).toEqual(['guard-59', 'guard-56']);
    expect(journal.read({ limit: 3 }).entries.map((e) => e.hook)).toEqual([
      'guard-59',
      'guard-58',
      'guard-57',
    ]);
    expect(journal.read({ agent: 'nobody' }).entries).toEqual([]);
  });

  it('[R-HOOK-3] [T-SELF-3] with since, the runs’ own times decide, never a segment’s mtime', () => {
    const journal = new RunJournal(journalDir(tempDir('hw-journal-')), { segmentBytes: 1024 });
    const now = Date.now();
    for (let i = 0; i < 20; i++)
      journal.append([entry(i, { at: new Date(now - 1000 * (20 - i)).toISOString() })]);
    const files = segments(journal.dir);
    expect(files.length).toBeGreaterThan(2);
    // Every segment says it was last written a day ago (`touch -d`): its runs are still read.
    for (const f of files)
      utimesSync(path.join(journal.dir, f), new Date(now - 86_400_000), new Date(now - 86_400_000));
    expect(journal.read({ since: new Date(now - 3_600_000) }).entries).toHaveLength(20);
  });

  it('[R-HOOK-3] reads lines that span its read chunks, and cuts text fields as the run log does', () => {
    const journal = new RunJournal(journalDir(tempDir('hw-journal-')));
    const big = (i: number) =>
      entry(i, { reason: `${i}:${'é'.repeat(3000 + i)}`, stderrTail: 'x'.repeat(5000) });
    for (let i = 0; i < 40; i++) journal.append([big(i)]);
    const read = journal.read();
    expect(read.skipped).toBe(0);
    expect(read.entries).toHaveLength(40);
    expect(read.entries).toEqual(Array.from({ length: 40 }, (_, k) => big(39 - k)));

    const huge = 'ä'.repeat(20_000);
    journal.append([entry(99, { reason: huge, toolName: `mcp__${'t'.repeat(20_000)}`, agent: 'claude' })]);
    const [cut] = journal.read({ limit: 1 }).entries;
    expect(Buffer.byteLength(cut!.reason!, 'utf8')).toBe(MAX_RECORD_FIELD_BYTES);
    expect(Buffer.byteLength(cut!.toolName!, 'utf8')).toBe(MAX_RECORD_FIELD_BYTES);
    expect(cut!.truncated).toEqual({ reason: 40_000, toolName: 20_005 });
    expect(cut!.hook).toBe('guard-99');
  });

  it('[R-HOOK-3] skips and counts lines that are not entries; a torn last line is left out until completed', () => {
    const home = tempDir('hw-journal-');
    const dir = journalDir(home);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'runs-000000000001.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify(entry(1)),
        'not json at all',
        JSON.stringify({ hook: 'no agent', source: 's', event: 'e', outcome: 'ok', durationMs: 1, at: 'x' }),
        '',
        `{"a":"${'z'.repeat(1.5 * 1024 * 1024)}"}`,
        JSON.stringify({ ...entry(2), outcome: 'nonsense' }),
        JSON.stringify(entry(3)),
        '{"hook":"torn',
      ].join('\n'),
    );
    const journal = new RunJournal(dir);
    const read = journal.read();
    expect(read.entries.map((e) => e.hook)).toEqual(['guard-3', 'guard-1']);
    expect(read.skipped).toBe(4);
    // [T-SELF-3] The next append starts a new line after the torn piece: that piece is one bad
    // line, the entries after it are whole.
    journal.append([entry(4)]);
    journal.append([entry(5)]);
    const again = journal.read();
    expect(again.entries.map((e) => e.hook)).toEqual(['guard-5', 'guard-4', 'guard-3', 'guard-1']);
    expect(again.skipped).toBe(5);
    // A folder with a foreign file: only runs-N.jsonl segments are read.
    writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');
    expect(journal.read().entries).toHaveLength(4);
  });

  it('[R-HOOK-3] stays within its bound: the oldest segments are deleted, the newest kept', () => {
    const maxBytes = 16 * 1024;
    const segmentBytes = 4 * 1024;
    const journal = new RunJournal(journalDir(tempDir('hw-journal-')), { maxBytes, segmentBytes });
    let last = 0;
    for (let i = 0; i < 400; i++) {
      journal.append([entry(i, { reason: `run ${i}` })]);
      last = i;
      expect(totalBytes(journal.dir)).toBeLessThanOrEqual(maxBytes);
    }
    const files = segments(journal.dir);
    expect(files).not.toContain('runs-000000000001.jsonl');
    expect(files.length).toBeLessThanOrEqual(maxBytes / segmentBytes);
    const read = journal.read();
    expect(read.droppedSegments).toBe(Number(/\d+/.exec(files[0]!)![0]) - 1);
    expect(read.droppedSegments).toBeGreaterThan(0);
    // What is kept is the newest runs, without a gap.
    expect(read.entries[0]!.hook).toBe(`guard-${last}`);
    const kept = read.entries.map((e) => Number(e.hook.slice('guard-'.length)));
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => last - k));
    expect(kept.length).toBeGreaterThan(25);
    // The real bound is 64 MiB, in 8 MiB segments.
    const real = new RunJournal('/nonexistent');
    expect([real.maxBytes, real.segmentBytes]).toEqual([64 * 1024 * 1024, 8 * 1024 * 1024]);
    expect(() => new RunJournal('/x', { maxBytes: 10, segmentBytes: 20 })).toThrow(/maxBytes/);
  });

  it('[R-HOOK-3] [R-HOOK-4] appending loads no zod: a hook call that records pays for no schema', () => {
    // Every module journal-append.ts reaches by a static import, from the sources.
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\s(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const target = m[1]!;
        if (target.startsWith('.')) visit(path.join(path.dirname(file), target));
        else packages.add(target);
      }
    };
    visit(path.join(REPO, 'src', 'records', 'journal-append.ts'));
    expect(seen.size).toBeGreaterThan(3);
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
  });

  it('[R-HOOK-3] several processes appending at once: every line whole, none lost, each writer in order', async () => {
    const dir = journalDir(tempDir('hw-journal-'));
    const script = path.join(tempDir('hw-journal-writer-'), 'writer.mjs');
    const lib = JSON.stringify(path.join(REPO, 'dist', 'records', 'run-journal.js'));
    // Small segments, so the writers race each other through rotations too; big entries (8 KiB
    // and more) so a write is longer than a pipe's atomic size.
    writeFileSync(
      script,
      `import { RunJournal } from ${lib};
const [dir, writer] = process.argv.slice(2);
const journal = new RunJournal(dir, { segmentBytes: 256 * 1024, maxBytes: 1024 * 1024 * 1024,
  lock: { waitMs: 60000, staleMs: 60000 } });
for (let i = 0; i < 500; i++) {
  const run = (k) => ({ hook: writer + ':' + (i * 3 + k), source: 's', event: 'PreToolUse', outcome: 'ok',
    durationMs: 1, at: new Date().toISOString(), agent: writer, toolName: 'Bash',
    reason: i % 7 === 0 ? 'r'.repeat(8000) : 'short' });
  journal.append(i % 5 === 0 ? [run(0), run(1), run(2)] : [run(0)]);
}
`,
    );
    const writers = ['w1', 'w2', 'w3', 'w4'];
    const exits = await Promise.all(
      writers.map(
        (w) =>
          new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
            const child = spawn(process.execPath, [script, dir, w], { stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.setEncoding('utf8').on('data', (d: string) => {
              stderr += d;
            });
            child.on('error', reject);
            child.on('close', (code) => resolve({ code, stderr }));
          }),
      ),
    );
    for (const e of exits) expect(e, e.stderr).toEqual({ code: 0, stderr: '' });

    // Each writer: 500 appends, 100 of them of three entries.
    const perWriter = 400 + 100 * 3;
    const lines = allLines(dir);
    expect(lines).toHaveLength(writers.length * perWriter);
    expect(segments(dir).length).toBeGreaterThan(4);
    for (const w of writers) {
      const seq = lines.filter((l) => l.agent === w).map((l) => String(l.hook));
      // Within one writer, the journal has its runs in the order it appended them.
      const expected: string[] = [];
      for (let i = 0; i < 500; i++)
        for (let k = 0; k < (i % 5 === 0 ? 3 : 1); k++) expected.push(`${w}:${i * 3 + k}`);
      expect(seq).toEqual(expected);
    }
    const read = new RunJournal(dir).read();
    expect(read.skipped).toBe(0);
    expect(read.entries).toHaveLength(writers.length * perWriter);
  });
});

describe('[R-HOOK-3] --since / ?since=', () => {
  it('reads an ISO time or a span back from now, and nothing else', () => {
    const now = new Date('2026-12-02T12:00:00.000Z');
    expect(parseSince('10m', now)?.toISOString()).toBe('2026-12-02T11:50:00.000Z');
    expect(parseSince('2h', now)?.toISOString()).toBe('2026-12-02T10:00:00.000Z');
    expect(parseSince('1d', now)?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(parseSince('30s', now)?.toISOString()).toBe('2026-12-02T11:59:30.000Z');
    expect(parseSince('2026-12-01T08:30:00Z', now)?.toISOString()).toBe('2026-12-01T08:30:00.000Z');
    expect(parseSince('2026-12-01T08:30:00.250+01:00', now)?.toISOString()).toBe('2026-12-01T07:30:00.250Z');
    expect(parseSince('2026-12-01', now)?.getTime()).toBe(new Date(2026, 11, 1).getTime());
    for (const bad of ['', 'yesterday', '10', '5x', '-1h', '2026-13-45', '12/01/2026', '1.5h'])
      expect(parseSince(bad, now), bad).toBeUndefined();
  });
});

describe('[R-HOOK-3] hookwerk runs', () => {
  /** `hookwerk runs` in this process, with HOME at `home`. */
  function runs(home: string, opts: Parameters<typeof runsCommand>[0] = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = runsCommand(
      opts,
      (l) => out.push(l),
      (l) => err.push(l),
      { HOME: home },
      new Date(BASE + 3_600_000),
    );
    return { code, out, err };
  }

  it('[R-HOOK-3] an empty journal: one line saying so, and where runs come from', () => {
    const home = tempDir('hw-runs-');
    const r = runs(home);
    expect(r).toEqual({
      code: 0,
      out: [expect.stringContaining(`no runs recorded yet in ${journalDir(home)}`)],
      err: [],
    });
    expect(r.out[0]).toContain('hookwerk hook --agent');
    // With --json the records alone are on stdout: the note goes to stderr.
    const json = runs(home, { json: true });
    expect(json.out).toEqual([]);
    expect(json.err).toEqual([expect.stringContaining('no runs recorded yet')]);
  });

  it('[R-HOOK-3] a table: time, agent, event, tool, hook, outcome, decision, duration, reason', () => {
    const home = tempDir('hw-runs-');
    new RunJournal(journalDir(home)).append([
      entry(1),
      entry(2, {
        agent: 'codex',
        toolName: 'apply_patch',
        outcome: 'deny',
        decision: 'deny',
        permission: 'deny',
        reason: 'edits to .env are not allowed\nsecond line',
        durationMs: 12.34,
      }),
      entry(3, { agent: 'cursor', toolName: undefined, event: 'Stop', reason: 'evil\u001b[2Jescape' }),
    ]);
    const r = runs(home);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const [header, ...rows] = r.out;
    expect(header!.split(/\s{2,}/)).toEqual([
      'time',
      'agent',
      'event',
      'tool',
      'hook',
      'outcome',
      'decision',
      'duration',
      'reason',
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[0]!.split(/\s{2,}/)).toEqual([
      '2026-12-01T10:00:03.000Z',
      'cursor',
      'Stop',
      '-',
      'guard-3',
      'ok',
      '-',
      '1.3ms',
      'evil?[2Jescape',
    ]);
    expect(rows[1]!.split(/\s{2,}/)).toEqual([
      '2026-12-01T10:00:02.000Z',
      'codex',
      'PreToolUse',
      'apply_patch',
      'guard-2',
      'deny',
      'deny',
      '12.3ms',
      'edits to .env are not allowed …',
    ]);
    expect(rows[2]).toMatch(
      /^2026-12-01T10:00:01\.000Z\s+claude\s+PreToolUse\s+Bash\s+guard-1\s+ok\s+-\s+1\.3ms$/,
    );
    // Columns line up.
    const at = header!.indexOf('hook');
    for (const row of rows) expect(row.slice(at, at + 6)).toMatch(/^guard-/);
  });

  it('[R-HOOK-3] --agent, --since and --limit; an agent with no runs is no error', () => {
    const home = tempDir('hw-runs-');
    const journal = new RunJournal(journalDir(home));
    for (let i = 0; i < 10; i++)
      journal.append([entry(i * 600, { agent: i % 2 === 0 ? 'claude' : 'gemini' })]);
    const hooks = (r: { out: string[] }) => r.out.slice(1).map((l) => l.split(/\s{2,}/)[4]);
    expect(hooks(runs(home, { agent: 'gemini' }))).toEqual([
      'guard-5400',
      'guard-4200',
      'guard-3000',
      'guard-1800',
      'guard-600',
    ]);
    // "now" is BASE + 1 h: since 30 minutes ago means the runs from BASE + 1800 s on.
    expect(hooks(runs(home, { since: '30m' }))).toEqual([
      'guard-5400',
      'guard-4800',
      'guard-4200',
      'guard-3600',
      'guard-3000',
      'guard-2400',
      'guard-1800',
    ]);
    expect(hooks(runs(home, { since: '2026-12-01T11:20:00Z', agent: 'claude' }))).toEqual(['guard-4800']);
    const limited = runs(home, { limit: '2' });
    expect(hooks(limited)).toEqual(['guard-5400', 'guard-4800']);
    expect(limited.err).toEqual([expect.stringContaining('the newest 2 shown')]);

    const typo = runs(home, { agent: 'cluade' });
    expect(typo.code).toBe(0);
    expect(typo.out).toEqual([expect.stringContaining('no runs match --agent cluade')]);
    expect(typo.out[0]).toContain('claude, gemini, codex, copilot, cursor, mcp');
    const none = runs(home, { agent: 'copilot' });
    expect(none.out).toEqual([`hookwerk runs: no runs match --agent copilot in ${journalDir(home)}`]);
  });

  it('[R-HOOK-3] the real CLI: --json lines are the entries; a bad --since is one line, exit 1', async () => {
    const home = tempDir('hw-runs-');
    const stored = [entry(1), entry(2, { agent: 'copilot', toolName: 'Edit', sessionId: 'copilot-s' })];
    new RunJournal(journalDir(home)).append(stored);
    const json = await runCli(['runs', '--json'], { home });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(
      json.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([stored[1], stored[0]]);

    const table = await runCli(['runs', '--agent', 'copilot'], { home });
    expect(table.code).toBe(0);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(table.stdout).toContain('copilot');

    const bad = await runCli(['runs', '--since', 'last tuesday'], { home });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).not.toMatch(STACK);
    expect(bad.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^hookwerk: --since must be an ISO time .* got "last tuesday"$/),
    ]);
    const limit = await runCli(['runs', '--limit', '0'], { home });
    expect([limit.code, limit.stderr.trim().split('\n').length]).toEqual([1, 1]);
  });

  it('[R-HOOK-3] notes unreadable lines on stderr', () => {
    const home = tempDir('hw-runs-');
    const journal = new RunJournal(journalDir(home));
    journal.append([entry(1)]);
    appendFileSync(path.join(journal.dir, 'runs-000000000001.jsonl'), 'garbage\n');
    const r = runs(home);
    expect(r.out).toHaveLength(2);
    expect(r.err).toEqual(['hookwerk runs: 1 unreadable line skipped']);
  });
});

/** What `/api/agent-runs` answers, checked. */
const answerSchema = z.object({
  runs: z.array(journalEntrySchema).default([]),
  skipped: z.number().optional(),
  droppedSegments: z.number().optional(),
  error: z.string().optional(),
});

describe('[R-HOOK-3] GET /api/agent-runs', () => {
  it('[R-HOOK-3] answers the journal of serve’s home, filtered, token-protected', async () => {
    const home = tempDir('hw-api-home-');
    const workspace = tempDir('hw-api-ws-');
    const journal = new RunJournal(journalDir(home));
    journal.append([
      entry(1),
      entry(2, { agent: 'gemini', toolName: 'Write' }),
      entry(3, { agent: 'codex' }),
    ]);
    appendFileSync(path.join(journal.dir, 'runs-000000000001.jsonl'), '{"not":"an entry"}\n');
    const engine = await createHookEngine({ workspace, home, watch: false });
    const token = 'journal-token-0123456789';
    const served = await serveApp(engine, createApp({ engine, token, workspace, home }));
    try {
      const get = async (query: string, auth = `Bearer ${token}`) => {
        const res = await fetch(`${served.url}/api/agent-runs${query}`, { headers: { authorization: auth } });
        return { status: res.status, json: answerSchema.parse(await res.json()) };
      };
      const all = await get('');
      expect(all.status).toBe(200);
      expect(all.json.runs.map((r) => `${r.agent}:${r.hook}`)).toEqual([
        'codex:guard-3',
        'gemini:guard-2',
        'claude:guard-1',
      ]);
      expect(all.json.runs[1]).toEqual(entry(2, { agent: 'gemini', toolName: 'Write' }));
      expect(all.json).toMatchObject({ skipped: 1, droppedSegments: 0 });
      expect((await get('?agent=gemini')).json.runs.map((r) => r.hook)).toEqual(['guard-2']);
      expect((await get('?agent=&since=&limit=')).json.runs).toHaveLength(3);
      expect((await get('?limit=1')).json.runs.map((r) => r.hook)).toEqual(['guard-3']);
      expect((await get('?since=2026-12-01T10:00:02Z')).json.runs).toHaveLength(2);
      expect((await get('?since=1m')).json.runs).toEqual([]);

      const bad = await get('?since=soon');
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatch(/^since: since must be an ISO time/);
      expect((await get('?limit=0')).status).toBe(400);
      expect((await get('?limit=1001')).status).toBe(400);
      expect((await get('?tool=Bash')).json.error).toBe('tool: unknown field "tool"');
      expect((await get('', 'Bearer wrong')).status).toBe(401);
    } finally {
      await served.stop();
    }
  });
});
