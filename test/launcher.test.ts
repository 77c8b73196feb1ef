/**
 * Hook processes off the agent's process [§7 X-PROC-1..4]: started by a launcher (the C one, the
 * Node one, and the direct fallback), contained so that nothing outlives its run, stopped within
 * the shutdown grace. Real processes, checked in /proc.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/records/run-record.ts';
import { detectContainment, makeRunCgroup } from '../src/runners/containment.ts';
import { nativeLauncherPath } from '../src/runners/launcher-backend.ts';
import { BIN, cleanEnv } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { processAlive, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { backendOf } from './launcher-choice.ts';

const LAUNCHERS = ['native', 'node', 'direct'] as const;
/** What this machine offers to hold a hook's processes; probed once, nothing left behind. */
const CONTAINMENT_KIND = (() => {
  const c = detectContainment();
  c.close();
  return c.kind;
})();
type Launcher = (typeof LAUNCHERS)[number];

/** Pids to kill after a test, whatever happened (only keep_children tests leave any on purpose). */
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

function pidsIn(file: string): number[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split(/\s+/)
        .filter((s) => s !== '')
        .map(Number)
    : [];
}

const PAYLOAD = { tool: 'shell', success: true, output: 'ok' };

/** A workspace whose tool_call hook runs `script` (sh); returns the engine and the workspace. */
async function engineWith(
  launcher: Launcher,
  script: string,
  action: Record<string, unknown> = {},
  extra = {},
) {
  const ws = tempDir('hw-launch-');
  writeScript(ws, 'hook.sh', script);
  writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 60_000, ...action }] });
  const engine = await makeEngine(ws, { launcher, ...extra });
  return { ws, engine };
}

/** The cgroup v2 path of a process, '' when it is gone. */
function cgroupOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, 'utf8').trim();
  } catch {
    return '';
  }
}

async function oneRun(engine: Awaited<ReturnType<typeof makeEngine>>): Promise<RunRecord> {
  engine.emit('tool_call', PAYLOAD);
  await engine.drain();
  const [run] = engine.runs({ limit: 1 });
  if (run === undefined) throw new Error('no run record');
  return run;
}

