/**
 * [T-MGD-3] `hookwerk setup-system` and `hookwerk daemon --system`, end to end, as root in mount
 * namespaces (`managed-namespace.ts`): /etc is a folder of the test's own (so `useradd` can add
 * the daemon's account), /etc/hookwerk, /run and /var/lib are temp folders, and the unprivileged
 * `hookwerk-agent` stands in for the agent. The daemon is the real CLI; the client is the real
 * `hookwerk hook` as the agent; what the agent cannot do is the kernel's answer.
 */
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeVerdict } from './claude-verdict.ts';
import { type CliResult, runProgram } from './cli-runner.ts';
import {
  type Account,
  accountsEtc,
  agentAccount,
  agentEnv,
  hookwerkIn,
  INSTALLED,
  INSTALLED_BIN,
  namespaceArgv,
  openTempDir,
  ownedDir,
  startHookwerkIn,
} from './managed-namespace.ts';

/** Real processes in namespaces, on a loaded 2-core machine: minutes at worst, not 30 s. */
const SLOW = { timeout: 180_000 };

interface Setup {
  agent: Account;
  base: string;
  home: string;
  project: string;
  etc: string;
  binds: Record<string, string>;
  /** Host paths of the namespace's /run and /var/lib. */
  run: string;
  varLib: string;
}

function setup(): Setup {
  const agent = agentAccount();
  const base = openTempDir('hw-sysd-');
  const home = ownedDir(path.join(base, 'home'), agent, 0o700);
  const project = ownedDir(path.join(base, 'project'), agent);
  const etc = accountsEtc(base);
  const etcHookwerk = path.join(base, 'etc-hookwerk');
  const run = path.join(base, 'run');
  const varLib = path.join(base, 'var-lib');
  for (const dir of [etcHookwerk, run, varLib]) {
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
  }
  const policy = path.join(etcHookwerk, 'policy.json');
  writeFileSync(policy, JSON.stringify({ permissions: { deny: ['Bash(curl *)'] } }));
  chmodSync(policy, 0o644);
  return {
    agent,
    base,
    home,
    project,
    etc,
    run,
    varLib,
    binds: { '/etc/hookwerk': etcHookwerk, '/run': run, '/var/lib': varLib },
  };
}

function asRoot(s: Setup, args: string[]): Promise<CliResult> {
  return hookwerkIn(args, { binds: s.binds, etc: s.etc, env: agentEnv(s.home), cwd: s.project });
}

function asAgent(s: Setup, args: string[]): Promise<CliResult> {
  return hookwerkIn(args, { binds: s.binds, etc: s.etc, as: s.agent, env: agentEnv(s.home), cwd: s.project });
}

/** A shell command as the agent, in the namespace. */
function shAsAgent(s: Setup, script: string): Promise<CliResult> {
  return runProgram(
    'bwrap',
    namespaceArgv(['sh', '-c', script], { binds: s.binds, etc: s.etc, as: s.agent }),
    {
      env: agentEnv(s.home),
      cwd: s.project,
    },
  );
}

const bash = (s: Setup, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-system',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
  });

/** `hookwerk hook --agent claude` as the agent; `pid` is its process (the shell says it, then execs node). */
async function hook(s: Setup, input: string): Promise<CliResult & { pid: number }> {
  const argv = namespaceArgv(
    [
      'sh',
      '-c',
      'echo "client-pid $$" >&2; exec "$@"',
      'sh',
      process.execPath,
      INSTALLED_BIN,
      'hook',
      '--agent',
      'claude',
    ],
    { binds: s.binds, etc: s.etc, as: s.agent },
  );
  const r = await runProgram('bwrap', argv, {
    env: agentEnv(s.home),
    cwd: s.project,
    stdin: { text: input },
  });
  const pid = Number(/client-pid (\d+)/.exec(r.stderr)?.[1]);
  return { ...r, pid };
}

