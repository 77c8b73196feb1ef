/**
 * The warm path [R-HOOK-4]: `hookwerk daemon` keeps the policy's engines warm on a Unix socket,
 * and the C client (`dist/native/hookwerk-hook`, where `cc` built it) and the Node client
 * (`hookwerk hook` itself) hand their calls to it. Every answer must be the cold path's: the same
 * stdout, stderr and exit code as `hookwerk hook` deciding in its own process — through the
 * daemon, without one, and when the daemon dies mid-call. Real processes, real sockets, real
 * files in temp folders; every wait is for an event (a line, a file, a close), never the clock.
 * The clients believe only a real `hookwerk daemon` of this installation [T-SELF-4]: the calls
 * through a daemon go to one started as a process; a server inside this test process is refused.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerHookArgs } from '../src/cli/hook.ts';
import { projectSession } from '../src/core/project-session.ts';
import type { HookReply } from '../src/dialects/agent/hook-agent.ts';
import { coldDecider, policyEngine } from '../src/hook/cold-decider.ts';
import { askControl } from '../src/hook/daemon-client.ts';
import { DEFAULT_MAX_CONNECTIONS, startDaemonServer } from '../src/hook/daemon-server.ts';
import {
  encodeReply,
  encodeRequest,
  REQUEST_MAGIC,
  replyReader,
  requestReader,
} from '../src/hook/daemon-wire.ts';
import type { PolicyQuestion } from '../src/hook/policy-decider.ts';
import { WarmDecider } from '../src/hook/warm-decider.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { BIN, cleanEnv, REPO, runCli, runProgram, STACK } from './cli-runner.ts';
import { tempDir, waitFor, writeScript } from './helpers.ts';

const NATIVE = path.join(REPO, 'dist', 'native', 'hookwerk-hook');
/** The C client where `npm run build` could build it; the Node client is tested everywhere. */
const CLIENTS: readonly Client[] = existsSync(NATIVE) ? ['c', 'node'] : ['node'];
type Client = 'c' | 'node';
const ARGS = ['--agent', 'claude'];

interface Setup {
  dir: string;
  home: string;
  project: string;
  socket: string;
  policyFile: string;
}

/** A guard, written once as Claude Code hooks: deny, allow, no opinion, or wait for `go`. */
function guardScript(dir: string): string {
  const allow = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'a greeting',
    },
  });
  return writeScript(
    dir,
    'guard.sh',
    [
      'input=$(cat)',
      `printf '%s\\n' "$input" >> '${dir}/inputs.log'`,
      'case "$input" in',
      `  *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;;`,
      `  *'echo hi'*) printf '%s' '${allow}'; exit 0;;`,
      `  *'wait-for-go'*) : > '${dir}/started'; while [ ! -e '${dir}/go' ]; do sleep 0.02; done; echo 'denied after the wait' >&2; exit 2;;`,
      'esac',
      'exit 0',
    ].join('\n'),
  );
}

function writePolicy(file: string, command: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }),
  );
}

function setup(): Setup {
  const dir = tempDir('hw-daemon-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const policyFile = path.join(home, '.hookwerk', 'policy.json');
  writePolicy(policyFile, guardScript(dir));
  return { dir, home, project, socket: path.join(dir, 'd.sock'), policyFile };
}

const bash = (s: Setup, command: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-test',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
    ...extra,
  });
const read = (s: Setup) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: s.project,
    tool_name: 'Read',
    tool_input: { file_path: 'a' },
  });

/** The hook process's environment: a temp HOME, and the socket clients look for. */
function envOf(s: Setup, socket = s.socket): NodeJS.ProcessEnv {
  return cleanEnv({ HOME: s.home, HOOKWERK_DAEMON_SOCKET: socket });
}

/** A real `hookwerk daemon` on the setup's socket, once it printed `ready` (cli-process.ts kills it after the test). */
async function startDaemon(s: Setup, args: readonly string[] = []): Promise<CliProcess> {
  const daemon = startCli(['daemon', '--socket', s.socket, '--idle', '0', ...args], { home: s.home });
  await daemon.waitForOutput(/^ready$/m);
  return daemon;
}

/** The part of `daemon status --json` these tests read. */
const StatusSchema = z.object({ calls: z.number(), engines: z.array(z.object({ project: z.string() })) });

