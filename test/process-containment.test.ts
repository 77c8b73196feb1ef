/**
 * Hook-process containment against the agent's death and against hooks that try to get away
 * [§7 X-PROC-5, X-PROC-2]: no inherited descriptor, nothing left when the agent is SIGKILLed, a
 * dead engine's leftovers killed by the next one, orphans that left their cgroup or group caught
 * (the C launcher is a child subreaper), and keep_children leftovers spared all the same.
 *
 * Each backend is held to what docs/hook-processes.md says it guarantees: the C launcher to all
 * of it; the Node launcher and the direct fallback (no prctl in Node) to less, and the tests
 * assert that "less" too. Real processes and cgroups, checked in /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { detectContainment } from '../src/runners/containment.ts';
import { nativeLauncherPath, nodeLauncherPath } from '../src/runners/launcher-backend.ts';
import { cleanEnv } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { processAlive, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { backendOf } from './launcher-choice.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const AGENT = path.join(FIXTURES, 'containment-agent.mjs');
const LAUNCHERS = ['native', 'node', 'direct'] as const;
type Launcher = (typeof LAUNCHERS)[number];

/** What this host offers, and where: probed once, nothing left behind. */
const HOST = (() => {
  const c = detectContainment();
  const run = c.create(false);
  const procs = run.procs;
  run.release();
  c.close();
  // A run's cgroup.procs is <base>/hookwerk-<pid>-<hex>/run-N/cgroup.procs; base is ours.
  const base = procs === undefined ? undefined : path.dirname(path.dirname(path.dirname(procs)));
  return { kind: c.kind, base };
})();
const CGROUPS = HOST.kind !== 'pgroup';

/** Processes a test leaves on purpose (or that a backend is documented not to catch). */
const leftovers = new Set<number>();
afterEach(async () => {
  for (const pid of leftovers) kill(pid);
  for (const pid of leftovers) await waitFor(() => !processAlive(pid), `leftover ${pid} to be gone`);
  leftovers.clear();
});

function kill(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone
  }
}

/** The session of a process (field 6 of /proc/<pid>/stat); undefined once it is gone. */
function sessionOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return undefined;
  }
}

function readPid(file: string): number {
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!(pid > 0)) throw new Error(`no pid in ${file}`);
  return pid;
}

const hasPid = (file: string) => existsSync(file) && Number(readFileSync(file, 'utf8').trim()) > 0;

/** The cgroup a process is in, as /proc/<pid>/cgroup says for the hierarchy our containment uses. */
function cgroupOf(pid: number): string {
  const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  const v1 = HOST.kind === 'freezer';
  const line = lines.find((l) => (v1 ? /^\d+:[^:]*\bfreezer\b[^:]*:/.test(l) : l.startsWith('0::')));
  return line?.slice(line.indexOf(':', line.indexOf(':') + 1) + 1) ?? '';
}

/** Starts the agent fixture; resolves once it printed its first line (its engine is up). */
async function startAgent(
  ws: string,
  launcher: Launcher,
  containment: 'auto' | 'pgroup',
  mode: 'drain' | 'stay',
  stdio: Array<'ignore' | 'pipe' | number> = ['ignore', 'pipe', 'pipe'],
) {
  const child = spawn(process.execPath, [AGENT, ws, launcher, containment, mode], {
    env: cleanEnv(),
    stdio,
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const first = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`agent exited (${code}) before it started: ${err}`)));
  });
  const info = JSON.parse(first) as { pid: number; inheritedFlags: Record<string, string> };
  return { child, exited, info, stderr: () => err };
}

/**
 * A hook's first lines where it must be in its run's cgroup before it starts anything: the Node
 * launcher and the direct fallback move it there just after it started (a process it forks in
 * that first instant is outside: docs/hook-processes.md), the C launcher before exec.
 */
function joined(cgroups: boolean): string {
  if (!cgroups) return '';
  return "i=0; while [ $i -lt 500 ] && ! grep -q '/run-[0-9]*$' /proc/self/cgroup; do i=$((i+1)); sleep 0.01; done\n";
}

