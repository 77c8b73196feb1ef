/**
 * [G-PERF-1][R-HOOK-4] The C client's cold fallback from a V8 startup snapshot: real processes of
 * the C client (dist/native/hookwerk-hook), with no daemon. A blob built for a home
 * (dist/hook/snapshot-build-main.js, what the fallback through bin/hookwerk.js starts in the
 * background) gives the same answers and journal records as the cold bundle, for each layer and for
 * a policy that does not load; a stamp that no longer fits, a blob that does not start, and files
 * someone else could write are not used, and the call is still answered right.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityLine } from '../src/hook/snapshot-blob.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { cleanEnv, REPO, runProgram } from './cli-runner.ts';
import { waitFor } from './helpers.ts';
import { LAYERED_POLICY } from './layered-policy.ts';

const CLIENT = path.join(REPO, 'dist', 'native', 'hookwerk-hook');
const BUILD_MAIN = path.join(REPO, 'dist', 'hook', 'snapshot-build-main.js');
const NOTE = 'hookwerk: answered from the startup snapshot\n';

/** A permission's deny, a guard's deny, a CEL rule's deny and ask, an allow, no objection. */
const COMMANDS = [
  'git push --force origin main',
  'rm -fr ~',
  'shred -u notes.txt',
  'curl -s https://example.com',
  'npm test',
  'cd src && ls -la | grep ts',
];

// One home for the file (its blob takes seconds to build), removed after all (tempDir's go after each test).
const dir = mkdtempSync(path.join(tmpdir(), 'hw-snapshot-'));
const home = path.join(dir, 'home');
const project = path.join(dir, 'project');
const cache = path.join(home, '.hookwerk', 'cache');
const stamp = path.join(cache, 'hook-snapshot.stamp');
const policyFile = path.join(home, '.hookwerk', 'policy.json');

const bash = (command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-snapshot',
    cwd: project,
    tool_name: 'Bash',
    tool_input: { command },
  });

interface Reply {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** One call of the C client, no daemon; `snapshot`: `note` (use it, and say so) or `off`. */
async function call(
  input: string,
  snapshot: 'note' | 'off',
  extra: Record<string, string> = {},
): Promise<Reply> {
  const env = cleanEnv({ HOME: home, HOOKWERK_DAEMON_SOCKET: '', HOOKWERK_SNAPSHOT: snapshot, ...extra });
  const r = await runProgram(CLIENT, ['--agent', 'claude'], { env, cwd: project, stdin: { text: input } });
  return { stdout: r.stdout, stderr: r.stderr, code: r.code };
}

/** The journal's entries from `from` on, without what differs from call to call (times). */
function records(from = 0): unknown[] {
  const entries = new RunJournal(journalDir(home)).read({}).entries.slice(from);
  return entries.map((e) =>
    Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'at' && k !== 'durationMs')),
  );
}

function blobs(): string[] {
  return readdirSync(cache).filter((n) => n.startsWith('hook-snapshot-') && n.endsWith('.blob'));
}

