/**
 * [T-SELF-3] [R-HOOK-3] A journal with hostile files in it (issue 28, item 8): a FIFO (the agent
 * can make one), a symbolic link to /dev/zero (a cloned repo can ship one), a directory, a socket
 * or a huge file where a segment should be, and a records folder that is a FIFO or a link. Each
 * is skipped with one line, never opened; appends go to the next segment; and the real
 * `hookwerk hook`, `hookwerk daemon`, `hookwerk runs` and `hookwerk serve` keep answering. Real
 * FIFOs (mkfifo), real processes; the time limits below only turn a hang into a failure.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isHookwerkError } from '../src/core/errors.ts';
import { type JournalEntry, journalDir, RunJournal } from '../src/index.ts';
import { segmentFile } from '../src/records/journal-segments.ts';
import { startCli } from './cli-process.ts';
import { BIN, cleanEnv, REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { request, startServe } from './serve-process.ts';

/** Only a failure guard: a process or request that hangs fails its test instead of the suite. */
const HANG_GUARD_MS = 20_000;

type Hostile = 'FIFO' | '/dev/zero link' | 'directory';
const HOSTILE: readonly Hostile[] = ['FIFO', '/dev/zero link', 'directory'];
const WHAT: Record<Hostile, RegExp> = {
  FIFO: /is a FIFO, not a regular file/,
  '/dev/zero link': /is a symbolic link, not a regular file/,
  directory: /is a directory, not a regular file/,
};

function plant(file: string, kind: Hostile): void {
  if (kind === 'FIFO') execFileSync('mkfifo', [file]);
  else if (kind === '/dev/zero link') symlinkSync('/dev/zero', file);
  else mkdirSync(file);
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A listening Unix socket at `file` (closed after the test). */
function socketAt(file: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
}

function entry(i: number, over: Partial<JournalEntry> = {}): JournalEntry {
  return {
    hook: `guard-${i}`,
    source: '/p/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    dialect: 'claude',
    outcome: 'ok',
    durationMs: 1,
    at: new Date(Date.UTC(2026, 11, 1, 10, 0, i)).toISOString(),
    agent: 'claude',
    toolName: 'Bash',
    ...over,
  };
}

const segmentNames = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^runs-\d+\.jsonl$/.test(f))
    .sort();
const isRegular = (file: string) => existsSync(file) && lstatSync(file).isFile();

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'records', 'journal-files.js')))
    throw new Error('dist/ is missing or stale: run `npm run build` first');
});

describe('[T-SELF-3] RunJournal: a segment that is not a regular file', () => {
  it.each([
    ['/dev/zero link', /is a symbolic link, not a regular file/],
    ['directory', /is a directory, not a regular file/],
    ['socket', /is a socket, not a regular file/],
  ] as const)(
    '[T-SELF-3] a %s as the newest segment: append goes to the next number with one line, read skips it with one line',
    async (kind, what) => {
      const dir = journalDir(tempDir('hw-hostile-'));
      const journal = new RunJournal(dir);
      expect(journal.append([entry(1)])).toEqual([]);
      const bad = segmentFile(dir, 2);
      if (kind === 'socket') await socketAt(bad);
      else plant(bad, kind);

      const notes = journal.append([entry(2)]);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(bad);
      expect(notes[0]).toMatch(what);
      expect(notes[0]).toMatch(/skipped, not opened; runs go to the next segment$/);
      expect(isRegular(segmentFile(dir, 3))).toBe(true);
      // The next append finds a regular newest segment: nothing more to say.
      expect(journal.append([entry(3)])).toEqual([]);

      const read = journal.read();
      expect(read.entries.map((e) => e.hook)).toEqual(['guard-3', 'guard-2', 'guard-1']);
      expect(read.refused).toHaveLength(1);
      expect(read.refused[0]).toContain(bad);
      expect(read.refused[0]).toMatch(what);
      expect(read.skipped).toBe(0);
    },
  );

  it('[T-SELF-3] a segment larger than the whole journal bound is skipped unread, with one line; the others are read', () => {
    const dir = journalDir(tempDir('hw-hostile-'));
    const journal = new RunJournal(dir, { maxBytes: 64 * 1024, segmentBytes: 16 * 1024 });
    journal.append([entry(1)]);
    // A sparse file past the bound, then a good segment after it.
    writeFileSync(segmentFile(dir, 2), '');
    truncateSync(segmentFile(dir, 2), 1024 * 1024);
    writeFileSync(segmentFile(dir, 3), `${JSON.stringify(entry(3))}\n`);
    const read = journal.read();
    expect(read.entries.map((e) => e.hook)).toEqual(['guard-3', 'guard-1']);
    expect(read.refused).toEqual([
      `journal segment ${segmentFile(dir, 2)} is 1048576 bytes, more than the whole journal's bound (65536): skipped, not opened`,
    ]);
    expect(read.skipped).toBe(0);
  });

  it('[T-SELF-3] segments past the bound in total are not read: a reader never reads more than the journal may hold', () => {
    const dir = journalDir(tempDir('hw-hostile-'));
    const journal = new RunJournal(dir, { maxBytes: 64 * 1024, segmentBytes: 16 * 1024 });
    journal.append([entry(1)]);
    // Ten sparse 60 KiB segments above it: each under the bound, together far past it.
    for (let seq = 2; seq <= 11; seq++) {
      writeFileSync(segmentFile(dir, seq), '');
      truncateSync(segmentFile(dir, seq), 60 * 1024);
    }
    // The bound plus one segment is 80 KiB: the newest (60 KiB) is read, the one before is past it.
    const read = journal.read();
    expect(read.entries).toEqual([]);
    expect(read.refused).toEqual([
      `journal segments up to ${segmentFile(dir, 10)} lie past the journal's bound: not read`,
    ]);
  });

  it('[T-SELF-3] only regular segments are pruned at the bound: a directory under a segment name stays, uncounted', () => {
    const dir = journalDir(tempDir('hw-hostile-'));
    const journal = new RunJournal(dir, { maxBytes: 4 * 1024, segmentBytes: 1024 });
    journal.append([entry(1)]);
    mkdirSync(segmentFile(dir, 2));
    const big = 'x'.repeat(700);
    for (let i = 3; i < 30; i++) journal.append([entry(i, { reason: big })]);
    const names = segmentNames(dir);
    expect(names).toContain(path.basename(segmentFile(dir, 2)));
    expect(isRegular(segmentFile(dir, 1))).toBe(false);
    expect(journal.read().refused).toHaveLength(1);
  });
});