describe('[X-PROC-1] the launcher', () => {
  it('the C launcher is built by `npm run build` where cc exists (and not otherwise)', () => {
    const cc = spawnSync(process.env.CC || 'cc', ['--version']).status === 0;
    const simulatedAbsent = process.env.HOOKWERK_NO_NATIVE === '1';
    expect(existsSync(nativeLauncherPath())).toBe(cc && !simulatedAbsent);
  });

  it.each(LAUNCHERS)(
    '[X-PROC-1] [X-PROC-4] %s: the hook is not a child of the agent; its parent has an empty environment',
    async (launcher) => {
      const { ws, engine } = await engineWith(
        launcher,
        'echo $PPID > ppid.txt; tr "\\0" "\\n" < /proc/$PPID/environ | grep -c . > parent-env-count.txt || true',
      );
      const run = await oneRun(engine);
      expect(run).toMatchObject({ outcome: 'ok', exitCode: 0 });
      const ppid = Number(readFileSync(path.join(ws, 'ppid.txt'), 'utf8'));
      const count = Number(readFileSync(path.join(ws, 'parent-env-count.txt'), 'utf8'));
      if (backendOf(launcher) === 'direct') {
        // The fallback: the agent itself forks, and the hook can read its environment.
        expect(ppid).toBe(process.pid);
        expect(count).toBeGreaterThan(0);
      } else {
        expect(ppid).not.toBe(process.pid);
        expect(count).toBe(0);
      }
    },
  );

  it('[X-PROC-1] the C launcher never preempts the agent (SCHED_BATCH); the hook runs with the normal policy', async () => {
    const { ws, engine } = await engineWith(
      'native',
      'grep ^policy /proc/$$/sched > own.txt; grep ^policy /proc/$PPID/sched > parent.txt',
    );
    const run = await oneRun(engine);
    expect(run).toMatchObject({ outcome: 'ok', exitCode: 0 });
    const policy = (file: string) => Number(readFileSync(path.join(ws, file), 'utf8').split(':')[1]);
    // SCHED_BATCH; the Node launcher (HOOKWERK_LAUNCHER=node, no C build) cannot change its policy.
    expect(policy('parent.txt')).toBe(backendOf('native') === 'native' ? 3 : 0);
    expect(policy('own.txt')).toBe(0); // SCHED_OTHER
  });

  it.each(['native', 'node'] as const)(
    '[X-PROC-1] %s: a launcher killed mid-run: the run is recorded (launcher_died), its processes die, the next emit works',
    async (launcher) => {
      const { ws, engine } = await engineWith(
        launcher,
        'echo $PPID > ppid.txt; echo $$ > pid.txt; exec sleep 60',
      );
      engine.emit('tool_call', PAYLOAD);
      const pidFile = path.join(ws, 'pid.txt');
      await waitFor(
        () => pidsIn(path.join(ws, 'ppid.txt')).length > 0 && pidsIn(pidFile).length > 0,
        'the hook to start',
      );
      const [launcherPid] = pidsIn(path.join(ws, 'ppid.txt'));
      const [hookPid] = pidsIn(pidFile);
      // The Node launcher moves a started hook into its run's cgroup right after the spawn returns
      // (the C one clones it there): killed inside that window, the hook stays out of reach
      // (docs/hook-processes.md says so). The test kills it after the move.
      if (detectContainment().kind === 'cgroup2')
        await waitFor(() => cgroupOf(hookPid!) !== cgroupOf(launcherPid!), 'the hook in its own cgroup');
      process.kill(launcherPid!, 'SIGKILL');
      await engine.drain();
      expect(engine.runs({ limit: 1 })[0]).toMatchObject({ outcome: 'spawn_error', cause: 'launcher_died' });
      await waitFor(() => !processAlive(hookPid!), 'the orphaned hook to be killed', 30_000);

      writeScript(ws, 'hook.sh', 'echo again > again.txt');
      expect(await oneRun(engine)).toMatchObject({ outcome: 'ok' });
      expect(readFileSync(path.join(ws, 'again.txt'), 'utf8')).toBe('again\n');
    },
  );

  it.each(LAUNCHERS)(
    '[X-PROC-1] %s: a missing command, a bad cwd and a big stdin behave as with spawn()',
    async (launcher) => {
      const ws = tempDir('hw-launch-');
      writeScript(ws, 'cat.sh', 'wc -c > stdin-bytes.txt');
      writeHooks(ws, {
        tool_call: [
          { id: 'missing', command: 'hw-no-such-command' },
          { id: 'bad-cwd', command: '/bin/true', cwd: '/nonexistent-hw-dir' },
          { id: 'stdin', command: './cat.sh', stdin_json: true },
        ],
      });
      const engine = await makeEngine(ws, { launcher });
      engine.emit('tool_call', { ...PAYLOAD, output: 'x'.repeat(300_000) });
      await engine.drain();
      const runs = Object.fromEntries(engine.runs().map((r) => [r.hook, r]));
      expect(runs.missing).toMatchObject({ outcome: 'spawn_error' });
      expect(runs.missing?.reason).toMatch(/ENOENT/);
      expect(runs['bad-cwd']).toMatchObject({ outcome: 'spawn_error' });
      expect(runs['bad-cwd']?.reason).toMatch(/cwd \/nonexistent-hw-dir is not a directory/);
      expect(runs.stdin).toMatchObject({ outcome: 'ok' });
      expect(Number(readFileSync(path.join(ws, 'stdin-bytes.txt'), 'utf8'))).toBeGreaterThan(300_000);
    },
  );
});