function killAgent(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  child.kill('SIGKILL');
  return exited;
}

describe('[X-PROC-5] descriptors', () => {
  /** The agent gets a real file at this number, without close-on-exec (as a supervisor would leave it). */
  const LEAKED_FD = 30;

  it.each(LAUNCHERS)(
    '[X-PROC-5] %s: a file the agent holds without close-on-exec never reaches the hook',
    async (launcher) => {
      const ws = tempDir('hw-fd-');
      writeScript(ws, 'hook.sh', 'exec ls -l /proc/self/fd > fds.txt');
      writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 30_000 }] });
      const secret = path.join(ws, 'agent-secret.txt');
      writeFileSync(secret, 'the agent’s\n');
      const fd = openSync(secret, 'r');
      const stdio: Array<'ignore' | 'pipe' | number> = ['ignore', 'pipe', 'pipe'];
      for (let i = 3; i < LEAKED_FD; i++) stdio.push('ignore');
      stdio.push(fd);
      const agent = await startAgent(ws, launcher, 'auto', 'drain', stdio);
      closeSync(fd);
      expect(await agent.exited, agent.stderr()).toBe(0);
      // The test is only worth something if the agent really holds it without close-on-exec.
      const flags = agent.info.inheritedFlags[String(LEAKED_FD)];
      expect(flags, 'the agent holds the file').toBeDefined();
      expect(Number.parseInt(flags ?? '0', 8) & 0o2000000).toBe(0);

      // `N -> target` of each descriptor, without ls's own (the folder it reads).
      const fds = new Map(
        readFileSync(path.join(ws, 'fds.txt'), 'utf8')
          .split('\n')
          .map((line) => /\s(\d+) -> (.*)$/.exec(line))
          .filter((m) => m !== null)
          .map((m) => [Number(m[1]), m[2] ?? ''] as const)
          .filter(([, target]) => !/^\/proc\/\d+\/fd$/.test(target)),
      );
      const above2 = [...fds].filter(([n]) => n > 2);
      if (backendOf(launcher) === 'direct') {
        // Node cannot close a descriptor in the child: the fallback puts /dev/null in its place.
        expect(fds.get(LEAKED_FD)).toBe('/dev/null');
        for (const [n, target] of above2) expect(target, `fd ${n}`).toBe('/dev/null');
      } else {
        expect(above2, 'descriptors above 2').toEqual([]);
      }
      expect([...fds.keys()].filter((n) => n <= 2).sort()).toEqual([0, 1, 2]);
      expect([...fds.values()]).not.toContain(secret);
    },
  );
});