describe('[T-SELF-3] the records folder itself', () => {
  it.each(['FIFO', 'link to a folder'] as const)(
    '[T-SELF-3] a records folder that is a %s: append refuses with code JOURNAL naming it, read says so in one line',
    (kind) => {
      const home = tempDir('hw-hostile-');
      const dir = journalDir(home);
      mkdirSync(path.dirname(dir), { recursive: true });
      if (kind === 'FIFO') execFileSync('mkfifo', [dir]);
      else {
        const elsewhere = tempDir('hw-elsewhere-');
        symlinkSync(elsewhere, dir);
      }
      const journal = new RunJournal(dir);
      let thrown: unknown;
      try {
        journal.append([entry(1)]);
      } catch (err) {
        thrown = err;
      }
      expect(isHookwerkError(thrown) && thrown.code === 'JOURNAL').toBe(true);
      const what = kind === 'FIFO' ? 'a FIFO' : 'a symbolic link';
      expect(thrown instanceof Error ? thrown.message : '').toBe(
        `the journal folder ${dir} is ${what}, not a folder`,
      );
      expect(journal.read()).toEqual({
        entries: [],
        skipped: 0,
        droppedSegments: 0,
        refused: [`the journal folder ${dir} is ${what}, not a folder: not read`],
      });
    },
  );
});

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
  hung: boolean;
}

/** `node bin/hookwerk.js …args`; killed (and `hung`) should it not end within the guard. */
function runGuarded(args: string[], env: NodeJS.ProcessEnv, cwd: string, stdin?: string): Promise<Done> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
      env,
      cwd,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const guard = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HANG_GUARD_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, hung });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** `promise`, or a rejection naming `what` once the guard passed (a hang fails the test). */
