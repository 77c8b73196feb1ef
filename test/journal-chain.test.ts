/**
 * [T-SELF-3] The tamper-evident journal: each attack of issue 30 on real journal files, checked
 * by the real `hookwerk runs --verify` as a process — a forged line, an edited, removed or
 * swapped record, a segment dated back with `touch -d`, 64 MiB of noise to flood rotation, a
 * FIFO and a /dev/zero link among the segments — and writers in several processes at once.
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type JournalEntry, journalDir, RunJournal } from '../src/index.ts';
import { segmentFile } from '../src/records/journal-segments.ts';
import { REPO, runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

function entry(i: number, over: Partial<JournalEntry> = {}): JournalEntry {
  return {
    hook: `guard-${i}`,
    source: '/p/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    dialect: 'claude',
    outcome: 'ok',
    durationMs: 1,
    at: new Date().toISOString(),
    agent: 'claude',
    toolName: 'Bash',
    ...over,
  };
}

/** A home whose journal holds `n` chained runs, one append each. */
function journalOf(n: number): { home: string; dir: string; journal: RunJournal } {
  const home = tempDir('hw-chain-');
  const dir = journalDir(home);
  const journal = new RunJournal(dir);
  for (let i = 1; i <= n; i++) expect(journal.append([entry(i)])).toEqual([]);
  return { home, dir, journal };
}

const first = (dir: string) => segmentFile(dir, 1);
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n');

async function verify(home: string) {
  const r = await runCli(['runs', '--verify'], { home });
  return { code: r.code, out: r.stdout.trimEnd().split('\n').filter(Boolean), err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'records', 'journal-verify.js')))
    throw new Error('dist/ is missing or stale: run `npm run build` first');
});

describe('[T-SELF-3] runs --verify: each attack is one break, named', () => {
  it('[T-SELF-3] a whole chain: exit 0, no break, the count and last hash on stderr', async () => {
    const { home } = journalOf(5);
    const r = await verify(home);
    expect(r).toMatchObject({ code: 0, out: [] });
    expect(r.err).toMatch(/the chain is whole: 5 chained records in .*, last hash [0-9a-f]{64}/);
    expect(r.err).toContain('the chain starts at runs-000000000001.jsonl:1');
  });

  it('[T-SELF-3] a forged line (plain JSON) added: inserted; appends after it go on chained', async () => {
    const { home, dir, journal } = journalOf(5);
    const lines = linesOf(first(dir));
    lines.splice(2, 0, JSON.stringify(entry(99, { hook: 'forged' })));
    writeFileSync(first(dir), lines.join('\n'));
    journal.append([entry(6)]);
    const r = await verify(home);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['broken at runs-000000000001.jsonl:3: inserted']);
  });

  it('[T-SELF-3] a record edited: edited', async () => {
    const { home, dir } = journalOf(5);
    const lines = linesOf(first(dir));
    lines[3] = (lines[3] ?? '').replace('"outcome":"ok"', '"outcome":"deny"');
    writeFileSync(first(dir), lines.join('\n'));
    const r = await verify(home);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['broken at runs-000000000001.jsonl:4: edited']);
  });

  it('[T-SELF-3] a record removed: removed (in the middle, and the last one, which the head still names)', async () => {
    const { home, dir, journal } = journalOf(5);
    const lines = linesOf(first(dir));
    lines.splice(2, 1);
    writeFileSync(first(dir), lines.join('\n'));
    let r = await verify(home);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['broken at runs-000000000001.jsonl:3: removed']);
    journal.append([entry(6)]);
    expect((await verify(home)).out).toEqual(['broken at runs-000000000001.jsonl:3: removed']);

    const other = journalOf(4);
    const kept = linesOf(first(other.dir));
    kept.splice(3, 1);
    writeFileSync(first(other.dir), kept.join('\n'));
    r = await verify(other.home);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['broken at runs-000000000001.jsonl:4: removed']);
  });

  it('[T-SELF-3] two records swapped: reordered, once', async () => {
    const { home, dir } = journalOf(6);
    const lines = linesOf(first(dir));
    [lines[2], lines[3]] = [lines[3] ?? '', lines[2] ?? ''];
    writeFileSync(first(dir), lines.join('\n'));
    const r = await verify(home);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['broken at runs-000000000001.jsonl:3: reordered']);
  });

  it('[T-SELF-3] a journal written before the chain: listed by runs; --verify says where the chain starts, exit 0', async () => {
    const home = tempDir('hw-chain-');
    const dir = journalDir(home);
    const journal = new RunJournal(dir);
    journal.append([entry(0)]);
    // The same journal as an older hookwerk wrote it: plain JSON lines.
    writeFileSync(first(dir), `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`);
    writeFileSync(path.join(dir, 'chain-head'), 'not a head\n');
    journal.append([entry(3)]);
    journal.append([entry(4)]);
    const list = await runCli(['runs', '--json'], { home });
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    const hooks = list.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(hooks.map((e) => e.hook)).toEqual(['guard-4', 'guard-3', 'guard-2', 'guard-1']);
    // The chain's own fields stay out of the listing.
    expect(hooks[0]).not.toHaveProperty('hash');
    const r = await verify(home);
    expect(r).toMatchObject({ code: 0, out: [] });
    expect(r.err).toContain(
      'the chain starts at runs-000000000001.jsonl:3: the 2 lines before it were written before the journal was chained',
    );
  });
});