/** What the daemon on `socket` says of itself (`daemon status --json`'s message), or undefined without a reply. */
async function daemonStatus(socket: string): Promise<z.infer<typeof StatusSchema> | undefined> {
  const asked = await askControl(socket, 'status');
  return asked.kind === 'reply' ? StatusSchema.parse(JSON.parse(asked.json)) : undefined;
}

/** The calls a daemon has answered so far. */
async function callsOf(socket: string): Promise<number | undefined> {
  return (await daemonStatus(socket))?.calls;
}

/** Runs a client with `input` on stdin; its stdout, stderr and exit code. */
async function runClient(
  client: Client,
  input: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<HookReply> {
  const [cmd, args] = client === 'c' ? [NATIVE, ARGS] : [process.execPath, [BIN, 'hook', ...ARGS]];
  const r = await runProgram(cmd, args, { env, cwd, stdin: { text: input } });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code ?? -1 };
}

/** What `hookwerk hook` answers deciding in its own process (the reference). */
function cold(s: Setup, input: string, env = envOf(s)): Promise<HookReply> {
  return answerHookArgs(ARGS, { stdin: Buffer.from(input), cwd: s.project, env }, { decider: coldDecider });
}

/** An in-process daemon server (no client believes it [T-SELF-4]), counting the calls it answers. */
interface Served {
  readonly calls: number;
  readonly malformed: readonly string[];
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function serve(
  s: Setup,
  opts: { maxConnections?: number; requestTimeoutMs?: number } = {},
): Promise<Served> {
  const warm = new WarmDecider();
  const malformed: string[] = [];
  const seen = { calls: 0, malformed };
  const server = await startDaemonServer({
    socket: s.socket,
    ...opts,
    handle: (r) => {
      seen.calls++;
      return answerHookArgs(r.args, { stdin: r.stdin, cwd: r.cwd, env: r.env }, { decider: warm });
    },
    onMalformed: (why) => seen.malformed.push(why),
  });
  stops.push(async () => {
    await server.stop(0);
    await warm.close();
  });
  return {
    get calls() {
      return seen.calls;
    },
    malformed: seen.malformed,
  };
}

describe('[R-HOOK-4] the warm path answers exactly as the cold path', () => {
  // One real daemon for the tests that only make calls, each with its own home and project: its
  // calls are counted by difference, its engines by project. Its own home is never asked about.
  // (Its folder is not a tempDir: those go after each test.)
  const sharedDir = mkdtempSync(path.join(tmpdir(), 'hw-daemon-shared-'));
  const sharedSocket = path.join(sharedDir, 'd.sock');
  let shared: CliProcess | undefined;
  beforeAll(async () => {
    shared = startCli(['daemon', '--socket', sharedSocket, '--idle', '0'], { home: sharedDir, shared: true });
    await shared.waitForOutput(/^ready$/m);
  });
  afterAll(async () => {
    expect(await shared?.stop('SIGTERM')).toBe(0);
    rmSync(sharedDir, { recursive: true, force: true });
  });
  /** A fresh home and project whose socket is the shared daemon's. */
  const onShared = (): Setup => ({ ...setup(), socket: sharedSocket });

  for (const client of CLIENTS) {
    it(`${client} client through the daemon: deny, allow, no opinion and no hook, as cold`, async () => {
      const s = onShared();
      const before = await callsOf(s.socket);
      const env = envOf(s);
      const inputs = [bash(s, 'rm -rf /tmp/x'), bash(s, 'echo hi'), bash(s, 'ls -la'), read(s)];
      for (const input of inputs) {
        const warm = await runClient(client, input, env, s.project);
        expect(warm).toEqual(await cold(s, input));
      }
      expect(await callsOf(s.socket)).toBe((before ?? Number.NaN) + inputs.length);
      const [deny, allow] = await Promise.all(inputs.slice(0, 2).map((i) => cold(s, i)));
      expect(deny?.stdout).toContain('"permissionDecision":"deny"');
      expect(deny?.stdout).toContain('rm -rf is not allowed here');
      expect(allow?.stdout).toContain('"permissionDecision":"allow"');
    });

    it(`${client} client, no daemon (no socket, or a stale one): decides in its own process, same answer`, async () => {
      const s = setup();
      const input = bash(s, 'rm -rf /tmp/x');
      const none = await runClient(client, input, envOf(s, path.join(s.dir, 'none.sock')), s.project);
      expect(none).toEqual(await cold(s, input));
      // A socket file nothing listens on (a daemon that was killed): connect fails, cold answers.
      const stale = path.join(s.dir, 'stale.sock');
      await staleSocket(stale);
      expect(await runClient(client, input, envOf(s, stale), s.project)).toEqual(await cold(s, input));
    });
  }

  it('a warm call’s runs go to the journal as a cold call’s do, with agent, session and tool [R-HOOK-3]', async () => {
    const s = onShared();
    const before = await callsOf(s.socket);
    const reply = await runClient(CLIENTS[0] ?? 'node', bash(s, 'rm -rf /tmp/x'), envOf(s), s.project);
    expect(reply.stdout).toContain('"permissionDecision":"deny"');
    expect(await callsOf(s.socket)).toBe((before ?? Number.NaN) + 1);
    const runs = new RunJournal(journalDir(s.home)).read({}).entries;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      agent: 'claude',
      sessionId: 'sess-test',
      toolName: 'Bash',
      event: 'PreToolUse',
    });
  });