describe('[X-PROC-2] no process outlives its run', () => {
  const LEAVERS = {
    background: 'sleep 60 & echo $! >> kids.txt; exit 0',
    'double fork': '( sleep 61 & echo $! >> kids.txt ) ; exit 0',
    setsid: 'setsid sleep 62 & echo $! >> kids.txt; sleep 0.2; exit 0',
  };

  // A setsid child leaves the process group: only a cgroup joined before exec (the C launcher)
  // catches it for sure; the others join right after the start, and a child forked in that first
  // instant can escape (docs/hook-processes.md says so).
  const CASES = LAUNCHERS.flatMap((l) =>
    Object.keys(LEAVERS)
      .filter((k) => k !== 'setsid' || (backendOf(l) === 'native' && CONTAINMENT_KIND !== 'pgroup'))
      .map((k) => [l, k] as const),
  );
  it.each(CASES)('[X-PROC-2] %s launcher, %s child: killed once the hook exits', async (launcher, kind) => {
    const { ws, engine } = await engineWith(launcher, LEAVERS[kind as keyof typeof LEAVERS]);
    const run = await oneRun(engine);
    expect(run).toMatchObject({ outcome: 'ok', exitCode: 0 });
    const kids = pidsIn(path.join(ws, 'kids.txt'));
    expect(kids).toHaveLength(1);
    leftovers.push(...kids);
    await waitFor(() => !processAlive(kids[0]!), `the ${kind} child to be gone`);
  });

  it.each(LAUNCHERS)(
    '[X-PROC-2] %s: keep_children: true leaves them running, even past close()',
    async (launcher) => {
      const { ws, engine } = await engineWith(launcher, 'sleep 60 & echo $! >> kids.txt; exit 0', {
        keep_children: true,
      });
      const run = await oneRun(engine);
      expect(run).toMatchObject({ outcome: 'ok', exitCode: 0 });
      const kids = pidsIn(path.join(ws, 'kids.txt'));
      leftovers.push(...kids);
      await engine.close();
      expect(processAlive(kids[0]!)).toBe(true);
    },
  );

  it('[X-PROC-2] a timed-out hook that ignores SIGTERM and started a setsid child: everything is killed', async () => {
    const { ws, engine } = await engineWith(
      'native',
      'trap "" TERM; setsid sh -c \'trap "" TERM; sleep 60\' & echo $! >> kids.txt; echo $$ >> kids.txt; sleep 60',
      { timeout_ms: 300 },
    );
    const run = await oneRun(engine);
    expect(run).toMatchObject({ outcome: 'timeout' });
    const kids = pidsIn(path.join(ws, 'kids.txt'));
    leftovers.push(...kids);
    // The run ends once they are gone. The hook goes with its group on every backend; its setsid
    // child is sure to be caught only by a cgroup joined before exec (the C launcher).
    const [child, hook] = kids as [number, number];
    expect(processAlive(hook), `pid ${hook}`).toBe(false);
    if (CONTAINMENT_KIND === 'pgroup' || backendOf('native') !== 'native') return;
    expect(processAlive(child), `pid ${child}`).toBe(false);
  });
});

describe('[X-PROC-3] bounded shutdown', () => {
  it.each(LAUNCHERS)(
    '[X-PROC-3] %s: close() with a 10-minute hook returns after the grace and leaves nothing',
    async (launcher) => {
      const { ws, engine } = await engineWith(
        launcher,
        'echo "$ZERO_HOOK_PAYLOAD_FILE" > payload-path.txt; echo $$ > pid.txt; sleep 600',
        { timeout_ms: 600_000 },
        { shutdownGraceMs: 200 },
      );
      engine.emit('tool_call', PAYLOAD);
      await waitFor(() => pidsIn(path.join(ws, 'pid.txt')).length > 0, 'the hook to start');
      const [pid] = pidsIn(path.join(ws, 'pid.txt'));
      const t0 = performance.now();
      await engine.close();
      const took = performance.now() - t0;
      // Grace, then SIGTERM (sleep dies at once); generous upper bound for a loaded machine.
      expect(took).toBeGreaterThanOrEqual(150);
      expect(took).toBeLessThan(200 + 5000);
      expect(processAlive(pid!)).toBe(false);
      const [run] = engine.runs({ limit: 1 });
      expect(run).toMatchObject({ outcome: 'timeout' });
      // No payload file left, nor the engine's private folder it was in.
      const payload = readFileSync(path.join(ws, 'payload-path.txt'), 'utf8').trim();
      expect(payload).not.toBe('');
      expect(existsSync(payload)).toBe(false);
      expect(existsSync(path.dirname(payload))).toBe(false);
    },
  );
});