describe('[T-SELF-3] times, floods and hostile files', () => {
  it('[T-SELF-3] a segment dated back with touch -d keeps its runs in runs --since (the records’ own times decide)', async () => {
    const { home, dir } = journalOf(3);
    execFileSync('touch', ['-d', '3 days ago', first(dir)]);
    const r = await runCli(['runs', '--since', '1h', '--json'], { home });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).hook),
    ).toEqual(['guard-3', 'guard-2', 'guard-1']);
  });

  it('[T-SELF-3] runs --since stops at runs well before it: a run older than the slack is not listed', async () => {
    const { home, journal } = journalOf(0);
    const old = new Date(Date.now() - 5 * 3_600_000).toISOString();
    journal.append([entry(1, { at: old }), entry(2)]);
    const r = await runCli(['runs', '--since', '1h', '--json'], { home });
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).hook),
    ).toEqual(['guard-2']);
  });

  it('[T-SELF-3] 64 MiB of noise appended to flood rotation: the new runs are kept, the rotated marker keeps the chain verifiable, --verify reports the noise', async () => {
    const { home, dir, journal } = journalOf(3);
    const noise = `${'x'.repeat(1023)}\n`.repeat(64 * 1024);
    appendFileSync(first(dir), noise);
    expect(journal.append([entry(4)])).toEqual([]);
    journal.append([entry(5)]);
    // The flooded segment went with the rotation; the runs after it are there.
    expect(existsSync(first(dir))).toBe(false);
    const list = await runCli(['runs', '--json'], { home });
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).hook),
    ).toEqual(['guard-5', 'guard-4']);
    const r = await verify(home);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['broken at runs-000000000002.jsonl:1: inserted']);
    expect(r.err).toContain(
      'segments up to runs-000000000001.jsonl were rotated out; the chain goes on from their last hash at runs-000000000002.jsonl:1',
    );
    expect(r.err).toMatch(/67108864 bytes hookwerk did not write were found in runs-000000000001\.jsonl/);
  });

  it('[T-SELF-3] a plain rotation leaves a rotated marker: the chain is whole without the dropped segments', async () => {
    const home = tempDir('hw-chain-');
    const dir = journalDir(home);
    const journal = new RunJournal(dir, { maxBytes: 16 * 1024, segmentBytes: 4 * 1024 });
    for (let i = 0; i < 200; i++) journal.append([entry(i)]);
    expect(existsSync(first(dir))).toBe(false);
    const verdict = journal.verify();
    expect(verdict.breaks).toEqual([]);
    expect(verdict.notes.join('\n')).toMatch(/were rotated out; the chain goes on from their last hash/);
  });

  it('[T-SELF-3] a FIFO and a /dev/zero link as segments: one stderr line each, skipped unopened; appends go to a new segment, chained across', async () => {
    const { home, dir, journal } = journalOf(2);
    execFileSync('mkfifo', [segmentFile(dir, 2)]);
    expect(journal.append([entry(3)])).toHaveLength(1);
    symlinkSync('/dev/zero', segmentFile(dir, 4));
    expect(journal.append([entry(4)])).toHaveLength(1);
    expect(existsSync(segmentFile(dir, 5))).toBe(true);
    const r = await verify(home);
    expect(r).toMatchObject({ code: 0, out: [] });
    const lines = r.err.trimEnd().split('\n');
    expect(
      lines.filter((l) => l.includes('is a FIFO, not a regular file: skipped, not opened')),
    ).toHaveLength(1);
    expect(
      lines.filter((l) => l.includes('is a symbolic link, not a regular file: skipped, not opened')),
    ).toHaveLength(1);
    expect(r.err).toMatch(/the chain is whole: 4 chained records/);
  });
});

