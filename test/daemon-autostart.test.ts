/**
 * The warm path by default [G-WARM-1]: a hook call that finds no daemon decides itself and starts
 * one in the background — one at a time, detached from the agent's pipes, logging to a bounded
 * `<home>/.hookwerk/daemon.log`, gone after its idle minutes — and `hookwerk daemon status|stop`
 * see and end it. Real processes, the real C client where `cc` built it, real sockets, temp homes;
 * every daemon a test starts, by hand or through a call, is stopped after it (found through its
 * lock file and its command line), and every wait is for an event.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonCommand } from '../src/cli/daemon.ts';
import { daemonStatusCommand } from '../src/cli/daemon-status.ts';
import { LOCK_STALE_MS, lockPid } from '../src/hook/daemon-lock.ts';
import { boundedLog, DAEMON_LOG_MAX_BYTES } from '../src/hook/daemon-log.ts';
import { encodeControl, encodeRequest, incomingReader } from '../src/hook/daemon-wire.ts';
import { startCli } from './cli-process.ts';
import { BIN, cleanEnv, REPO, runCli, runProgram } from './cli-runner.ts';
import { processAlive, tempDir, waitFor, writeScript } from './helpers.ts';

const NATIVE = path.join(REPO, 'dist', 'native', 'hookwerk-hook');
/** The C client where `npm run build` could build it; the Node client everywhere. */
const CLIENTS: readonly Client[] = existsSync(NATIVE) ? ['c', 'node'] : ['node'];
type Client = 'c' | 'node';
const ARGS = ['--agent', 'claude'];
/** Starting a daemon takes a Node start and more on a busy machine. */
const START_MS = 30_000;
/** Each test starts daemons and clients: room for a machine shared with other work. */
const TEST_MS = 60_000;

interface World {
  dir: string;
  home: string;
  project: string;
  socket: string;
  lock: string;
  log: string;
}

/** The homes of this test: every daemon in them is stopped after it. */
const worlds: World[] = [];

afterEach(async () => {
  for (const w of worlds.splice(0)) await stopEveryDaemon(w);
});

/** A temp home whose policy has one guard (deny `rm -rf`, wait for `go` on `wait-for-go`), a project. */
function world(): World {
  const dir = tempDir('hw-warm-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const guard = writeScript(
    dir,
    'guard.sh',
    [
      'input=$(cat)',
      `printf '%s\\n' "$input" >> '${dir}/inputs.log'`,
      'case "$input" in',
      `  *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;;`,
      `  *'wait-for-go'*) : > '${dir}/started'; while [ ! -e '${dir}/go' ]; do sleep 0.02; done; echo 'denied after the wait' >&2; exit 2;;`,
      'esac',
      'exit 0',
    ].join('\n'),
  );
  const policy = path.join(home, '.hookwerk', 'policy.json');
  mkdirSync(path.dirname(policy), { recursive: true });
  writeFileSync(
    policy,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    }),
  );
  const socket = path.join(home, '.hookwerk', 'daemon.sock');
  const w = {
    dir,
    home,
    project,
    socket,
    lock: `${socket}.lock`,
    log: path.join(home, '.hookwerk', 'daemon.log'),
  };
  worlds.push(w);
  return w;
}

/** The hook process's environment: the temp home, its default socket, starting turned on. */
function envOf(w: World, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({ HOME: w.home, HOOKWERK_DAEMON_SOCKET: '', HOOKWERK_DAEMON: 'on', ...extra });
}

const bash = (w: World, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-warm',
    cwd: w.project,
    tool_name: 'Bash',
    tool_input: { command },
  });
/** An event no policy hook names: the quickest cold call. */
const noHook = (w: World) =>
  JSON.stringify({
    hook_event_name: 'PostToolUse',
    session_id: 'sess-warm',
    cwd: w.project,
    tool_name: 'Read',
    tool_input: { file_path: 'a' },
    tool_response: {},
  });

function clientCommand(client: Client): [string, string[]] {
  return client === 'c' ? [NATIVE, ARGS] : [process.execPath, [BIN, 'hook', ...ARGS]];
}

async function call(client: Client, w: World, input: string, env = envOf(w)) {
  const [cmd, args] = clientCommand(client);
  return runProgram(cmd, args, { env, cwd: w.project, stdin: { text: input } });
}