describe('[X-PROC-3] the CLI on SIGTERM: the grace, then everything stopped, nothing left', () => {
  /** Starts the CLI, waits for the hook's pid file, sends SIGTERM, resolves with the exit code. */
  async function stopMidRun(args: string[], cwd: string, home: string, pidFile: string) {
    const child = spawn(process.execPath, [BIN, ...args, '--shutdown-grace-ms', '100'], {
      cwd,
      env: { ...cleanEnv(), HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let early: number | null | undefined;
    exited.then((code) => {
      early = code;
    });
    await waitFor(() => pidsIn(pidFile).length > 0 || early !== undefined, 'the hook to start', 10_000);
    expect(early, `the command ended before the hook started: ${stderr}`).toBeUndefined();
    child.kill('SIGTERM');
    return { code: await exited, stderr };
  }

  it('[X-PROC-3] `decide` with a 10-minute hook: exit 143, the hook is gone', async () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    const lurus = path.join(home, '.lurus');
    writeScript(lurus, 'slow.sh', `echo $$ > ${path.join(project, 'pid.txt')}; sleep 600`);
    writeFileSync(
      path.join(lurus, 'hooks.json'),
      JSON.stringify({
        PreToolUse: [
          { hooks: [{ type: 'command', command: `sh ${path.join(lurus, 'slow.sh')}`, timeout: 600_000 }] },
        ],
      }),
    );
    const pidFile = path.join(project, 'pid.txt');
    const r = await stopMidRun(['decide', 'PreToolUse', '--project', project], project, home, pidFile);
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/SIGTERM: stopping running hooks/);
    expect(processAlive(pidsIn(pidFile)[0]!)).toBe(false);
  });

  it('[X-PROC-3] `emit --wait` with a 10-minute hook: exit 143, the hook is gone, and so is its payload file', async () => {
    const ws = tempDir('hw-launch-');
    writeScript(
      ws,
      'hook.sh',
      'echo "$ZERO_HOOK_PAYLOAD_FILE" > payload-path.txt; echo $$ > pid.txt; sleep 600',
    );
    writeHooks(ws, { tool_call: [{ command: './hook.sh', timeout_ms: 600_000 }] });
    const pidFile = path.join(ws, 'pid.txt');
    const payload = JSON.stringify(PAYLOAD);
    const r = await stopMidRun(
      ['emit', 'tool_call', '--workspace', ws, '--payload', payload, '--wait'],
      ws,
      tempDir(),
      pidFile,
    );
    expect(r.code, r.stderr).toBe(143);
    expect(processAlive(pidsIn(pidFile)[0]!)).toBe(false);
    const file = readFileSync(path.join(ws, 'payload-path.txt'), 'utf8').trim();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(path.dirname(file))).toBe(false);
  });
});

describe('[X-PROC-2] containment on this host', () => {
  it('detects a cgroup (v2 with cgroup.kill here), never reuses a run cgroup, and removes its folder on close', async () => {
    const c = detectContainment();
    expect(['cgroup2', 'cgroup2-freeze', 'freezer', 'pgroup']).toContain(c.kind);
    const run = c.create(false);
    if (run.procs !== undefined) {
      // The backend makes it right before the start: a real cgroup, with its own cgroup.procs.
      expect(makeRunCgroup(run.procs)).toBe(true);
      expect(existsSync(run.procs)).toBe(true);
      run.release();
      // Gone after its run, and the next run gets another one: no pool [X-PROC-2].
      expect(existsSync(path.dirname(run.procs))).toBe(false);
      const again = c.create(false);
      expect(again.procs).not.toBe(run.procs);
      again.release();
      c.close();
      expect(existsSync(path.dirname(path.dirname(run.procs)))).toBe(false);
    }
    c.close();
  });

  it('sweeps the folders of engines whose process died without closing them', async () => {
    const c = detectContainment();
    const run = c.create(false);
    run.release();
    c.close();
    if (run.procs === undefined) return;
    // Where this process's engines put their folders: two levels above a run's cgroup.procs.
    const base = path.dirname(path.dirname(path.dirname(run.procs)));
    const dead = spawnSync('true').pid;
    const stale = path.join(base, `hookwerk-${dead}-0badc0de`);
    // A hook that ran hookwerk itself nests an engine folder inside its run cgroup.
    mkdirSync(path.join(stale, 'run-1', `hookwerk-${dead}-0badc0de`, 'run-1'), { recursive: true });
    const live = path.join(base, `hookwerk-${process.pid}-0badc0de`);
    mkdirSync(live);
    try {
      detectContainment().close();
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      rmdirSync(live);
    }
  });
});