describe('[X-PROC-5] the agent dies', () => {
  const CASES = LAUNCHERS.flatMap((l) => (['auto', 'pgroup'] as const).map((c) => [l, c] as const));

  it.each(CASES)(
    '[X-PROC-5] %s launcher, containment %s: agent SIGKILLed mid-run → the launcher, the hook and its setsid child are gone',
    async (launcher, containment) => {
      const ws = tempDir('hw-agent-');
      const cgroups = CGROUPS && containment === 'auto';
      writeScript(
        ws,
        'hook.sh',
        `${joined(cgroups)}echo $PPID > parent.pid; setsid sleep 60 & echo $! > kid.pid; echo $$ > hook.pid; exec sleep 60`,
      );
      writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 60_000 }] });
      const agent = await startAgent(ws, launcher, containment, 'stay');
      const files = ['parent.pid', 'kid.pid', 'hook.pid'].map((f) => path.join(ws, f));
      try {
        await waitFor(() => files.every(hasPid), 'the hook to write its pids');
      } catch (err) {
        await killAgent(agent.child, agent.exited);
        throw err;
      }
      const [parent, kid, hook] = files.map(readPid) as [number, number, number];
      for (const pid of [kid, hook]) leftovers.add(pid);
      // $! is known at the fork; the child calls setsid a moment later.
      await waitFor(
        () => sessionOf(kid) === kid || !processAlive(kid),
        'the child to be in a session of its own',
      );
      await killAgent(agent.child, agent.exited);

      const backend = backendOf(launcher);
      if (backend === 'direct') {
        // No launcher: the hook is the agent's child and nobody watches it. The next engine's
        // start-up sweep kills what is in the dead engine's cgroups.
        expect(parent).toBe(agent.info.pid);
        if (!cgroups) {
          expect(processAlive(kid) && processAlive(hook)).toBe(true);
          return;
        }
        detectContainment().close();
      } else {
        expect(parent).not.toBe(agent.info.pid);
        await waitFor(() => !processAlive(parent), 'the launcher to be gone');
      }
      await waitFor(() => !processAlive(hook), 'the hook to be gone');
      if (backend === 'node' && !cgroups) {
        // Only the hook's process group is known to the Node launcher without cgroups.
        expect(processAlive(kid)).toBe(true);
        return;
      }
      await waitFor(() => !processAlive(kid), 'the setsid child to be gone');
    },
  );

  it.each(['native', 'node'] as const)(
    '[X-PROC-5] %s launcher: its engine SIGKILLed while another process holds its stdin open (no EOF): PR_SET_PDEATHSIG',
    async (launcher) => {
      const ws = tempDir('hw-pdeath-');
      // No C build: the Node launcher stands in, and is held to what it does.
      const native = launcher === 'native' && existsSync(nativeLauncherPath());
      const command = native ? [nativeLauncherPath()] : [process.execPath, nodeLauncherPath()];
      const engine = spawn(
        process.execPath,
        [path.join(FIXTURES, 'pdeathsig-agent.mjs'), JSON.stringify(command), ws],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const engineGone = new Promise((resolve) => engine.on('exit', resolve));
      const line = await new Promise<string>((resolve) => {
        let out = '';
        engine.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
      });
      const { holder } = JSON.parse(line) as { holder: number };
      leftovers.add(holder);
      const files = ['launcher.pid', 'kid.pid', 'hook.pid'].map((f) => path.join(ws, f));
      await waitFor(() => files.every(hasPid), 'the hook to write its pids');
      const [launcherPid, kid, hook] = files.map(readPid) as [number, number, number];
      for (const pid of [launcherPid, kid, hook]) leftovers.add(pid);
      await waitFor(() => sessionOf(kid) === kid, 'the child to be in a session of its own');
      engine.kill('SIGKILL');
      await engineGone;
      if (native) {
        for (const pid of [launcherPid, hook, kid]) {
          await waitFor(() => !processAlive(pid), `pid ${pid} to be gone`);
        }
      } else {
        // Node has no prctl: the Node launcher waits for an EOF that does not come.
        expect([launcherPid, hook, kid].map(processAlive)).toEqual([true, true, true]);
      }
    },
  );

  it('[X-PROC-5] native: SIGTERM (its PR_SET_PDEATHSIG) is caught: every run, setsid children included, is killed first', async () => {
    const ws = tempDir('hw-term-');
    writeScript(
      ws,
      'hook.sh',
      'echo $PPID > parent.pid; setsid sleep 60 & echo $! > kid.pid; echo $$ > hook.pid; exec sleep 60',
    );
    writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 60_000 }] });
    const backend = backendOf('native');
    for (const containment of ['auto', 'pgroup'] as const) {
      const engine = await makeEngine(ws, { launcher: 'native', containment, shutdownGraceMs: 0 });
      const files = ['parent.pid', 'kid.pid', 'hook.pid'].map((f) => path.join(ws, f));
      for (const f of files) writeFileSync(f, '');
      engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
      await waitFor(() => files.every(hasPid), 'the hook to write its pids');
      const [launcher, kid, hook] = files.map(readPid) as [number, number, number];
      for (const pid of [kid, hook]) leftovers.add(pid);
      if (backend === 'direct') {
        // HOOKWERK_LAUNCHER=direct: no launcher to signal, the hook is our own child.
        expect(launcher).toBe(process.pid);
      } else {
        kill(launcher, 'SIGTERM');
        await engine.drain();
        expect(engine.runs({ limit: 1 })[0]).toMatchObject({
          outcome: 'spawn_error',
          cause: 'launcher_died',
        });
      }
      await engine.close();
      await waitFor(() => !processAlive(hook), 'the hook to be gone');
      // The Node launcher kills each run's group and cgroup too, but a child forked before the
      // hook joined its cgroup is out of its reach: only the C launcher is sure to get it.
      if (backend === 'native') {
        for (const pid of [launcher, kid]) await waitFor(() => !processAlive(pid), `pid ${pid} to be gone`);
      }
    }
  });
});