describe('[T-SELF-3] many writers, crashes and a busy lock', () => {
  it('[T-SELF-3] several processes appending at once through rotations: --verify exits 0', async () => {
    const dir = journalDir(tempDir('hw-chain-'));
    const home = path.dirname(path.dirname(dir));
    const script = path.join(tempDir('hw-chain-writer-'), 'writer.mjs');
    const lib = JSON.stringify(path.join(REPO, 'dist', 'records', 'run-journal.js'));
    // A lock wait long enough for a loaded machine: here every append must take the lock.
    writeFileSync(
      script,
      `import { RunJournal } from ${lib};
const [dir, writer] = process.argv.slice(2);
const journal = new RunJournal(dir, { segmentBytes: 64 * 1024, lock: { waitMs: 60000, staleMs: 60000 } });
for (let i = 0; i < 150; i++) {
  const run = (k) => ({ hook: writer + ':' + (i * 2 + k), source: 's', event: 'PreToolUse', outcome: 'ok',
    durationMs: 1, at: new Date().toISOString(), agent: writer });
  const notes = journal.append(i % 4 === 0 ? [run(0), run(1)] : [run(0)]);
  for (const n of notes) console.error(n);
}
`,
    );
    const writers = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
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
    const r = await verify(home);
    expect(r.out).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(new RegExp(`the chain is whole: ${writers.length * (150 + 38)} chained records`));
    expect(new RunJournal(dir).read({ limit: 10_000 }).entries).toHaveLength(writers.length * (150 + 38));
  });

  it('[T-SELF-3] a lock left by a writer that died: the next append breaks it at once and chains on', async () => {
    const { home, dir, journal } = journalOf(2);
    // A pid that has exited: a child that is over.
    const dead = spawn(process.execPath, ['-e', '']);
    const pid = dead.pid ?? 0;
    await new Promise((r) => dead.on('close', r));
    writeFileSync(path.join(dir, 'append.lock'), `${pid}\n`);
    expect(new RunJournal(dir, { lock: { waitMs: 60_000, staleMs: 60_000 } }).append([entry(3)])).toEqual([]);
    expect(existsSync(path.join(dir, 'append.lock'))).toBe(false);
    journal.append([entry(4)]);
    expect(await verify(home)).toMatchObject({ code: 0, out: [] });
  });

  it('[T-SELF-3] a lock held past the bound: the runs are appended without it, said once, and --verify says the fork without failing', async () => {
    const { home, dir } = journalOf(2);
    // A live holder that never lets go: this very test process.
    writeFileSync(path.join(dir, 'append.lock'), `${process.ppid}\n`);
    const busy = new RunJournal(dir, { lock: { waitMs: 20, staleMs: 3_600_000 } });
    const notes = busy.append([entry(3)]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/append\.lock was held for more than 20 ms: runs appended without it/);
    expect(readFileSync(first(dir), 'utf8')).toContain('"unlocked":true,"prev"');
    const r = await verify(home);
    expect(r).toMatchObject({ code: 0, out: [] });
  });
});
