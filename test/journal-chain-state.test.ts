/**
 * [T-SELF-3] The journal's chain as the dashboard shows it (`GET /api/journal-chain`): whole up
 * to which record, broken at which, not chained yet; bounded (the newest bytes only, said so)
 * and kept while the journal's files do not change. Real journal files, a real `hookwerk serve`.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type JournalEntry, journalDir, RunJournal } from '../src/index.ts';
import { segmentFile } from '../src/records/journal-segments.ts';
import { chainStateReader } from '../src/server/journal-chain-state.ts';
import { chainSummary } from '../ui/src/chain-status.ts';
import { journalChainSchema } from '../ui/src/schemas.ts';
import { tempDir } from './helpers.ts';
import { withServe } from './journal-fixture.ts';
import { request } from './serve-process.ts';

function entry(i: number): JournalEntry {
  return {
    hook: `guard-${i}`,
    source: '/p/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    outcome: 'ok',
    durationMs: 1,
    at: new Date().toISOString(),
    agent: 'claude',
  };
}

function journalOf(n: number): { home: string; dir: string; journal: RunJournal } {
  const home = tempDir('hw-chainstate-');
  const dir = journalDir(home);
  const journal = new RunJournal(dir);
  for (let i = 1; i <= n; i++) journal.append([entry(i)]);
  return { home, dir, journal };
}

/** Changes line `n` (1-based) of segment 1 so that it no longer hashes to its hash. */
function editLine(dir: string, n: number): void {
  const file = segmentFile(dir, 1);
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[n - 1] = (lines[n - 1] ?? '').replace('"outcome":"ok"', '"outcome":"deny"');
  writeFileSync(file, lines.join('\n'));
}

const SEG1 = 'runs-000000000001.jsonl';

describe('[T-SELF-3] the chain state the dashboard shows', () => {
  it('[T-SELF-3] empty, not chained (lines from before the chain), whole up to the last record, broken at an edited one', () => {
    const home = tempDir('hw-chainstate-');
    expect(chainStateReader(home)()).toMatchObject({ state: 'empty', records: 0 });

    const dir = journalDir(home);
    mkdirSync(dir, { recursive: true });
    appendFileSync(segmentFile(dir, 1), `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`);
    const old = chainStateReader(home)();
    expect(old).toMatchObject({ state: 'unchained', unchained: 2, records: 0 });
    expect(chainSummary(old).text).toBe(
      'Journal chain: not chained: its 2 lines were written before the chain.',
    );

    const { home: h2, dir: d2 } = journalOf(5);
    const whole = chainStateReader(h2)();
    expect(whole).toMatchObject({
      state: 'whole',
      checked: 'all',
      from: `${SEG1}:1`,
      to: `${SEG1}:5`,
      records: 5,
    });
    expect(chainSummary(whole)).toEqual({ text: `Journal chain: whole up to ${SEG1}:5, 5 records checked.` });
    editLine(d2, 3);
    const broken = chainStateReader(h2)();
    expect(broken).toMatchObject({ state: 'broken', breaks: [{ segment: SEG1, line: 3, kind: 'edited' }] });
    expect(chainSummary(broken)).toEqual({
      text: `Journal chain: broken at ${SEG1}:3: edited.`,
      kind: 'error',
    });
  });

  it('[T-SELF-3] bounded: only the newest bytes are checked (with line numbers of the file, said so); an answer is kept until a file changes', () => {
    const { home, dir, journal } = journalOf(40);
    const size = readFileSync(segmentFile(dir, 1)).length;
    const lineBytes = Math.ceil(size / 40);
    // About the last 5 records: the first whole line in them starts the check.
    const read = chainStateReader(home, lineBytes * 5);
    const tail = read();
    expect(tail).toMatchObject({ state: 'whole', checked: 'tail', to: `${SEG1}:40` });
    expect(tail.records).toBeGreaterThanOrEqual(4);
    expect(tail.records).toBeLessThanOrEqual(5);
    expect(tail.from).toBe(`${SEG1}:${40 - tail.records + 1}`);
    expect(tail.notes.join('\n')).toContain(`checked from ${tail.from}, the newest records only`);
    expect(chainSummary(tail).text).toContain('hookwerk runs --verify checks all');
    // Nothing changed: the same answer, not checked again.
    expect(read()).toBe(tail);
    // An edit before the tail is past this check (runs --verify sees it); one in it is seen.
    editLine(dir, 2);
    expect(read()).toMatchObject({ state: 'whole', checked: 'tail' });
    journal.append([entry(41)]);
    editLine(dir, 39);
    const broken = read();
    expect(broken).toMatchObject({
      state: 'broken',
      checked: 'tail',
      breaks: [{ segment: SEG1, line: 39, kind: 'edited' }],
    });
  });

  it('[T-SELF-3] GET /api/journal-chain of a real serve: whole, then broken at the edited record', async () => {
    const { home, dir } = journalOf(3);
    await withServe(home, async (port, token) => {
      const ask = async () => {
        const r = await request(port, 'GET', '/api/journal-chain', token);
        expect(r.status).toBe(200);
        const parsed = journalChainSchema.safeParse(JSON.parse(r.text));
        if (!parsed.success) throw new Error(r.text);
        return parsed.data;
      };
      expect(await ask()).toMatchObject({ state: 'whole', checked: 'all', to: `${SEG1}:3`, records: 3 });
      editLine(dir, 2);
      expect(await ask()).toMatchObject({
        state: 'broken',
        breaks: [{ segment: SEG1, line: 2, kind: 'edited' }],
      });
    });
  });
});