describe('[X-PROC-5] start-up sweep', () => {
  it('[X-PROC-5] a dead engine left processes in its cgroups: a new engine kills them, moves kept ones out, removes the folders', async () => {
    if (!CGROUPS || HOST.base === undefined) {
      // Process groups only: no engine leaves cgroups behind, nothing to sweep.
      expect(detectContainment().create(false).procs).toBeUndefined();
      return;
    }
    // Named after a process that is alive while the folder is filled (an engine starting in
    // another test file would sweep it), then dies: the folder is a dead engine's.
    const owner = spawn('sleep', ['600'], { stdio: 'ignore' });
    const ownerGone = new Promise((resolve) => owner.on('exit', resolve));
    const stale = path.join(HOST.base, `hookwerk-${owner.pid}-0badc0de`);
    // A run's leftover, one of a hook that ran hookwerk itself (a nested engine folder), and
    // what a keep_children run left.
    const run = path.join(stale, 'run-1');
    const nested = path.join(run, `hookwerk-${owner.pid}-0badc0de`, 'run-2');
    const keep = path.join(stale, 'keep-3');
    mkdirSync(nested, { recursive: true });
    mkdirSync(keep);
    const inRun = startIn(run);
    const inNested = startIn(nested);
    const inKeep = startIn(keep);
    owner.kill('SIGKILL');
    await ownerGone;

    detectContainment().close();

    for (const pid of [inRun, inNested])
      await waitFor(() => !processAlive(pid), `leftover ${pid} to be killed`);
    expect(processAlive(inKeep)).toBe(true);
    expect(cgroupOf(inKeep)).not.toContain('hookwerk-');
    expect(existsSync(stale)).toBe(false);
  });

  it('[X-PROC-5] while our cgroup holds a process of another pid namespace, a folder named after a pid dead here is left alone (its engine may live there)', async () => {
    if (!CGROUPS || HOST.base === undefined) {
      expect(detectContainment().create(false).procs).toBeUndefined();
      return;
    }
    // A process in a pid namespace of its own, in our cgroup (root may; else none is there).
    const unshare = spawn('unshare', ['--pid', '--fork', 'sleep', '600'], {
      stdio: 'ignore',
      detached: true,
    });
    const unshareGone = new Promise((resolve) => unshare.on('exit', resolve));
    if (unshare.pid !== undefined) leftovers.add(unshare.pid);
    const nested =
      (await waitFor(
        () => nestedNamespaceChild(unshare.pid ?? 0) ?? (unshare.exitCode !== null ? -1 : undefined),
        'the namespaced sleep to start',
      )) ?? -1;
    if (nested > 0) leftovers.add(nested);
    const owner = spawn('sleep', ['600'], { stdio: 'ignore' });
    const ownerGone = new Promise((resolve) => owner.on('exit', resolve));
    const stale = path.join(HOST.base, `hookwerk-${owner.pid}-0badc0de`);
    const run = path.join(stale, 'run-1');
    mkdirSync(run, { recursive: true });
    const inRun = startIn(run);
    owner.kill('SIGKILL');
    await ownerGone;

    detectContainment().close();

    if (nested > 0) {
      expect(processAlive(inRun)).toBe(true);
      expect(existsSync(run)).toBe(true);
      kill(nested);
      kill(unshare.pid ?? 0);
      await unshareGone;
      await waitFor(() => !processAlive(nested), 'the namespaced sleep to be gone');
      // Alone in our namespace again: the next engine sweeps it.
      detectContainment().close();
    }
    await waitFor(() => !processAlive(inRun), 'the leftover to be killed');
    expect(existsSync(stale)).toBe(false);
  });
});