/** `hookwerk daemon status --json` of the world's home, asked in this process. */
async function status(w: World, env = envOf(w)): Promise<{ code: number; json: Record<string, unknown> }> {
  const lines: string[] = [];
  const code = await daemonStatusCommand({ json: true }, (line) => lines.push(line), env);
  const json: unknown = JSON.parse(lines.join('\n'));
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('status: not an object');
  return { code, json: Object.fromEntries(Object.entries(json)) };
}

/** Waits until a daemon answers on the world's socket; its status. */
async function running(w: World): Promise<Record<string, unknown>> {
  const found = await waitFor(
    async () => {
      const s = await status(w);
      return s.code === 0 ? s.json : undefined;
    },
    `a daemon in ${w.home}`,
    START_MS,
  ).catch((e) => {
    // What a failed start left, for the report.
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '(none)');
    throw new Error(
      `${e}; lock: ${read(w.lock)}; daemons: ${daemonPids(w).join(' ')}; socket: ${existsSync(w.socket)}; log:\n${read(w.log)}`,
    );
  });
  if (found === undefined) throw new Error('no status');
  return found;
}

/** Every process that is a daemon started for this home (its command line names the home's log). */
function daemonPids(w: World): number[] {
  const needle = `\0daemon\0--log\0${w.log}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (`\0${cmdline}`.includes(needle) && processAlive(Number(entry))) pids.push(Number(entry));
  }
  return pids;
}

/** `daemon stop` in the home, then SIGKILL whatever is left (a daemon still starting included). */
async function stopEveryDaemon(w: World): Promise<void> {
  await runCli(['daemon', 'stop'], { env: { HOME: w.home, HOOKWERK_DAEMON_SOCKET: '' } }).catch(() => {});
  const pids = new Set(daemonPids(w));
  const locked = lockPid(w.lock);
  if (locked !== undefined && locked !== process.pid && processAlive(locked)) pids.add(locked);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  await waitFor(() => [...pids].every((pid) => !processAlive(pid)), 'the daemons to end', 10_000);
}

/** `pid (comm) state ppid pgrp session …`: the session of a process. */
function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

/** Leaves a socket file nothing listens on, as a killed daemon does. */
async function staleSocket(file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
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

/**
 * Whether `socket` refuses a connection: nothing holds it any more. A SIGKILLed daemon's main
 * thread turns zombie before its other threads have ended, and until they have, its socket still
 * accepts (and then drops) connections.
 */
function refuses(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', (e) => resolve('code' in e && e.code === 'ECONNREFUSED'));
  });
}

/**
 * Listens on `socket` and drops every connection before a byte of reply. `dying`: it also stops
 * listening at the first one, as a daemon killed while it accepted (the socket file stays).
 */
async function dropper(
  socket: string,
  dying: boolean,
): Promise<{ dropped: () => number; close: () => void }> {
  mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
  let dropped = 0;
  const server = createServer((conn) => {
    dropped++;
    if (dying) server.close();
    conn.destroy();
  });
  server.listen(socket);
  await once(server, 'listening');
  return { dropped: () => dropped, close: () => server.close() };
}

/**
 * A daemon dying as it accepted, made certain: the process that listened (whose pid the kernel
 * gives as the peer's, SO_PEERCRED) has exited, while a child it forked with the socket still
 * accepts once and drops the call [G-WARM-1, T-SELF-4]. Python, since Node's handing of a server
 * to a child listens again there (the peer's pid would be the child's).
 */
async function dyingListener(socket: string): Promise<{ dropped: () => number; close: () => void }> {
  mkdirSync(path.dirname(socket), { recursive: true });
  // As a daemon leaves it: the clients use a socket only in a folder of this account alone [T-SELF-4].
  chmodSync(path.dirname(socket), 0o700);
  const program = [
    'import os, socket, sys',
    's = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
    's.bind(sys.argv[1])',
    's.listen(8)',
    'child = os.fork()',
    'if child == 0:',
    '    c, _ = s.accept()',
    "    print('dropped', flush=True)",
    '    c.close()',
    '    os._exit(0)',
    "print('second', child, flush=True)",
    'os._exit(0)',
  ].join('\n');
  const listener = spawn('python3', ['-c', program, socket], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  listener.stdout.setEncoding('utf8');
  listener.stdout.on('data', (t: string) => {
    out += t;
  });
  await once(listener, 'exit');
  const pid = Number(/second (\d+)/.exec(out)?.[1]);
  return {
    dropped: () => out.split('\n').filter((l) => l === 'dropped').length,
    close: () => {
      if (pid > 0 && processAlive(pid)) process.kill(pid, 'SIGKILL');
    },
  };
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await new Promise((resolve) => child.once('exit', resolve));
  if (pid === undefined) throw new Error('no pid');
  return pid;
}

describe('[G-WARM-1] a call that finds no daemon decides itself and starts one', { timeout: TEST_MS }, () => {
  for (const client of CLIENTS) {
    it(`${client} client: the first call answers cold and starts a daemon (once the call has ended; this installation, its own session, a small environment) without being held by it; the next call is the daemon's`, async () => {
      const w = world();
      const env = envOf(w, { AGENT_SECRET: 'not for the daemon' });
      // `call` resolves on the child's 'close': it exited and both its stdout and stderr closed.
      // The daemon holds neither (else this would wait for it): it still runs after.
      const answered = call(client, w, bash(w, 'wait-for-go'), env);
      await waitFor(
        () => existsSync(path.join(w.dir, 'started')),
        'the call to run the guard itself',
        START_MS,
      );
      // While the call decides, the daemon's start waits (its Node start would take the call's CPU).
      const waiting = lockPid(w.lock);
      expect(processAlive(waiting ?? 0)).toBe(true);
      expect(readFileSync(`/proc/${waiting}/cmdline`, 'utf8').split('\0')[1]).not.toBe(BIN);
      expect(existsSync(w.socket)).toBe(false);
      writeFileSync(path.join(w.dir, 'go'), '');
      const first = await answered;
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('denied after the wait');
      const starting = lockPid(w.lock);
      expect(starting).toBe(waiting);
      expect(processAlive(starting ?? 0)).toBe(true);
      const s = await running(w);
      expect(s.pid).toBe(starting);
      expect(s).toMatchObject({ running: true, socket: w.socket, calls: 0 });
      const pid = Number(s.pid);
      expect(lockPid(w.lock)).toBe(pid);
      // The same installation: this node, this package's CLI.
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(argv.slice(1, 5)).toEqual([BIN, 'daemon', '--log', w.log]);
      expect(readlinkSync(`/proc/${pid}/exe`)).toBe(realpathSync(process.execPath));
      expect(sessionOf(pid)).not.toBe(sessionOf(process.pid));
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain(`HOME=${w.home}`);
      expect(environ.some((v) => v.startsWith('AGENT_SECRET='))).toBe(false);
      expect(environ.some((v) => v.startsWith('HOOKWERK_DAEMON='))).toBe(false);

      const second = await call(client, w, bash(w, 'wait-for-go'), env);
      expect(second).toEqual(first);
      expect((await status(w)).json).toMatchObject({ pid, calls: 1 });
      expect(daemonPids(w)).toEqual([pid]);
      expect(readFileSync(w.log, 'utf8')).toMatch(
        /Z hookwerk daemon: listening on .*daemon\.sock \(pid \d+; exits after 30 idle minutes\)/,
      );
      expect(statSync(w.log).mode & 0o777).toBe(0o600);
    });
  }

  it('20 calls at once, both clients, start exactly one daemon', { timeout: 90_000 }, async () => {
    const w = world();
    // One call first (starting nothing) writes the policy index: the 20 then answer without the engine.
    await call('node', w, noHook(w), envOf(w, { HOOKWERK_DAEMON: 'off' }));
    const calls = Array.from({ length: 20 }, (_, i) =>
      call(CLIENTS[i % CLIENTS.length] ?? 'node', w, noHook(w)),
    );
    for (const r of await Promise.all(calls)) expect(r).toMatchObject({ code: 0, stdout: '' });
    const s = await running(w);
    // Every start happened inside a call, and every call has ended: this is all there will be.
    expect(daemonPids(w)).toEqual([Number(s.pid)]);
    expect(readFileSync(w.log, 'utf8').match(/listening on/g)).toHaveLength(1);
  });

  it('HOOKWERK_DAEMON=off starts none; a daemon that runs is still asked', async () => {
    const w = world();
    for (const client of CLIENTS) {
      const r = await call(client, w, bash(w, 'rm -rf /tmp/x'), envOf(w, { HOOKWERK_DAEMON: 'off' }));
      expect(r.stdout).toContain('rm -rf is not allowed here');
    }
    expect(existsSync(w.lock)).toBe(false);
    expect(existsSync(w.socket)).toBe(false);
    expect(daemonPids(w)).toEqual([]);

    const daemon = startCli(['daemon'], { home: w.home, env: { HOOKWERK_DAEMON_SOCKET: '' } });
    await daemon.waitForOutput(/^ready$/m);
    for (const client of CLIENTS)
      await call(client, w, bash(w, 'rm -rf /tmp/x'), envOf(w, { HOOKWERK_DAEMON: 'OFF' }));
    expect((await status(w)).json).toMatchObject({ pid: daemon.pid, calls: CLIENTS.length });
    expect(await daemon.stop('SIGTERM')).toBe(0);
  });

  it('two homes never share a daemon', async () => {
    const a = world();
    const b = world();
    await Promise.all([call('node', a, noHook(a)), call(CLIENTS[0] ?? 'node', b, noHook(b))]);
    const [sa, sb] = await Promise.all([running(a), running(b)]);
    expect(sa.socket).toBe(a.socket);
    expect(sb.socket).toBe(b.socket);
    expect(sa.pid).not.toBe(sb.pid);
  });
});