  it('a call that names no session gets the project’s, one that names one keeps its own, on one shared engine', async () => {
    const s = onShared();
    const before = await callsOf(s.socket);
    const env = envOf(s);
    const client = CLIENTS[0] ?? 'node';
    await runClient(client, bash(s, 'ls', { session_id: undefined }), env, s.project);
    await runClient(client, bash(s, 'ls', { session_id: 'sess-a' }), env, s.project);
    await runClient(client, bash(s, 'ls', { session_id: 'sess-b' }), env, s.project);
    const sessions = readFileSync(path.join(s.dir, 'inputs.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).session_id);
    expect(sessions).toEqual([projectSession(s.project), 'sess-a', 'sess-b']);
    const status = await daemonStatus(s.socket);
    expect(status?.calls).toBe((before ?? Number.NaN) + 3);
    expect(status?.engines.filter((e) => e.project === s.project)).toHaveLength(1);
  });

  it('a policy file changed (or approved) while the daemon runs: the next call sees it, no restart', async () => {
    const s = onShared();
    const env = envOf(s);
    const client = CLIENTS[0] ?? 'node';
    const ls = bash(s, 'ls');
    expect((await runClient(client, ls, env, s.project)).stdout).toBe('');
    // The same event still has a hook (the pre-scan lets it through): only a reload shows the new one.
    writePolicy(s.policyFile, `echo 'every Bash call is denied now' >&2; exit 2`);
    const now = await runClient(client, ls, env, s.project);
    expect(now.stdout).toContain('every Bash call is denied now');
    expect(now).toEqual(await cold(s, ls));

    // A project policy counts once approved: the trust store is watched too [R-POL-1].
    writePolicy(s.policyFile, guardScript(s.dir));
    writePolicy(path.join(s.project, '.hookwerk', 'policy.json'), `echo 'the project says no' >&2; exit 2`);
    expect((await runClient(client, ls, env, s.project)).stdout).toBe('');
    const trusted = await runCli(['trust', '--yes', '--project', s.project], { home: s.home });
    expect(trusted.code).toBe(0);
    const approved = await runClient(client, ls, env, s.project);
    expect(approved.stdout).toContain('the project says no');
    expect(approved).toEqual(await cold(s, ls));
  });

  it('a malformed request, one over its bounds, or a stalled one is closed with no reply; the daemon goes on (a server in this process is refused by the client [T-SELF-4])', async () => {
    // In this process: the server's bounds are injected (a 200 ms request timeout) and its reasons counted.
    const s = setup();
    const d = await serve(s, { requestTimeoutMs: 200 });
    expect(await rawExchange(s.socket, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))).toEqual({
      bytes: 0,
    });
    const huge = Buffer.alloc(16);
    huge.write(REQUEST_MAGIC, 0, 'latin1');
    huge.writeUInt32LE(1, 4);
    huge.writeUInt32LE(0, 8);
    huge.writeUInt32LE(0xffff_ffff, 12);
    expect(await rawExchange(s.socket, huge)).toEqual({ bytes: 0 });
    const whole = encoded({ args: ARGS, cwd: s.project, env: {}, stdin: Buffer.from(read(s)) });
    const noCwd = encoded({ args: ARGS, cwd: 'relative', env: {}, stdin: Buffer.alloc(0) });
    expect(await rawExchange(s.socket, noCwd)).toEqual({ bytes: 0 });
    expect(await rawExchange(s.socket, whole.subarray(0, 20), { keepOpen: true })).toEqual({ bytes: 0 });
    expect(d.malformed).toEqual([
      'not a hookwerk message',
      'field 1 is 4294967295 bytes, over 65536',
      'cwd is not an absolute path',
      'the request did not arrive in time',
    ]);
    expect(d.calls).toBe(0);
    // It goes on: a whole request still gets its reply.
    expect((await rawExchange(s.socket, whole)).bytes).toBeGreaterThan(0);
    expect(d.calls).toBe(1);
    // A client does not believe this process (it is no `hookwerk daemon`): it decides itself, says so once.
    const input = bash(s, 'rm -rf /tmp/x');
    const reference = await cold(s, input);
    const here = await runClient(CLIENTS[0] ?? 'node', input, envOf(s), s.project);
    expect({ stdout: here.stdout, exitCode: here.exitCode }).toEqual({
      stdout: reference.stdout,
      exitCode: reference.exitCode,
    });
    expect(here.stderr).toBe(
      `${reference.stderr}hookwerk: the daemon socket ${s.socket} was not used (the daemon is not \`hookwerk daemon\` of this installation); this call was decided here [T-SELF-4]\n`,
    );
    expect(d.calls).toBe(1);
  });

  it('stopping: the socket goes at once, a running call finishes within the grace; past it, the client decides itself', async () => {
    const s = setup();
    const client = CLIENTS[0] ?? 'node';
    const input = bash(s, 'wait-for-go');
    const started = path.join(s.dir, 'started');
    const go = path.join(s.dir, 'go');
    const runsLogged = () => readFileSync(path.join(s.dir, 'inputs.log'), 'utf8').trim().split('\n').length;

    const d = await startDaemon(s, ['--shutdown-grace-ms', '60000']);
    const answered = runClient(client, input, envOf(s), s.project);
    await waitFor(() => existsSync(started), 'the guard to run in the daemon');
    d.child.kill('SIGTERM');
    await waitFor(() => !existsSync(s.socket), 'the stopping daemon to remove its socket');
    writeFileSync(go, '');
    expect(await answered).toEqual(await cold(s, input));
    expect((await d.exit).code).toBe(0);
    // The guard ran twice: once in the daemon, once for the reference; the client did not fall back.
    expect(runsLogged()).toBe(2);

    rmSync(go);
    rmSync(started);
    const e = await startDaemon(s, ['--shutdown-grace-ms', '0']);
    const cut = runClient(client, input, envOf(s), s.project);
    await waitFor(() => existsSync(started), 'the guard to run in the daemon');
    rmSync(started);
    e.child.kill('SIGTERM');
    // Cut off unanswered: the client runs the guard itself (it starts again), then answers.
    await waitFor(() => existsSync(started), 'the client to run the guard itself');
    writeFileSync(go, '');
    expect(await cut).toEqual(await cold(s, input));
    expect((await e.exit).code).toBe(0);
  });

  it('past its connection bound the daemon refuses (accepts and closes): the client decides itself', async () => {
    const s = onShared();
    const before = await callsOf(s.socket);
    // Connections that are still sending hold every place (accepted in order, before the client's).
    const holders: Socket[] = [];
    try {
      for (let i = 0; i < DEFAULT_MAX_CONNECTIONS; i++) {
        const holder = connect(s.socket);
        holders.push(holder);
        await new Promise<void>((resolve) => holder.once('connect', () => resolve()));
      }
      for (const client of CLIENTS) {
        const input = bash(s, 'rm -rf /tmp/x');
        expect(await runClient(client, input, envOf(s), s.project)).toEqual(await cold(s, input));
      }
    } finally {
      for (const holder of holders) holder.destroy();
    }
    // The daemon answered none of them (asked once it has seen the holders go: a reply again).
    const after = await waitFor(() => daemonStatus(s.socket), 'the daemon to free its places');
    expect(after?.calls).toBe(before);
  });
});