/** The same call through the C client (dist/native/hookwerk-hook, same arguments) as the agent. */
async function hookC(
  s: Setup,
  input: string,
  extraBinds: Record<string, string> = {},
): Promise<CliResult & { pid: number }> {
  const argv = namespaceArgv(
    [
      'sh',
      '-c',
      'echo "client-pid $$" >&2; exec "$@"',
      'sh',
      path.join(INSTALLED, 'dist', 'native', 'hookwerk-hook'),
      '--agent',
      'claude',
    ],
    { binds: { ...s.binds, ...extraBinds }, etc: s.etc, as: s.agent },
  );
  const r = await runProgram('bwrap', argv, {
    env: agentEnv(s.home),
    cwd: s.project,
    stdin: { text: input },
  });
  return { ...r, pid: Number(/client-pid (\d+)/.exec(r.stderr)?.[1]) };
}

/** Claude Code's reading of the reply's permission decision (`none` for no objection). */
const decision = (r: CliResult): string => claudeVerdict(r).decision;

/** The uid of an account in the test's own /etc/passwd. */
function uidIn(s: Setup, name: string): number | undefined {
  for (const line of readFileSync(path.join(s.etc, 'passwd'), 'utf8').split('\n')) {
    const [user, , uid] = line.split(':');
    if (user === name) return Number(uid);
  }
  return undefined;
}

/** The managed journal's entries, read as root from the host. */
function managedRecords(s: Setup): Array<Record<string, unknown>> {
  const dir = path.join(s.varLib, 'hookwerk', 'records');
  const out: Array<Record<string, unknown>> = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort())
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n'))
      if (line.trim() !== '') out.push(JSON.parse(line));
  return out;
}

/** The text of the agent's own journal (empty when it has none). */
function homeRecords(s: Setup): string {
  const dir = path.join(s.home, '.hookwerk', 'records');
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => readFileSync(path.join(dir, n), 'utf8'))
    .join('');
}

interface Running {
  child: ChildProcess;
  pid: number;
  stderr: () => string;
}

const started: Running[] = [];

/** `hookwerk daemon --system` as root; resolves once it says ready (and its pid). */
function startDaemon(s: Setup): Promise<Running> {
  const child = startHookwerkIn(['daemon', '--system'], {
    binds: s.binds,
    etc: s.etc,
    env: agentEnv(s.home),
    cwd: s.project,
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const check = () => {
      const pid = /pid (\d+); managed layer/.exec(err)?.[1];
      if (out.includes('ready') && pid !== undefined) {
        const running = { child, pid: Number(pid), stderr: () => err };
        started.push(running);
        resolve(running);
      }
    };
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      check();
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      check();
    });
    child.on('close', (code) => reject(new Error(`the daemon exited (${code}): ${err}`)));
  });
}

/** Whether a process is alive (root may signal any). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `pid` has exited. */
async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 10));
}

const servers: Server[] = [];

afterEach(async () => {
  // The daemon dropped to its account: the parent-death signal does not follow it. Killed by pid
  // (its door exits when its channel closes).
  for (const r of started.splice(0)) {
    if (alive(r.pid)) process.kill(r.pid, 'SIGKILL');
    await gone(r.pid);
    r.child.kill('SIGKILL');
  }
  for (const server of servers.splice(0)) server.close();
});