/** The child of `parent` once it runs in a pid namespace below ours (NSpid lists two pids). */
function nestedNamespaceChild(parent: number): number | undefined {
  let kids: string;
  try {
    kids = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8');
  } catch {
    return undefined;
  }
  for (const kid of kids
    .trim()
    .split(/\s+/)
    .filter((k) => k !== '')) {
    try {
      const nspid = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${kid}/status`, 'utf8'))?.[1];
      if (nspid !== undefined && nspid.trim().split(/\s+/).length > 1) return Number(kid);
    } catch {
      // gone
    }
  }
  return undefined;
}

/** A sleep moved into cgroup `dir` (it may be killed there; the test's cleanup kills it anyway). */
function startIn(dir: string): number {
  const child = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
  const pid = child.pid;
  if (pid === undefined) throw new Error('sleep did not start');
  child.unref();
  leftovers.add(pid);
  writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  return pid;
}

describe('[X-PROC-5] orphans that get away from their run', () => {
  const TARGETS = ['the engine folder', "the agent's own cgroup"] as const;
  const CASES = LAUNCHERS.flatMap((l) => TARGETS.map((t) => [l, t] as const));

  it.each(CASES)(
    '[X-PROC-5] %s: a double-forked setsid child that moves itself to %s is gone when the run ends',
    async (launcher, target) => {
      if (!CGROUPS || HOST.base === undefined) {
        // No cgroup to leave here; the process-group case below covers this host.
        expect(HOST.kind).toBe('pgroup');
        return;
      }
      const ws = tempDir('hw-escape-');
      // Where our containment puts run cgroups: <mount><rel>; the hook finds <rel> in /proc/self/cgroup.
      const v1 = HOST.kind === 'freezer';
      const mount = v1
        ? '/sys/fs/cgroup/freezer'
        : existsSync('/sys/fs/cgroup/cgroup.controllers')
          ? '/sys/fs/cgroup'
          : '/sys/fs/cgroup/unified';
      const select = v1 ? "sed -n 's/^[0-9]*:[^:]*freezer[^:]*://p'" : "sed -n 's/^0:://p'";
      const up = target === 'the engine folder' ? '..' : '../..';
      writeScript(
        ws,
        'hook.sh',
        [
          joined(true),
          `run="${mount}$(${select} /proc/self/cgroup)"`,
          `to="$run/${up}"`,
          // Double fork: the inner subshell exits at once, so the child is an orphan; it leaves the
          // group (setsid) and the cgroup (root may), prints its pid, sleeps with our pipe closed.
          `kid=$( (setsid sh -c 'echo $$ > "$1/cgroup.procs"; echo $$; exec sleep 60 >/dev/null 2>&1' sh "$to" &) )`,
          'echo $kid > kid.pid',
          `${select} /proc/$kid/cgroup > where.txt`,
          `${select} /proc/self/cgroup > run.txt`,
        ].join('\n'),
      );
      writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 60_000 }] });
      const engine = await makeEngine(ws, { launcher });
      engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
      await engine.drain();
      expect(engine.runs({ limit: 1 })[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
      const kid = readPid(path.join(ws, 'kid.pid'));
      leftovers.add(kid);
      const where = readFileSync(path.join(ws, 'where.txt'), 'utf8').trim();
      const run = readFileSync(path.join(ws, 'run.txt'), 'utf8').trim();
      const escaped = where !== run;
      if (escaped) expect(path.resolve(run, up)).toBe(where);
      if (backendOf(launcher) === 'native' || !escaped) {
        // The subreaper kills it (or, refused the move, it was still in its run's cgroup).
        await waitFor(() => !processAlive(kid), 'the escaped child to be gone');
      } else {
        // Out of its cgroup and group, and no subreaper to get it back: out of reach.
        expect(processAlive(kid)).toBe(true);
        kill(kid);
        await waitFor(() => !processAlive(kid), 'the escaped child to be killed');
      }
    },
  );

  it.each(LAUNCHERS)(
    '[X-PROC-5] %s, process groups only: a double-forked setsid child is gone when the run ends',
    async (launcher) => {
      const ws = tempDir('hw-escape-');
      writeScript(
        ws,
        'hook.sh',
        [
          `kid=$( (setsid sh -c 'echo $$; exec sleep 60 >/dev/null 2>&1' &) )`,
          'echo $kid > kid.pid',
          'ps -o sid= -p $kid > kid-sid.txt',
        ].join('\n'),
      );
      writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 60_000 }] });
      const engine = await makeEngine(ws, { launcher, containment: 'pgroup' });
      engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
      await engine.drain();
      expect(engine.runs({ limit: 1 })[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
      const kid = readPid(path.join(ws, 'kid.pid'));
      leftovers.add(kid);
      // It did leave: a session (and group) of its own.
      expect(Number(readFileSync(path.join(ws, 'kid-sid.txt'), 'utf8'))).toBe(kid);
      if (backendOf(launcher) === 'native') {
        await waitFor(() => !processAlive(kid), 'the setsid child to be gone');
      } else {
        expect(processAlive(kid)).toBe(true);
      }
    },
  );
});

describe('[X-PROC-2] [X-PROC-5] keep_children and the subreaper', () => {
  const CASES = LAUNCHERS.flatMap((l) => (['auto', 'pgroup'] as const).map((c) => [l, c] as const));

  it.each(CASES)(
    '[X-PROC-2] %s launcher, containment %s: what a keep_children hook leaves survives the next run and close()',
    async (launcher, containment) => {
      const ws = tempDir('hw-keep-');
      // First run: a child in the hook's group, and one in a session of its own. Later runs: nothing.
      writeScript(
        ws,
        'hook.sh',
        [
          '[ -s kids.txt ] && exit 0',
          'echo $PPID > parent.pid',
          'sleep 60 & echo $! > same-group.pid',
          'setsid sleep 61 & echo $! > own-session.pid',
          'echo done > kids.txt',
        ].join('\n'),
      );
      writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 60_000, keep_children: true }] });
      const engine = await makeEngine(ws, { launcher, containment });
      for (let i = 0; i < 2; i++) {
        // The second run's end makes the C launcher look at its orphans again.
        engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
        await engine.drain();
      }
      const sameGroup = readPid(path.join(ws, 'same-group.pid'));
      const ownSession = readPid(path.join(ws, 'own-session.pid'));
      const parent = readPid(path.join(ws, 'parent.pid'));
      leftovers.add(sameGroup);
      leftovers.add(ownSession);
      expect(engine.runs().map((r) => r.outcome)).toEqual(['ok', 'ok']);
      await engine.close();

      const backend = backendOf(launcher);
      // The launcher exited with the engine, kept processes or not.
      if (backend !== 'direct') await waitFor(() => !processAlive(parent), 'the launcher to exit');
      // Both survive (without a cgroup the C launcher cannot tell the setsid one from an escapee:
      // once such a run has started, it spares what it cannot place).
      expect(processAlive(sameGroup)).toBe(true);
      expect(processAlive(ownSession)).toBe(true);
      // Out of the engine's folder, which is gone.
      if (CGROUPS && containment === 'auto') {
        for (const pid of [sameGroup, ownSession]) expect(cgroupOf(pid)).not.toContain('hookwerk-');
      }
    },
  );
});