describe('[R-HOOK-4] the wire protocol', () => {
  /** Feeds `bytes` to `reader` in pieces of `size`; the state after the last. */
  function feed<T>(reader: { push(chunk: Buffer): T }, bytes: Buffer, size: number): T | undefined {
    let state: T | undefined;
    for (let at = 0; at < bytes.length; at += size) state = reader.push(bytes.subarray(at, at + size));
    return state;
  }

  it('a request or reply read in any pieces (down to one byte) is the one written', () => {
    const request = {
      args: ['--agent', 'copilot', '--event', 'preToolUse', 'ünïcödé'],
      cwd: '/tmp/a b',
      env: { HOME: '/h', EMPTY: '', 'WITH=': 'x=y' },
      stdin: Buffer.from('{"toolName":"bash"}\n'),
    };
    const bytes = encoded(request);
    for (const size of [1, 3, 7, bytes.length]) {
      const state = feed(requestReader(), bytes, size);
      // A name cannot hold `=`: `WITH=` = `x=y` reads back as `WITH` = `=x=y`.
      expect(state).toEqual({
        kind: 'done',
        value: { ...request, env: { HOME: '/h', EMPTY: '', WITH: '=x=y' } },
      });
    }
    expect(feed(requestReader(), encoded({ ...request, stdin: undefined }), 5)).toMatchObject({
      kind: 'done',
      value: { stdin: undefined },
    });
    const reply = { exitCode: 2, stdout: Buffer.from('{}\n'), stderr: Buffer.from('blocked\n') };
    for (const size of [1, 5, 100])
      expect(feed(replyReader(), encodeReply(reply), size)).toEqual({ kind: 'done', value: reply });
    // A request the daemon would refuse is not even sent (the Node client decides itself).
    expect(encodeRequest({ ...request, env: { BIG: 'x'.repeat(1024 * 1024) } })).toBeUndefined();
    // A reply cut short (the daemon died mid-write) never reads as one.
    const whole = encodeReply(reply);
    expect(feed(replyReader(), whole.subarray(0, whole.length - 1), 4)).toEqual({ kind: 'more' });
  });
});