function guarded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer (hung)`)), HANG_GUARD_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

interface Home {
  home: string;
  dir: string;
  project: string;
}

/** A home whose policy denies every Bash call with `rm -rf` (exit 2), and a journal of one segment. */
function homeWithGuard(): Home {
  const root = tempDir('hw-hostile-cli-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(project, { recursive: true });
  const policy = path.join(home, '.hookwerk', 'policy.json');
  mkdirSync(path.dirname(policy), { recursive: true });
  const command = `case "$(cat)" in *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;; esac; exit 0`;
  writeFileSync(
    policy,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }),
  );
  const dir = journalDir(home);
  new RunJournal(dir).append([entry(1)]);
  return { home, dir, project };
}

const bashCall = (project: string, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-hostile',
    cwd: project,
    tool_name: 'Bash',
    tool_input: { command },
  });

/** The events of the entries in segment `seq`. */
function eventsIn(dir: string, seq: number): string[] {
  return readFileSync(segmentFile(dir, seq), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).event);
}

describe('[T-SELF-3] the real processes, with a hostile newest segment', () => {
  it.each(HOSTILE)(
    '[T-SELF-3] [R-HOOK-2] hookwerk hook, a %s as the newest segment: the deny comes back, recorded in a new segment, one stderr line',
    async (kind) => {
      const h = homeWithGuard();
      const bad = segmentFile(h.dir, 2);
      plant(bad, kind);
      const env = cleanEnv({ HOME: h.home, HOOKWERK_DAEMON_SOCKET: path.join(h.home, 'no-daemon.sock') });
      const r = await runGuarded(
        ['hook', '--agent', 'claude'],
        env,
        h.project,
        bashCall(h.project, 'rm -rf build'),
      );
      expect(r.hung).toBe(false);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('"permissionDecision":"deny"');
      expect(r.stdout).toContain('rm -rf is not allowed here');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(bad);
      expect(lines[0]).toMatch(WHAT[kind]);
      expect(eventsIn(h.dir, 3)).toEqual(['PreToolUse']);
    },
  );

  it('[T-SELF-3] [R-HOOK-4] hookwerk daemon, a FIFO as the newest segment: the call through it answers and is recorded; then a second project’s call with another FIFO too', async () => {
    const h = homeWithGuard();
    const second = path.join(path.dirname(h.project), 'second');
    mkdirSync(second);
    const socket = path.join(path.dirname(h.home), 'd.sock');
    const daemon = startCli(['daemon', '--socket', socket], { home: h.home });
    await daemon.waitForOutput(/^ready$/m);
    const env = cleanEnv({ HOME: h.home, HOOKWERK_DAEMON_SOCKET: socket });
    plant(segmentFile(h.dir, 2), 'FIFO');
    const first = await runGuarded(
      ['hook', '--agent', 'claude'],
      env,
      h.project,
      bashCall(h.project, 'rm -rf a'),
    );
    expect(first.hung).toBe(false);
    expect(first.stdout).toContain('"permissionDecision":"deny"');
    expect(eventsIn(h.dir, 3)).toEqual(['PreToolUse']);
    // The daemon wrote the journal (its log says so), not a fallback in the client.
    await daemon.waitForOutput(/journal segment \S+runs-000000000002\.jsonl is a FIFO/);

    plant(segmentFile(h.dir, 4), 'FIFO');
    const other = await runGuarded(['hook', '--agent', 'claude'], env, second, bashCall(second, 'rm -rf b'));
    expect(other.hung).toBe(false);
    expect(other.stdout).toContain('"permissionDecision":"deny"');
    expect(eventsIn(h.dir, 5)).toEqual(['PreToolUse']);
    await daemon.waitForOutput(/journal segment \S+runs-000000000004\.jsonl is a FIFO/);
    expect(first.stderr + other.stderr).toBe('');
    expect(await daemon.stop('SIGTERM')).toBe(0);
  });

  it('[T-SELF-3] hookwerk runs: a FIFO, a /dev/zero link and a directory among the segments: the good runs listed, one stderr line each, exit 0', async () => {
    const h = homeWithGuard();
    plant(segmentFile(h.dir, 2), 'FIFO');
    plant(segmentFile(h.dir, 3), '/dev/zero link');
    plant(segmentFile(h.dir, 4), 'directory');
    writeFileSync(segmentFile(h.dir, 5), `${JSON.stringify(entry(5))}\n`);
    writeFileSync(segmentFile(h.dir, 6), `${JSON.stringify(entry(6))}\n`);
    const env = cleanEnv({ HOME: h.home });
    const r = await runGuarded(['runs', '--json'], env, h.project);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).hook),
    ).toEqual(['guard-6', 'guard-5', 'guard-1']);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const [i, kind] of HOSTILE.entries()) {
      // Newest first: the directory (4), the link (3), the FIFO (2).
      const line = lines[HOSTILE.length - 1 - i] ?? '';
      expect(line.startsWith(`hookwerk runs: journal segment ${segmentFile(h.dir, i + 2)} `)).toBe(true);
      expect(line).toMatch(WHAT[kind]);
    }
  });

  it('[T-SELF-3] hookwerk serve, a FIFO as the newest segment: /api/agent-runs and /healthz answer, the FIFO counted and logged once', async () => {
    const h = homeWithGuard();
    plant(segmentFile(h.dir, 2), 'FIFO');
    const workspace = tempDir('hw-hostile-ws-');
    const s = await startServe(['--workspace', workspace, '--port', '0'], cleanEnv({ HOME: h.home }));
    const token = readFileSync(path.join(workspace, '.hookwerk', 'token'), 'utf8').trim();
    for (let i = 0; i < 2; i++) {
      const runs = await guarded(request(s.port, 'GET', '/api/agent-runs', token), '/api/agent-runs');
      expect(runs.status).toBe(200);
      expect(JSON.parse(runs.text)).toMatchObject({ runs: [{ hook: 'guard-1' }], unreadFiles: 1 });
      const health = await guarded(request(s.port, 'GET', '/healthz', token), '/healthz');
      expect(health.status).toBe(200);
    }
    const logged = s
      .stderr()
      .split('\n')
      .filter((l) => l.includes('runs-000000000002.jsonl'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/is a FIFO, not a regular file: skipped, not opened$/);
    expect(await s.stop()).toEqual({ code: 0, signal: null });
  });
});