describe('[G-WARM-1] a lock or socket left behind never blocks a start; a start under way is not repeated', {
  timeout: TEST_MS,
}, () => {
  for (const client of CLIENTS) {
    it(`${client} client: after a daemon was killed (stale socket, lock naming a dead pid) the next call starts a new one`, async () => {
      const w = world();
      await call(client, w, noHook(w));
      const first = Number((await running(w)).pid);
      process.kill(first, 'SIGKILL');
      await waitFor(() => !processAlive(first), 'the daemon to die');
      // Dead to the last thread: the socket file stays, nothing listens on it any more.
      await waitFor(() => refuses(w.socket), 'the killed daemon socket to refuse', START_MS);
      expect(statSync(w.socket).isSocket()).toBe(true);
      expect(lockPid(w.lock)).toBe(first);
      await call(client, w, noHook(w));
      const second = Number((await running(w)).pid);
      expect(second).not.toBe(first);
      expect(lockPid(w.lock)).toBe(second);
    });
  }

  for (const client of CLIENTS) {
    it(`${client} client: a connection closed before any reply with the lock naming an exited pid (a daemon dying as it accepted) starts a new one`, async () => {
      const w = world();
      // The race of a SIGKILLed daemon, made certain: the lock names a pid that has exited (its
      // main thread a zombie) while the socket still accepts once, then drops the call.
      const dying = await dyingListener(w.socket);
      writeFileSync(w.lock, `${await deadPid()}\n`);
      try {
        const r = await call(client, w, noHook(w));
        expect(r).toMatchObject({ code: 0, stdout: '' });
        await waitFor(() => dying.dropped() === 1, 'the dying listener to take the call');
      } finally {
        dying.close();
      }
      const pid = Number((await running(w)).pid);
      expect(lockPid(w.lock)).toBe(pid);
      expect(daemonPids(w)).toEqual([pid]);
    });
  }

  it('a live daemon that drops a call (busy, another version) gets no second one, however old its lock', async () => {
    const w = world();
    const live = await dropper(w.socket, false);
    // This test's process stands for the daemon; its lock is past the minute that ends a start.
    writeFileSync(w.lock, `${process.pid}\n`);
    const old = (Date.now() - LOCK_STALE_MS - 1000) / 1000;
    utimesSync(w.lock, old, old);
    for (const client of CLIENTS) {
      const r = await call(client, w, noHook(w));
      expect(r).toMatchObject({ code: 0, stdout: '' });
    }
    expect(live.dropped()).toBe(CLIENTS.length);
    // A start takes the lock within the call that makes it: none did.
    expect(lockPid(w.lock)).toBe(process.pid);
    expect(daemonPids(w)).toEqual([]);
    live.close();
  });

  it('a fresh lock naming a live process holds the start back; the same lock a minute old does not', async () => {
    const w = world();
    await staleSocket(w.socket);
    // A start under way (this test's process stands for the daemon being started).
    writeFileSync(w.lock, `${process.pid}\n`);
    for (const client of CLIENTS) await call(client, w, noHook(w));
    expect(daemonPids(w)).toEqual([]);
    expect(lockPid(w.lock)).toBe(process.pid);
    // The pid may have been reused by another process: past the minute the lock is stale.
    const old = (Date.now() - LOCK_STALE_MS - 1000) / 1000;
    utimesSync(w.lock, old, old);
    await call(CLIENTS[0] ?? 'node', w, noHook(w));
    const pid = Number((await running(w)).pid);
    expect(lockPid(w.lock)).toBe(pid);
  });

  it('an empty lock (a client between its lock and its spawn) holds the start back; a lock naming a dead pid does not', async () => {
    const w = world();
    mkdirSync(path.dirname(w.lock), { recursive: true, mode: 0o700 });
    writeFileSync(w.lock, '');
    await call('node', w, noHook(w));
    expect(daemonPids(w)).toEqual([]);
    writeFileSync(w.lock, `${await deadPid()}\n`);
    await call(CLIENTS[0] ?? 'node', w, noHook(w));
    await running(w);
  });
});