describe('[R-HOOK-4] the warm decider: bounded, and closed only when idle', () => {
  /** A decider whose engines say when they are closed. */
  function watched(opts: ConstructorParameters<typeof WarmDecider>[0] = {}) {
    const closed: string[] = [];
    const waiters: Array<() => void> = [];
    const warm = new WarmDecider({
      ...opts,
      makeEngine: async (q, session) => {
        const engine = await policyEngine(q, session);
        const close = engine.close.bind(engine);
        engine.close = async () => {
          await close();
          closed.push(q.projectDir);
          for (const wake of waiters.splice(0)) wake();
        };
        return engine;
      },
    });
    const nextClose = () => new Promise<void>((resolve) => waiters.push(resolve));
    stops.push(() => warm.close());
    return { warm, closed, nextClose };
  }

  function question(s: Setup, projectDir: string, command: string): PolicyQuestion {
    return {
      projectDir,
      home: s.home,
      agent: 'claude',
      env: envOf(s),
      call: {
        agentEvent: 'PreToolUse',
        event: 'PreToolUse',
        input: { hook_event_name: 'PreToolUse', cwd: projectDir, tool_name: 'Bash', tool_input: { command } },
        toolName: 'Bash',
      },
    };
  }

  it('past maxEngines the least recently used is evicted, and closed once its running decide has answered', async () => {
    const s = setup();
    const other = path.join(s.dir, 'other');
    mkdirSync(other);
    const { warm, closed, nextClose } = watched({ maxEngines: 1 });
    const waiting = warm.decide(question(s, s.project, 'wait-for-go'));
    await waitFor(() => existsSync(path.join(s.dir, 'started')), 'the guard to start');
    const second = await warm.decide(question(s, other, 'rm -rf /'));
    expect(second.blocked).toBe(true);
    expect(warm.size).toBe(1);
    // Evicted while busy: still open until its decide ends.
    expect(closed).toEqual([]);
    const closing = nextClose();
    writeFileSync(path.join(s.dir, 'go'), '');
    expect((await waiting).reason).toBe('denied after the wait');
    await closing;
    expect(closed).toEqual([s.project]);
  });

  it('an engine with no call for idleMs is closed (the idle timer fired by the test)', async () => {
    const s = setup();
    const timers: Array<() => void> = [];
    const { warm, closed, nextClose } = watched({
      idleTimer: (fire) => {
        timers.push(fire);
        return {
          cancel: () => {
            if (timers.includes(fire)) timers.splice(timers.indexOf(fire), 1);
          },
        };
      },
    });
    expect((await warm.decide(question(s, s.project, 'rm -rf /'))).blocked).toBe(true);
    expect(timers).toHaveLength(1);
    const closing = nextClose();
    timers[0]?.();
    await closing;
    expect(closed).toEqual([s.project]);
    expect(warm.size).toBe(0);
    // The next call makes a fresh one.
    expect((await warm.decide(question(s, s.project, 'rm -rf /'))).blocked).toBe(true);
    expect(warm.size).toBe(1);
  });
});