describe('[T-MGD-3] setup-system', SLOW, () => {
  it('[T-MGD-3] setup-system creates the account, /run/hookwerk and the managed journal; again, it finds them; not as root it refuses', async () => {
    const s = setup();
    const first = await asRoot(s, ['setup-system']);
    expect(first.code, first.stderr).toBe(0);
    const uid = uidIn(s, 'hookwerk');
    expect(uid).toBeDefined();
    expect(first.stdout).toContain(`created the account hookwerk (uid ${uid})`);
    const runDir = statSync(path.join(s.run, 'hookwerk'));
    expect([runDir.uid, runDir.mode & 0o7777]).toEqual([0, 0o755]);
    const state = statSync(path.join(s.varLib, 'hookwerk'));
    expect([state.uid, state.mode & 0o7777]).toEqual([0, 0o755]);
    const records = statSync(path.join(s.varLib, 'hookwerk', 'records'));
    expect([records.uid, records.mode & 0o7777]).toEqual([uid, 0o700]);
    const again = await asRoot(s, ['setup-system']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('found the account hookwerk');
    expect(again.stdout).toContain('found /run/hookwerk');
    expect(again.stdout).not.toContain('created');
    const agent = await asAgent(s, ['setup-system']);
    expect(agent.code).toBe(1);
    expect(agent.stderr.trim().split('\n')).toHaveLength(1);
    expect(agent.stderr).toContain('must run as root');
    const missing = await asRoot(s, ['setup-system', '--user', 'no-such-account']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('does not exist');
  });
});

describe('[T-MGD-3] daemon --system', SLOW, () => {
  it('[T-MGD-3] refuses to start not as root, or on a /run/hookwerk others may write', async () => {
    const s = setup();
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    const agent = await asAgent(s, ['daemon', '--system']);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('must run as root');
    chmodSync(path.join(s.run, 'hookwerk'), 0o777);
    const open = await asRoot(s, ['daemon', '--system']);
    expect(open.code).toBe(1);
    expect(open.stderr.trim().split('\n')).toHaveLength(1);
    expect(open.stderr).toContain('not writable by group or others');
    chmodSync(path.join(s.run, 'hookwerk'), 0o755);
    // As without a C compiler at install: no door, so no daemon on unchecked callers.
    const noNative = path.join(s.base, 'no-native');
    mkdirSync(noNative, { mode: 0o755 });
    const without = await hookwerkIn(['daemon', '--system'], {
      binds: { ...s.binds, [`${INSTALLED}/dist/native`]: noNative },
      etc: s.etc,
      env: agentEnv(s.home),
      cwd: s.project,
    });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('cannot learn its callers from the kernel');
  });

  it("[T-MGD-3] a hook call as the agent gets the managed deny from the system daemon, recorded with the kernel's uid, user and pid", async () => {
    const s = setup();
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    const daemon = await startDaemon(s);
    const sock = statSync(path.join(s.run, 'hookwerk', 'daemon.sock'));
    expect([sock.uid, sock.mode & 0o777]).toEqual([uidIn(s, 'hookwerk'), 0o666]);
    const r = await hook(s, bash(s, 'curl https://example.com'));
    expect(decision(r)).toBe('deny');
    expect(r.pid).toBeGreaterThan(0);
    const records = managedRecords(s);
    const mine = records.filter((e) => e.pid === r.pid);
    expect(mine.length, JSON.stringify(records)).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({ uid: s.agent.uid, user: 'hookwerk-agent', pid: r.pid, agent: 'claude' });
    // FINAL: the user's path did not run (it would have recorded the managed deny in the home's journal).
    expect(homeRecords(s)).not.toContain('curl');
    // The request's environment names no one: HOME and USER of the call are not the record's.
    expect(JSON.stringify(records)).not.toContain('"user":"root"');
    // The managed journal is chained (T-SELF-3): runs --verify as root over it.
    const verify = await asRoot(s, ['runs', '--verify', '--system']);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    const listed = await asRoot(s, ['runs', '--system', '--json']);
    expect(listed.stdout).toContain('"user":"hookwerk-agent"');
    expect(daemon.stderr()).toContain('managed layer');
  });

  it('[T-MGD-3] the C client asks the system daemon first: its deny is final; otherwise its fallback does not ask the daemon again', async () => {
    const s = setup();
    // A managed hook that runs on every Bash call: each time the system daemon is asked, one run.
    const policy = path.join(s.base, 'etc-hookwerk', 'policy.json');
    writeFileSync(
      policy,
      JSON.stringify({
        permissions: { deny: ['Bash(curl *)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
      }),
    );
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    await startDaemon(s);
    // Node hidden from the client: a deny can only be the C client's own answer, not its fallback's.
    const noNode = path.join(s.base, 'no-node');
    writeFileSync(noNode, '');
    const denied = await hookC(s, bash(s, 'curl x'), { [realpathSync(process.execPath)]: noNode });
    expect(denied.stderr).not.toContain('cannot run node');
    expect(decision(denied)).toBe('deny');
    expect(managedRecords(s).filter((e) => e.pid === denied.pid).length).toBeGreaterThan(0);
    expect(homeRecords(s)).not.toContain('curl x');
    const passed = await hookC(s, bash(s, 'echo fine'));
    expect(decision(passed)).toBe('none');
    // One ask of the system daemon (the C client's), not a second from its Node fallback (same pid).
    const asks = managedRecords(s).filter((e) => e.pid === passed.pid);
    expect(asks.map((e) => e.hook)).toHaveLength(1);
    expect(asks[0]).toMatchObject({ uid: s.agent.uid, user: 'hookwerk-agent' });
  });

  it('[T-MGD-3] the agent cannot change the policy, stop, kill or replace the daemon, or read or append to the managed journal; status works for it', async () => {
    const s = setup();
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    const daemon = await startDaemon(s);
    await hook(s, bash(s, 'curl x'));
    const attempts: Record<string, string> = {
      'write the managed policy': 'echo "{}" > /etc/hookwerk/policy.json',
      'replace the managed policy': 'echo "{}" > /tmp/p.json && mv /tmp/p.json /etc/hookwerk/policy.json',
      'kill the daemon': `kill -TERM ${daemon.pid}`,
      'unlink the socket': 'rm -f /run/hookwerk/daemon.sock',
      'replace the socket': 'touch /tmp/x && mv -f /tmp/x /run/hookwerk/daemon.sock',
      'list the managed journal': 'ls /var/lib/hookwerk/records',
      'read the managed journal': 'cat /var/lib/hookwerk/records/*',
      'append to the managed journal': 'echo forged >> /var/lib/hookwerk/records/journal-000001.jsonl',
    };
    for (const [what, script] of Object.entries(attempts)) {
      const r = await shAsAgent(s, script);
      expect(r.code, `${what}: ${r.stdout}${r.stderr}`).not.toBe(0);
    }
    const kill = await shAsAgent(s, `kill -TERM ${daemon.pid}`);
    expect(kill.stderr).toMatch(/not permitted/i);
    const stop = await asAgent(s, ['daemon', 'stop', '--system']);
    expect(stop.code).toBe(1);
    expect(stop.stderr).toContain('refused');
    expect(alive(daemon.pid)).toBe(true);
    const status = await asAgent(s, ['daemon', 'status', '--system', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      running: true,
      pid: daemon.pid,
      system: true,
      user: 'hookwerk',
      engines: [{ agent: 'claude', calls: 1 }],
    });
    // [G-WARM-1] Another account (nobody) sees the daemon, not the agent's engine and its project.
    const nobody = { name: 'nobody', uid: 65534, gid: 65534 };
    const other = await hookwerkIn(['daemon', 'status', '--system', '--json'], {
      binds: s.binds,
      etc: s.etc,
      as: nobody,
      env: agentEnv(s.home),
      cwd: '/',
    });
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ running: true, engines: [] });
    expect(readFileSync(path.join(s.base, 'etc-hookwerk', 'policy.json'), 'utf8')).toContain('curl');
    // Root stops it.
    const rootStop = await asRoot(s, ['daemon', 'stop', '--system']);
    expect(rootStop.code, rootStop.stderr).toBe(0);
    await gone(daemon.pid);
  });

  it('[R-HOOK-4, G-WARM-1, T-MGD-3] the managed engine stays warm: a second call is answered by the same engine; an edit by root, a group-writable policy and broken JSON are in force at the next call', async () => {
    const s = setup();
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    await startDaemon(s);
    const policy = path.join(s.base, 'etc-hookwerk', 'policy.json');
    const engines = async (): Promise<unknown> => {
      const r = await asRoot(s, ['daemon', 'status', '--system', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).engines;
    };
    // A FINAL deny is the daemon's alone: the user's path (which would deny too, T-MGD-1) did not run.
    const daemonDenies = async (command: string) => {
      const r = await hook(s, bash(s, command));
      expect(decision(r)).toBe('deny');
      expect(homeRecords(s)).not.toContain(command);
      return r;
    };
    await daemonDenies('curl one');
    await daemonDenies('curl two');
    // Two calls, one engine, its policy read once: the second call was answered warm.
    expect(await engines()).toEqual([expect.objectContaining({ agent: 'claude', calls: 2, loads: 1 })]);
    // Root's edit is in force at the next call: wget is the daemon's deny, curl no longer is.
    writeFileSync(policy, JSON.stringify({ permissions: { deny: ['Bash(wget *)'] } }));
    await daemonDenies('wget x');
    expect(decision(await hook(s, bash(s, 'curl three')))).toBe('none');
    // [T-MGD-1, G-FAIL-1] Group-writable: refused, and the call denied with the reason.
    chmodSync(policy, 0o664);
    const refused = await daemonDenies('echo one');
    expect(refused.stdout).toContain('not writable by group or others');
    chmodSync(policy, 0o644);
    expect(decision(await hook(s, bash(s, 'echo two')))).toBe('none');
    // Broken JSON: a policy that cannot be used denies.
    writeFileSync(policy, '{ "permissions": ');
    await daemonDenies('echo three');
    // The same engine all along, its policy read again for each change (edit, chmod twice, break).
    expect(await engines()).toEqual([expect.objectContaining({ calls: 7, loads: 5 })]);
  });

  it("[T-MGD-3] a reply without FINAL goes on to the user's path; with the daemon down, the managed policy still denies in-process", async () => {
    const s = setup();
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    const own = ownedDir(path.join(s.home, '.hookwerk'), s.agent, 0o700);
    const userPolicy = path.join(own, 'policy.json');
    writeFileSync(userPolicy, JSON.stringify({ permissions: { deny: ['Bash(echo secret*)'] } }));
    chownSync(userPolicy, s.agent.uid, s.agent.gid);
    const daemon = await startDaemon(s);
    // The managed layer has no objection: the user's own deny still applies (and is in the user's journal).
    expect(decision(await hook(s, bash(s, 'echo secret')))).toBe('deny');
    expect(homeRecords(s)).toContain('echo secret');
    expect(decision(await hook(s, bash(s, 'echo hello')))).toBe('none');
    process.kill(daemon.pid, 'SIGKILL');
    await gone(daemon.pid);
    // A stale socket, nothing listening: the user's path, with the managed policy in-process.
    const down = await hook(s, bash(s, 'curl x'));
    expect(decision(down)).toBe('deny');
    expect(homeRecords(s)).toContain('curl x');
  });

  it("[T-MGD-3] a socket at the system path that is the agent's own, or whose listener is not the daemon's account, is refused with one line", async () => {
    const s = setup();
    expect((await asRoot(s, ['setup-system'])).code).toBe(0);
    const sock = path.join(s.run, 'hookwerk', 'daemon.sock');
    // A root process answering "allow" on a socket owned by another account.
    // The client refuses it and closes first: the reply's write may then meet EPIPE, which is expected.
    const allow = createServer((conn) => {
      conn.on('error', () => undefined);
      conn.end('HWKR');
    });
    servers.push(allow);
    await new Promise<void>((resolve) => allow.listen(sock, resolve));
    chownSync(sock, 65534, 65534);
    chmodSync(sock, 0o666);
    const foreign = await hook(s, bash(s, 'curl x'));
    expect(decision(foreign)).toBe('deny');
    expect(foreign.stderr).toMatch(
      /system daemon socket .* was not used \(the system daemon runs as another account/,
    );
    chownSync(sock, s.agent.uid, s.agent.gid);
    const ownAccount = await hook(s, bash(s, 'echo hi'));
    expect(decision(ownAccount)).toBe('none');
    expect(ownAccount.stderr).toMatch(/system daemon socket .* was not used \(it is your own account's\)/);
  });
});