describe('[G-WARM-1] hookwerk daemon status and stop', { timeout: TEST_MS }, () => {
  it('status: exit 1 and running false when none runs; exit 0 with pid, socket, since, calls and engines when one does', async () => {
    const w = world();
    const env = { HOME: w.home, HOOKWERK_DAEMON_SOCKET: '' };
    const none = await runCli(['daemon', 'status', '--json'], { env });
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout)).toEqual({
      running: false,
      pid: null,
      socket: w.socket,
      since: null,
      engines: [],
    });
    const noneText = await runCli(['daemon', 'status'], { env });
    expect(noneText).toMatchObject({
      code: 1,
      stdout: `hookwerk daemon: not running (socket ${w.socket})\n`,
    });

    const daemon = startCli(['daemon', '--idle', '45'], {
      home: w.home,
      env: { HOOKWERK_DAEMON_SOCKET: '' },
    });
    await daemon.waitForOutput(/^ready$/m);
    await call('node', w, bash(w, 'ls'));
    const json = await runCli(['daemon', 'status', '--json'], { env });
    expect(json.code).toBe(0);
    const s = JSON.parse(json.stdout);
    expect(s).toMatchObject({
      running: true,
      pid: daemon.pid,
      socket: w.socket,
      calls: 1,
      idleExitMinutes: 45,
      engines: [{ project: w.project, home: w.home, agent: 'claude', busy: 0, calls: 1, loads: 1 }],
    });
    expect(Date.parse(s.since)).toBeLessThanOrEqual(Date.now());
    expect(s.engines[0].idleSeconds).toBeGreaterThanOrEqual(0);
    const text = await runCli(['daemon', 'status', '--socket', w.socket], { env: { HOME: w.dir } });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        `^hookwerk daemon: running, pid ${daemon.pid}, since .+, 1 call answered\\nsocket: ${w.socket}\\nidle exit: after 45 minutes without a call\\nengines: 1\\n  ${w.project} \\(Claude Code\\): idle \\d+ s, 1 call, policy read 1×\\n$`,
      ),
    );
    expect(await daemon.stop('SIGTERM')).toBe(0);
  });

  it('stop: a running call finishes and is answered by the daemon, the socket goes at once, the process and its lock go', async () => {
    const w = world();
    const client = CLIENTS[0] ?? 'node';
    await call(client, w, noHook(w));
    const pid = Number((await running(w)).pid);
    const answer = call(client, w, bash(w, 'wait-for-go'));
    await waitFor(() => existsSync(path.join(w.dir, 'started')), 'the guard to run in the daemon', START_MS);
    const stop = runCli(['daemon', 'stop'], { env: { HOME: w.home, HOOKWERK_DAEMON_SOCKET: '' } });
    await waitFor(() => !existsSync(w.socket), 'the socket to go');
    expect(processAlive(pid)).toBe(true);
    writeFileSync(path.join(w.dir, 'go'), '');
    expect((await answer).stdout).toContain('denied after the wait');
    expect(await stop).toMatchObject({ code: 0, stdout: `hookwerk daemon: stopped (pid ${pid})\n` });
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(w.lock)).toBe(false);
    // The guard ran once, in the daemon: the call was not cut off and decided again.
    expect(readFileSync(path.join(w.dir, 'inputs.log'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readFileSync(w.log, 'utf8')).toMatch(
      /asked to stop \(hookwerk daemon stop\)[^\n]*\n.*stopped after 1 call\b/,
    );
    const again = await runCli(['daemon', 'stop'], { env: { HOME: w.home, HOOKWERK_DAEMON_SOCKET: '' } });
    expect(again).toMatchObject({ code: 0, stdout: `hookwerk daemon: not running (socket ${w.socket})\n` });
  });
});