describe('[R-HOOK-4] hookwerk daemon, the command', () => {
  it('prints ready; socket 0600 in a 0700 folder; a second daemon refuses; SIGTERM removes the socket', async () => {
    const s = setup();
    const daemon = startCli(['daemon'], { home: s.home, env: { HOOKWERK_DAEMON_SOCKET: '' } });
    await daemon.waitForOutput(/^ready$/m);
    const socket = path.join(s.home, '.hookwerk', 'daemon.sock');
    const st = statSync(socket);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    // The clients find it at the home's default place.
    const env = cleanEnv({ HOME: s.home, HOOKWERK_DAEMON_SOCKET: '' });
    for (const client of CLIENTS) {
      const input = bash(s, 'rm -rf /tmp/x');
      expect(await runClient(client, input, env, s.project)).toEqual(await cold(s, input, env));
    }

    const second = await runCli(['daemon'], { home: s.home, env: { HOOKWERK_DAEMON_SOCKET: '' } });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(`hookwerk: a daemon is already running on ${socket}\n`);
    expect(second.stderr).not.toMatch(STACK);
    expect(existsSync(socket)).toBe(true);

    expect(await daemon.stop('SIGTERM')).toBe(0);
    expect(existsSync(socket)).toBe(false);
  });

  it('a daemon killed mid-call costs a fallback, not the answer; the next daemon replaces its stale socket', async () => {
    const s = setup();
    const env = envOf(s);
    for (const client of CLIENTS) {
      const daemon = startCli(['daemon', '--socket', s.socket], { home: s.home });
      await daemon.waitForOutput(/^ready$/m);
      const input = bash(s, 'wait-for-go');
      const answer = runClient(client, input, env, s.project);
      await waitFor(() => existsSync(path.join(s.dir, 'started')), 'the guard to run in the daemon', 15_000);
      await daemon.stop('SIGKILL');
      expect(statSync(s.socket).isSocket()).toBe(true);
      writeFileSync(path.join(s.dir, 'go'), '');
      const reply = await answer;
      expect(reply).toEqual(await cold(s, input));
      expect(reply.stdout).toContain('denied after the wait');
      rmSync(path.join(s.dir, 'go'));
      rmSync(path.join(s.dir, 'started'));
    }
    // The socket a killed daemon left is stale: a new daemon takes its place.
    const next = startCli(['daemon', '--socket', s.socket], { home: s.home });
    await next.waitForOutput(/^ready$/m);
    const input = bash(s, 'echo hi');
    expect(await runClient(CLIENTS[0] ?? 'node', input, env, s.project)).toEqual(await cold(s, input));
    expect(await next.stop('SIGTERM')).toBe(0);
  });
});

function encoded(request: Parameters<typeof encodeRequest>[0]): Buffer {
  const bytes = encodeRequest(request);
  if (bytes === undefined) throw new Error('the request is over the bounds');
  return bytes;
}

/** Leaves a socket file nothing listens on (as a killed daemon does). */
async function staleSocket(file: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(file)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => child.once('exit', resolve));
  expect(statSync(file).isSocket()).toBe(true);
}

/** Sends `bytes` on a fresh connection; how many bytes came back before the daemon closed it. */
function rawExchange(
  socket: string,
  bytes: Buffer,
  opts: { keepOpen?: boolean } = {},
): Promise<{ bytes: number }> {
  return new Promise((resolve, reject) => {
    const conn = connect(socket);
    let got = 0;
    conn.on('data', (d: Buffer) => {
      got += d.length;
    });
    conn.on('error', reject);
    conn.on('close', () => resolve({ bytes: got }));
    conn.on('connect', () => (opts.keepOpen === true ? conn.write(bytes) : conn.end(bytes)));
  });
}
