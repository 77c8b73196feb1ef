/**
 * [T-SELF-3] The journal's append lock between real processes: a holder in one process, a writer
 * in another that finds it held. The writer that waits takes the lock once the holder lets go
 * and chains on (counted `waited`); one held past its bound still writes its run, marked
 * `unlocked`, never dropped (counted `gave_up`), and serve's `/metrics` shows both counts. The
 * lock is a symbolic link naming its holder; one left by a holder that died is broken at once.
 * The tests wait for events (the holder's "held", the writer's "waiting"), never for the clock.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunJournal } from '../src/index.ts';
import { readLockWaits } from '../src/records/journal-lock-counts.ts';
import { segmentFile } from '../src/records/journal-segments.ts';
import { type CliProcess, startProgram } from './cli-process.ts';
import { REPO, runCli } from './cli-runner.ts';
import { tempDir, waitFor } from './helpers.ts';
import { journalOf, journalRun, withServe } from './journal-fixture.ts';
import { request, sample } from './serve-process.ts';

const lib = (file: string) => JSON.stringify(path.join(REPO, 'dist', 'records', file));

/** Holds the lock of the folder in argv[2] until a line comes on stdin. */
const HOLDER = `import { lockJournal } from ${lib('journal-lock.js')};
const lock = lockJournal(process.argv[2], { waitMs: 60000, staleMs: 3600000 });
if (lock.kind !== 'held') throw new Error('not held: ' + lock.why);
console.log('held');
process.stdin.once('data', () => { lock.release(); console.log('released'); process.exit(0); });
`;

/** Appends one run to the folder in argv[2], waiting at most argv[3] ms; says when it starts to wait. */
const WRITER = `import { writeSync } from 'node:fs';
import { appendJournal } from ${lib('journal-append.js')};
const [dir, waitMs] = process.argv.slice(2);
const run = { hook: 'late', source: 's', event: 'PreToolUse', outcome: 'ok', durationMs: 1,
  at: new Date().toISOString(), agent: 'claude' };
const notes = appendJournal(dir, [run], { maxBytes: 1 << 26, segmentBytes: 1 << 23,
  lock: { waitMs: Number(waitMs), staleMs: 3600000, onWait: () => writeSync(1, 'waiting\\n') } });
for (const n of notes) console.error(n);
`;

/** `source` as a node script with `args`, its stdin a pipe; killed after the test (cli-process.ts). */
function start(source: string, args: string[]): CliProcess {
  const script = path.join(tempDir('hw-lock-script-'), 'script.mjs');
  writeFileSync(script, source);
  return startProgram(process.execPath, [script, ...args], { env: process.env, stdin: 'pipe' });
}

async function holdLock(dir: string): Promise<CliProcess> {
  const holder = start(HOLDER, [dir]);
  await waitFor(() => holder.stdout().includes('held'), 'the holder to take the lock', 20_000);
  return holder;
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'records', 'journal-lock-counts.js')))
    throw new Error('dist/ is missing or stale: run `npm run build` first');
});

describe('[T-SELF-3] the append lock between processes', () => {
  it('[T-SELF-3] a writer that finds the lock held waits, takes it when the holder lets go, and chains on: counted waited', async () => {
    const { home, dir } = journalOf(2);
    const holder = await holdLock(dir);
    // While held, the lock is a symbolic link naming the holder's pid.
    expect(readlinkSync(path.join(dir, 'append.lock'))).toMatch(new RegExp(`^${holder.child.pid}\\.\\d+$`));
    const writer = start(WRITER, [dir, '600000']);
    await waitFor(() => writer.stdout().includes('waiting'), 'the writer to find the lock held', 20_000);
    // Nothing written while it waits.
    expect(readFileSync(segmentFile(dir, 1), 'utf8')).not.toContain('"hook":"late"');
    holder.child.stdin?.write('release\n');
    expect((await holder.exit).code).toBe(0);
    expect((await writer.exit).code).toBe(0);
    expect(writer.stderr()).toBe('');
    const text = readFileSync(segmentFile(dir, 1), 'utf8');
    expect(text).toContain('"hook":"late"');
    expect(text).not.toContain('"unlocked":true');
    expect(readLockWaits(dir)).toEqual({ waited: 1, gave_up: 0 });
    expect(existsSync(path.join(dir, 'append.lock'))).toBe(false);
    const r = await runCli(['runs', '--verify'], { home });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/the chain is whole: 3 chained records/);
  });

  it('[T-SELF-3] held past the bound: the run is still written, marked unlocked, counted gave_up; serve /metrics shows journal_lock_waits_total', async () => {
    const { home, dir } = journalOf(1);
    const holder = await holdLock(dir);
    const writer = start(WRITER, [dir, '1']);
    expect((await writer.exit).code).toBe(0);
    expect(writer.stdout()).toContain('waiting');
    expect(writer.stderr()).toMatch(/append\.lock was held for more than 1 ms: runs appended without it/);
    expect(readFileSync(segmentFile(dir, 1), 'utf8')).toMatch(/"hook":"late".*"unlocked":true,"prev"/);
    expect(readLockWaits(dir)).toEqual({ waited: 0, gave_up: 1 });
    // A second writer that waits for the lock, then takes it.
    const patient = start(WRITER, [dir, '600000']);
    await waitFor(() => patient.stdout().includes('waiting'), 'the second writer to wait', 20_000);
    holder.child.stdin?.write('release\n');
    expect((await patient.exit).code).toBe(0);
    expect(readLockWaits(dir)).toEqual({ waited: 1, gave_up: 1 });
    expect((await runCli(['runs', '--verify'], { home })).code).toBe(0);

    await withServe(home, async (port, token) => {
      const metrics = await request(port, 'GET', '/metrics', token);
      expect(metrics.status).toBe(200);
      expect(sample(metrics.text, 'journal_lock_waits_total{result="waited"}')).toBe(1);
      expect(sample(metrics.text, 'journal_lock_waits_total{result="gave_up"}')).toBe(1);
    });
  });

  it('[T-SELF-3] without listing the folder: a segment planted two numbers up keeps no run from the head’s segment, and --verify names its lines', async () => {
    const { home, dir } = journalOf(2);
    const planted = segmentFile(dir, 3);
    writeFileSync(
      planted,
      `${JSON.stringify({ hook: 'forged', at: new Date().toISOString(), agent: 'claude' })}\n`,
    );
    const journal = new RunJournal(dir);
    journal.append([journalRun('h3')]);
    // The run went on in the head's segment, chained; the planted file is as it was.
    expect(readFileSync(segmentFile(dir, 1), 'utf8')).toContain('"hook":"h3"');
    expect(readFileSync(planted, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    const r = await runCli(['runs', '--verify'], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('broken at runs-000000000003.jsonl:1: inserted\n');
  });

  it('[T-SELF-3] a lock link left by a holder that died is broken at once, and the append chains on', async () => {
    const { home, dir } = journalOf(2);
    const dead = spawn(process.execPath, ['-e', '']);
    const pid = dead.pid ?? 0;
    await new Promise((r) => dead.on('close', r));
    symlinkSync(`${pid}.1`, path.join(dir, 'append.lock'));
    const notes = new RunJournal(dir, { lock: { waitMs: 600_000, staleMs: 600_000 } }).append([
      journalRun('after'),
    ]);
    expect(notes).toEqual([]);
    expect(existsSync(path.join(dir, 'append.lock'))).toBe(false);
    expect((await runCli(['runs', '--verify'], { home })).code).toBe(0);
  });
});