describe('[G-WARM-1] the daemon ends by itself: idle, or its socket gone', { timeout: TEST_MS }, () => {
  it('a started daemon exits after its idle minutes (HOOKWERK_DAEMON_IDLE, fractions of a minute), socket and lock removed', async () => {
    const w = world();
    await call(CLIENTS[0] ?? 'node', w, noHook(w), envOf(w, { HOOKWERK_DAEMON_IDLE: '0.01' }));
    const pid = lockPid(w.lock);
    expect(pid).toBeDefined();
    await waitFor(() => !processAlive(pid ?? 0), 'the idle daemon to exit', START_MS);
    expect(existsSync(w.socket)).toBe(false);
    expect(existsSync(w.lock)).toBe(false);
    expect(readFileSync(w.log, 'utf8')).toMatch(
      /exits after 0\.01 idle minutes[\s\S]*no call for 0\.01 minutes, shutting down/,
    );
  });

  it('--idle: a number of minutes from 0 (never); anything else is refused', async () => {
    const w = world();
    const daemon = startCli(['daemon', '--idle', '0.005'], {
      home: w.home,
      env: { HOOKWERK_DAEMON_SOCKET: '' },
    });
    expect((await daemon.exit).code).toBe(0);
    expect(daemon.stderr()).toContain('no call for 0.005 minutes, shutting down');
    for (const bad of ['abc', '-1', '', '99999'])
      expect(await runCli(['daemon', '--idle', bad], { home: w.home })).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `hookwerk: --idle must be a number of minutes from 0 (never) to 10080, got ${JSON.stringify(bad)}\n`,
      });
  });

  it('a daemon whose socket file was removed exits (a folder deleted under it leaves nothing running)', async () => {
    const w = world();
    const lines: string[] = [];
    const done = daemonCommand(
      {},
      (l) => lines.push(l),
      (l) => lines.push(l),
      {
        env: { HOME: w.home },
        stopSignal: new Promise<string>(() => {}),
        watchMs: 20,
      },
    );
    await waitFor(() => lines.includes('ready'), 'the daemon to listen');
    rmSync(w.socket);
    expect(await done).toBe(0);
    expect(lines.join('\n')).toContain('its socket file was removed or replaced, shutting down');
  });
});