async function build(): Promise<unknown> {
  const r = await runProgram(process.execPath, [BUILD_MAIN, home], { env: cleanEnv(), cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A background build started by a fallback has ended: a new stamp, `ok`, and no lock. */
async function builtAgain(before: string | undefined): Promise<void> {
  await waitFor(
    () => {
      if (!existsSync(stamp) || existsSync(path.join(cache, 'hook-snapshot.lock'))) return false;
      const text = readFileSync(stamp, 'utf8');
      return text !== before && text.startsWith('hookwerk-snapshot 1 ok\n');
    },
    'the background build to end',
    120_000,
  );
}

beforeAll(async () => {
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(policyFile, JSON.stringify(LAYERED_POLICY));
  expect(await build()).toMatchObject({ kind: 'built' });
}, 180_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('[G-PERF-1] the cold path from a startup snapshot (C client)', () => {
  it('is built into the home cache: a 0700 folder, a 0600 blob and a stamp naming node, bundle and blob', () => {
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const [blob] = blobs();
    expect(blob).toBeDefined();
    expect(statSync(path.join(cache, blob ?? '')).mode & 0o777).toBe(0o600);
    expect(statSync(stamp).mode & 0o777).toBe(0o600);
    const lines = readFileSync(stamp, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('hookwerk-snapshot 1 ok');
    expect(lines[1]).toMatch(/^node \d+ \d+ \d+ \d+ \d+\t\//);
    expect(lines[2]).toContain('\t' + path.join(REPO, 'dist', 'cli', 'hook-snapshot.cjs'));
    expect(lines[3]).toBe(identityLine('blob', path.join(cache, blob ?? '')));
  });

  it('answers and records each layer as the cold bundle does: deny, guard, CEL rules, allow, no objection', async () => {
    const viaBundle: Reply[] = [];
    for (const command of COMMANDS) viaBundle.push(await call(bash(command), 'off'));
    const bundleRecords = records();
    expect(bundleRecords.length).toBeGreaterThan(COMMANDS.length);
    for (const [i, command] of COMMANDS.entries()) {
      const r = await call(bash(command), 'note');
      expect(r.stderr.endsWith(NOTE), r.stderr).toBe(true);
      expect({ ...r, stderr: r.stderr.slice(0, -NOTE.length) }).toEqual(viaBundle[i]);
    }
    expect(records(bundleRecords.length)).toEqual(bundleRecords);
    const answers = viaBundle.map((r) => r.stdout);
    expect(answers[0]).toContain('permissions.deny: Bash(git push --force *)');
    expect(answers[1]).toContain('"permissionDecision":"deny"');
    expect(answers[2]).toContain('no shredding');
    expect(answers[3]).toContain('network?');
    expect(answers[4]).toContain('"permissionDecision":"allow"');
    expect(answers[5]).toBe('');
    // Neither path changed the blob or its stamp.
    expect(blobs()).toHaveLength(1);
  }, 120_000);

  it('a policy that does not load: a closed guard denies with the cause, as through the bundle [R-HOOK-2]', async () => {
    const broken = {
      permissions: { deny: 'not a list' },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', failMode: 'closed' }] }],
      },
    };
    writeFileSync(policyFile, JSON.stringify(broken));
    try {
      const input = bash('ls');
      const viaBundle = await call(input, 'off');
      expect(JSON.parse(viaBundle.stdout)).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny' },
      });
      const r = await call(input, 'note');
      expect(r.stderr.endsWith(NOTE)).toBe(true);
      expect({ ...r, stderr: r.stderr.slice(0, -NOTE.length) }).toEqual(viaBundle);
    } finally {
      writeFileSync(policyFile, JSON.stringify(LAYERED_POLICY));
    }
  }, 60_000);

  it('the home policy’s CEL rules, compiled into the blob, never stand for an edited policy: the call follows the file', async () => {
    const edited = structuredClone(LAYERED_POLICY);
    const [first] = edited.hooks.PreToolUse[0]?.hooks ?? [];
    if (first === undefined) throw new Error('LAYERED_POLICY has no rule');
    first.when = 'input.command.contains("wipefs")';
    first.reason = 'no wiping';
    writeFileSync(policyFile, JSON.stringify(edited));
    try {
      for (const [command, says] of [
        ['shred -u notes.txt', undefined],
        ['wipefs -a disk.img', 'no wiping'],
      ] as const) {
        const viaBundle = await call(bash(command), 'off');
        const r = await call(bash(command), 'note');
        expect(r.stderr.endsWith(NOTE), r.stderr).toBe(true);
        expect({ ...r, stderr: r.stderr.slice(0, -NOTE.length) }).toEqual(viaBundle);
        expect(r.stdout).not.toContain('no shredding');
        if (says !== undefined) expect(r.stdout).toContain(says);
      }
    } finally {
      writeFileSync(policyFile, JSON.stringify(LAYERED_POLICY));
    }
  }, 60_000);

  it('files someone else could write are not used (a 0644 blob, a 0755 folder): the bundle answers', async () => {
    const [blob] = blobs();
    const file = path.join(cache, blob ?? '');
    const input = bash('git push --force origin main');
    const expected = await call(input, 'off');
    chmodSync(file, 0o644);
    try {
      expect(await call(input, 'note')).toEqual(expected);
    } finally {
      chmodSync(file, 0o600);
    }
    chmodSync(cache, 0o755);
    try {
      expect(await call(input, 'note')).toEqual(expected);
    } finally {
      chmodSync(cache, 0o700);
    }
    // Ours again: used again.
    expect((await call(input, 'note')).stderr.endsWith(NOTE)).toBe(true);
  }, 60_000);

  it('a call with NODE_OPTIONS (V8 flags a blob does not hold) is not started from it; the blob stays', async () => {
    const input = bash('curl -s https://example.com');
    const options = { NODE_OPTIONS: '--max-old-space-size=512' };
    const expected = await call(input, 'off', options);
    expect(await call(input, 'note', options)).toEqual(expected);
    expect(readFileSync(stamp, 'utf8').startsWith('hookwerk-snapshot 1 ok')).toBe(true);
    expect((await call(input, 'note')).stderr.endsWith(NOTE)).toBe(true);
  }, 60_000);

  it('a stamp of another node is not used; the fallback through bin/hookwerk.js builds a new blob in the background', async () => {
    const input = bash('shred -u notes.txt');
    const expected = await call(input, 'off');
    const lines = readFileSync(stamp, 'utf8').split('\n');
    // Another node binary at the same path: a different inode.
    lines[1] = (lines[1] ?? '').replace(
      /^node (\d+) (\d+)/,
      (_, dev, ino) => `node ${dev} ${Number(ino) + 1}`,
    );
    const stale = lines.join('\n');
    writeFileSync(stamp, stale, { mode: 0o600 });
    const r = await call(input, 'note');
    expect(r).toEqual(expected);
    await builtAgain(stale);
    expect((await call(input, 'note')).stderr.endsWith(NOTE)).toBe(true);
  }, 180_000);

  it('a blob that does not start (damaged, its stamp made to fit) costs one retry through the bundle: the same answer, no crash text, the stamp dropped and rebuilt', async () => {
    const input = bash('git push --force origin main');
    const expected = await call(input, 'off');
    const [blob] = blobs();
    const file = path.join(cache, blob ?? '');
    const size = statSync(file).size;
    // Half of it: node dies of it (a signal), it does not refuse it.
    writeFileSync(file, readFileSync(file).subarray(0, Math.floor(size / 2)), { mode: 0o600 });
    const lines = readFileSync(stamp, 'utf8').split('\n');
    lines[3] = identityLine('blob', file);
    writeFileSync(stamp, lines.join('\n'), { mode: 0o600 });
    const r = await call(input, 'note');
    expect(r).toEqual(expected);
    expect(existsSync(stamp)).toBe(false);
    await builtAgain(undefined);
    expect((await call(input, 'note')).stderr.endsWith(NOTE)).toBe(true);
  }, 180_000);
});
