/**
 * [G-FAIL-4] `hookwerk hook --timeout S` answers before the agent's timeout: a `failMode: "closed"`
 * guard still running S − 2 s in is stopped and the answer is deny ("timed out"); an open one is
 * stopped and gives no opinion. Real guards that sleep (one ignores SIGTERM), real `hookwerk hook`
 * processes — cold, through a real `hookwerk daemon` (the Node client and the C client), and the
 * C client falling back to deciding itself. No timing is asserted beyond "the answer came".
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookReply } from '../src/dialects/agent/hook-agent.ts';
import { startCli } from './cli-process.ts';
import { BIN, cleanEnv, REPO, runProgram } from './cli-runner.ts';
import { processAlive, tempDir, writeScript } from './helpers.ts';

const NATIVE = path.join(REPO, 'dist', 'native', 'hookwerk-hook');
const CLIENTS: readonly Client[] = existsSync(NATIVE) ? ['c', 'node'] : ['node'];
type Client = 'c' | 'node';
// 8 s: the answer is due 6 s in, room for a cold engine's start on a heavily loaded machine.
const ARGS = ['--agent', 'claude', '--timeout', '8'];

interface World {
  dir: string;
  home: string;
  project: string;
  socket: string;
  pids: string;
}

/** A policy: Bash has a closed guard that ignores SIGTERM and sleeps; WebFetch an open one that sleeps (a tool self-protect, on by default, does not look at: its failures stay open). */
function world(): World {
  const dir = tempDir('hw-hook-timeout-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(project);
  const pids = path.join(dir, 'pids');
  const closed = writeScript(dir, 'closed.sh', `echo $$ >> '${pids}'\ntrap '' TERM\nsleep 30`);
  const open = writeScript(dir, 'open.sh', `echo $$ >> '${pids}'\nsleep 30`);
  const group = (matcher: string, command: string, extra: object = {}) => ({
    matcher,
    hooks: [{ type: 'command', command, ...extra }],
  });
  writeFileSync(
    path.join(home, '.hookwerk', 'policy.json'),
    JSON.stringify({
      hooks: { PreToolUse: [group('Bash', closed, { failMode: 'closed' }), group('WebFetch', open)] },
    }),
  );
  return { dir, home, project, socket: path.join(dir, 'd.sock'), pids };
}

const call = (w: World, tool: 'Bash' | 'WebFetch') =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-timeout',
    cwd: w.project,
    tool_name: tool,
    tool_input: tool === 'Bash' ? { command: 'rm -rf build' } : { url: 'https://example.com/', prompt: 'a' },
  });

/** Runs `hookwerk hook` (the Node command, or the C client) with `input` on stdin. */
async function runHook(client: Client, w: World, input: string, socket = w.socket): Promise<HookReply> {
  const [cmd, args] = client === 'c' ? [NATIVE, ARGS] : [process.execPath, [BIN, 'hook', ...ARGS]];
  const env = cleanEnv({ HOME: w.home, HOOKWERK_DAEMON_SOCKET: socket });
  const r = await runProgram(cmd, args, { env, cwd: w.project, stdin: { text: input } });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code ?? -1 };
}

/** The closed guard's answer: Claude Code's deny, with the timeout as the reason. */
function expectTimedOutDeny(reply: HookReply): void {
  expect(reply.exitCode, reply.stderr).toBe(0);
  const answer: unknown = JSON.parse(reply.stdout);
  expect(answer).toMatchObject({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
  });
  expect(reply.stdout).toContain('timed out');
}

/** The open guard's: no objection, which for Claude Code is empty stdout and exit 0 [R-HOOK-2]. */
function expectNoObjection(reply: HookReply): void {
  expect({ exitCode: reply.exitCode, stdout: reply.stdout }, reply.stderr).toEqual({
    exitCode: 0,
    stdout: '',
  });
}

/** Every guard process started is gone once its answer came: nothing sleeps on. */
function expectGuardsGone(w: World): void {
  const pids = readFileSync(w.pids, 'utf8').trim().split('\n').map(Number);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) expect(processAlive(pid), `guard ${pid}`).toBe(false);
}

/** The journal holds the runs that were cut: outcome timeout, the closed one failed closed [R-HOOK-3]. */
function journalText(w: World): string {
  const dir = path.join(w.home, '.hookwerk', 'records');
  return readdirSync(dir)
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('');
}

describe('[G-FAIL-4] hookwerk hook --timeout S answers before S − 2 s', () => {
  it('cold: a closed guard still running is stopped and denies ("timed out"); an open one gives no opinion', async () => {
    const w = world();
    const none = path.join(w.dir, 'no-daemon.sock');
    const [closed, open] = await Promise.all([
      runHook('node', w, call(w, 'Bash'), none),
      runHook('node', w, call(w, 'WebFetch'), none),
    ]);
    expectTimedOutDeny(closed);
    expectNoObjection(open);
    expectGuardsGone(w);
    const journal = journalText(w);
    expect(journal).toMatch(/"outcome":"timeout"[^\n]*"failed":"closed"/);
    expect(journal).toMatch(/"outcome":"timeout"[^\n]*"failed":"open"/);
  });

  it(`through a real daemon (${CLIENTS.join(' and ')} client): --timeout reaches it, same answers`, async () => {
    const w = world();
    const daemon = startCli(['daemon', '--socket', w.socket], { home: w.home });
    await daemon.waitForOutput(/^ready$/m);
    const replies = await Promise.all(
      CLIENTS.flatMap((client) => [
        runHook(client, w, call(w, 'Bash')),
        runHook(client, w, call(w, 'WebFetch')),
      ]),
    );
    for (let i = 0; i < replies.length; i += 2) {
      const [closed, open] = [replies[i], replies[i + 1]];
      if (closed === undefined || open === undefined) throw new Error('a reply is missing');
      expectTimedOutDeny(closed);
      expectNoObjection(open);
    }
    expectGuardsGone(w);
    expect(await daemon.stop('SIGTERM')).toBe(0);
  });

  it.runIf(CLIENTS.includes('c'))(
    'the C client without a daemon decides in its own process, within the same timeout',
    async () => {
      const w = world();
      const [closed, open] = await Promise.all([
        runHook('c', w, call(w, 'Bash'), path.join(w.dir, 'no-daemon.sock')),
        runHook('c', w, call(w, 'WebFetch'), path.join(w.dir, 'no-daemon.sock')),
      ]);
      expectTimedOutDeny(closed);
      expectNoObjection(open);
      expectGuardsGone(w);
    },
  );

  it('a --timeout that is not a number of seconds is refused in one line (exit 1)', async () => {
    const w = world();
    const reply = await new Promise<HookReply>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'hook', '--agent', 'claude', '--timeout', 'soon'], {
        env: cleanEnv({ HOME: w.home }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      child.on('close', (code) => resolve({ stdout: '', stderr, exitCode: code ?? -1 }));
      child.stdin.end('{}');
    });
    expect(reply.exitCode).toBe(1);
    expect(reply.stderr).toMatch(/^hookwerk hook: --timeout must be a number of seconds above 0/);
  });
});