describe('[G-WARM-1] the log is bounded', { timeout: TEST_MS }, () => {
  it('past its bound the log is copied to daemon.log.1 and emptied; a line never exceeds it', () => {
    const dir = tempDir('hw-log-');
    const file = path.join(dir, 'daemon.log');
    const log = boundedLog(file, 100, () => new Date(0));
    for (let i = 0; i < 10; i++) log.line(`line ${i}`);
    log.line('x'.repeat(500));
    log.close();
    expect(readFileSync(file).length).toBeLessThanOrEqual(100);
    expect(readFileSync(`${file}.1`).length).toBeLessThanOrEqual(100);
    expect(readFileSync(`${file}.1`, 'utf8')).toMatch(/^(1970-01-01T00:00:00\.000Z line \d\n)+$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a log left over its bound is rotated when the next started daemon opens it', async () => {
    const w = world();
    mkdirSync(path.dirname(w.log), { recursive: true, mode: 0o700 });
    const old = `${'an old line\n'.repeat(Math.ceil(DAEMON_LOG_MAX_BYTES / 12))}`;
    writeFileSync(w.log, old, { mode: 0o600 });
    await call(CLIENTS[0] ?? 'node', w, noHook(w));
    await running(w);
    expect(readFileSync(`${w.log}.1`, 'utf8')).toBe(old);
    const now = readFileSync(w.log, 'utf8');
    expect(now).toContain('listening on');
    expect(now.length).toBeLessThan(1000);
  });
});

describe('[G-WARM-1] the control messages on the wire', () => {
  it('a control message read in any pieces is the command; an unknown one is an error', () => {
    for (const command of ['status', 'stop'] as const) {
      const bytes = encodeControl(command);
      for (const size of [1, 3, bytes.length]) {
        const reader = incomingReader();
        let state: ReturnType<typeof reader.push> | undefined;
        for (let at = 0; at < bytes.length; at += size) state = reader.push(bytes.subarray(at, at + size));
        expect(state).toEqual({ kind: 'done', value: { kind: 'control', command } });
      }
    }
    const unknown = Buffer.from(encodeControl('stop'));
    unknown.write('stap', 16, 'latin1');
    expect(incomingReader().push(unknown)).toEqual({ kind: 'error', why: 'unknown control command' });
    const call = encodeRequest({ args: ARGS, cwd: '/', env: {}, stdin: Buffer.from('{}') });
    expect(call && incomingReader().push(call)).toMatchObject({ kind: 'done', value: { kind: 'call' } });
    expect(incomingReader().push(Buffer.from('HWKX'))).toEqual({
      kind: 'error',
      why: 'not a hookwerk message',
    });
  });
});
