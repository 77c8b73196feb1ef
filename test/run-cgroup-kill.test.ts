/**
 * [X-PROC-2] A hook that writes `cgroup.kill` (issue 28, item 10): its own cgroup's, or the one
 * the next run would get. A cgroup that was ever killed kills every process later cloned into it
 * (CLONE_INTO_CGROUP, Linux 6.18 here), so a run cgroup that went back to a pool poisoned every
 * later run of the engine: an open guard then answered allow. Now no run cgroup is ever used
 * twice, and a folder not made for the run is never used. Real hooks, real cgroups where the host
 * lets us make them (each launcher); the unit test at the end runs on any host.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { CgroupContainment, detectContainment, makeRunCgroup } from '../src/runners/containment.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, waitFor, writeScript } from './helpers.ts';

/** What this host offers: probed once, nothing left behind. */
const HOST = (() => {
  const c = detectContainment();
  const kind = c.kind;
  c.create(false).release();
  c.close();
  return kind;
})();
/** Only cgroup v2 with `cgroup.kill` lets a hook kill its cgroup in one write. */
const KILLABLE = HOST === 'cgroup2';
const MOUNT = existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup' : '/sys/fs/cgroup/unified';
const LAUNCHERS = ['native', 'node', 'direct'] as const;

/**
 * The hook's first lines: with the Node launcher and the direct fallback a hook joins its cgroup
 * just after it starts, so it waits to be in a run cgroup before it looks for its own.
 */
const WAIT_FOR_RUN_CGROUP = KILLABLE
  ? "i=0; while [ $i -lt 500 ] && ! grep -q '/run-[0-9]*$' /proc/self/cgroup; do i=$((i+1)); sleep 0.01; done"
  : ':';

/**
 * A guard that denies `rm -rf` (exit 2), except on its first run: then it writes `cgroup.kill` —
 * of its own cgroup (`own`), or of the cgroup the engine's next run will get, made by the hook
 * (`next`) — and the first run ends as that leaves it.
 */
function guard(dir: string, target: 'own' | 'next'): string {
  const kill =
    target === 'own'
      ? 'echo 1 > "$run/cgroup.kill" && exec sleep 60'
      : [
          `n=$(basename "$run" | sed 's/^run-//')`,
          'next="$(dirname "$run")/run-$((n+1))"',
          'mkdir "$next" && echo 1 > "$next/cgroup.kill" && echo "$next" > next.txt',
        ].join('; ');
  return writeScript(
    dir,
    'guard.sh',
    [
      'cat > /dev/null',
      `cd '${dir}'`,
      'if [ ! -e first-run ]; then',
      '  : > first-run',
      `  ${WAIT_FOR_RUN_CGROUP}`,
      `  run="${MOUNT}$(sed -n 's/^0:://p' /proc/self/cgroup)"`,
      '  echo "$run" > run.txt',
      KILLABLE ? `  ${kill}` : '  :',
      '  exit 0',
      'fi',
      "echo 'rm -rf is not allowed here' >&2",
      'exit 2',
    ].join('\n'),
  );
}

/** A Claude Code engine whose user settings run `guard.sh` before every Bash call (an open guard). */
async function engineWithGuard(target: 'own' | 'next', launcher: (typeof LAUNCHERS)[number]) {
  const dir = tempDir('hw-cgkill-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  // exec: the guard is the process the launcher started (the Node launcher and the direct fallback
  // move that pid into its cgroup after the start; a child the shell forked first would stay out).
  const command = `exec '${guard(dir, target)}'`;
  const settings = path.join(home, '.claude', 'settings.json');
  mkdirSync(path.dirname(settings), { recursive: true });
  writeFileSync(
    settings,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }),
  );
  const engine = await makeEngine(undefined, {
    projectDir: project,
    home,
    gateDialect: 'claude',
    claude: { managedSettings: path.join(home, 'managed-settings.json'), plugins: [] },
    trust: () => ({ trusted: true, reason: 'test' }),
    launcher,
  });
  return { dir, engine };
}

async function rmRf(engine: HookEngine): Promise<AgentDecision> {
  const d = await engine.decide('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
  if (!('runs' in d) || !('continue' in d)) throw new Error('not a Claude Code decision');
  return d;
}

describe('[X-PROC-2] a hook that writes cgroup.kill poisons no later run', () => {
  it.each(LAUNCHERS)(
    '[X-PROC-2] %s launcher: a guard that kills its own cgroup dies; the next runs of the same engine run, and its deny is a deny',
    async (launcher) => {
      const { dir, engine } = await engineWithGuard('own', launcher);
      const first = await rmRf(engine);
      expect(first.blocked).toBe(false);
      if (KILLABLE) {
        // It did kill itself, through its own cgroup (a run cgroup of this engine).
        expect(first.runs[0]).toMatchObject({ outcome: 'error', signal: 'SIGKILL' });
        expect(readFileSync(path.join(dir, 'run.txt'), 'utf8')).toMatch(
          /\/hookwerk-\d+-[0-9a-f]+\/run-\d+\n$/,
        );
      }
      for (let i = 0; i < 2; i++) {
        const next = await rmRf(engine);
        expect(next.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
        expect(next).toMatchObject({ blocked: true, decision: 'deny' });
        expect(next.reason).toContain('rm -rf is not allowed here');
      }
      // The killed cgroup is gone (the launcher removes it once idle), not kept for another run.
      if (KILLABLE) {
        const killed = readFileSync(path.join(dir, 'run.txt'), 'utf8').trim();
        await waitFor(() => !existsSync(killed), `${killed} removed`);
      }
    },
  );

  it.each(LAUNCHERS)(
    '[X-PROC-2] %s launcher: a guard that makes and kills the cgroup the next run would get: the next run goes without it, and its deny is a deny',
    async (launcher) => {
      const { dir, engine } = await engineWithGuard('next', launcher);
      const first = await rmRf(engine);
      expect(first.blocked).toBe(false);
      if (KILLABLE) expect(existsSync(path.join(dir, 'next.txt'))).toBe(true);
      const next = await rmRf(engine);
      expect(next.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
      expect(next).toMatchObject({ blocked: true, decision: 'deny' });
    },
  );
});

describe('[X-PROC-2] a run cgroup is removed after its run', () => {
  it.each(LAUNCHERS)(
    '[X-PROC-2] %s launcher: after the run its cgroup is gone, with a cgroup the hook made inside it',
    async (launcher) => {
      const dir = tempDir('hw-cgnest-');
      const script = writeScript(
        dir,
        'hook.sh',
        [
          WAIT_FOR_RUN_CGROUP,
          `run="${MOUNT}$(sed -n 's/^0:://p' /proc/self/cgroup)"`,
          `echo "$run" > '${dir}/run.txt'`,
          KILLABLE ? `mkdir "$run/inner" && : > '${dir}/made-inner'` : ':',
        ].join('\n'),
      );
      writeFileSync(
        path.join(dir, 'hooks.json'),
        JSON.stringify({ hooks: { tool_call: [{ command: script }] } }),
      );
      const engine = await makeEngine(dir, { launcher });
      engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
      await engine.drain();
      expect(engine.runs({ limit: 1 })[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
      if (!KILLABLE) return;
      expect(existsSync(path.join(dir, 'made-inner'))).toBe(true);
      // Gone after the run, with the engine still open: not at its close. A launcher removes it
      // once the run's EXIT has left and it has nothing else to do, so it is waited for.
      const run = readFileSync(path.join(dir, 'run.txt'), 'utf8').trim();
      await waitFor(() => !existsSync(run), `${run} removed`);
    },
  );

  it.each(LAUNCHERS)(
    '[X-PROC-2] %s launcher: a burst of runs: each had a cgroup no other run had, all are removed while the engine runs, and none is left after its close',
    async (launcher) => {
      const dir = tempDir('hw-cgburst-');
      const list = path.join(dir, 'cgroups.txt');
      const script = writeScript(
        dir,
        'hook.sh',
        [
          WAIT_FOR_RUN_CGROUP,
          // One short line per run, appended (O_APPEND): runs in flight do not mix their lines.
          `echo "${MOUNT}$(sed -n 's/^0:://p' /proc/self/cgroup)" >> '${list}'`,
        ].join('\n'),
      );
      const HOOKS = 6;
      const EVENTS = 3;
      writeFileSync(
        path.join(dir, 'hooks.json'),
        JSON.stringify({
          hooks: { tool_call: Array.from({ length: HOOKS }, (_, i) => ({ id: `h${i}`, command: script })) },
        }),
      );
      const engine = await makeEngine(dir, { launcher });
      for (let i = 0; i < EVENTS; i++)
        engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
      await engine.drain();
      const runs = engine.runs({ limit: 100 });
      expect(runs).toHaveLength(HOOKS * EVENTS);
      for (const r of runs) expect(r).toMatchObject({ outcome: 'ok', exitCode: 0 });
      if (!KILLABLE) return;
      const cgroups = readFileSync(list, 'utf8').trim().split('\n');
      expect(cgroups).toHaveLength(HOOKS * EVENTS);
      for (const cg of cgroups) expect(cg).toMatch(/\/hookwerk-\d+-[0-9a-f]+\/run-\d+$/);
      // Never handed to a later run: as many cgroups as runs.
      expect(new Set(cgroups).size).toBe(cgroups.length);
      // Removed after their runs while the engine is open (not at its close).
      await waitFor(() => cgroups.every((cg) => !existsSync(cg)), 'every run cgroup removed');
      const parent = path.dirname(cgroups[0] ?? '');
      expect(existsSync(parent)).toBe(true);
      // A burst again, and the engine closed at once: what a launcher had yet to remove goes too.
      for (let i = 0; i < EVENTS; i++)
        engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
      await engine.drain();
      await engine.close();
      expect(existsSync(parent)).toBe(false);
      const all = readFileSync(list, 'utf8').trim().split('\n');
      expect(all).toHaveLength(2 * HOOKS * EVENTS);
      expect(new Set(all).size).toBe(all.length);
    },
  );
});

describe('[X-PROC-2] the decision, unit level', () => {
  it('[X-PROC-2] unit level, on any host (no cgroup delegation needed): a run cgroup is never handed out twice, is removed after its run, and a folder not made for the run is never used', () => {
    const base = tempDir('hw-cgunit-');
    const parent = path.join(base, 'hookwerk-1-00');
    const c = new CgroupContainment('cgroup2', base, parent);
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const run = c.create(false);
      const procs = run.procs ?? '';
      expect(seen.has(procs)).toBe(false);
      seen.add(procs);
      // The backend makes it right before the start; after the run it goes (no pool).
      expect(makeRunCgroup(procs)).toBe(true);
      run.release(true);
      expect(existsSync(path.dirname(procs))).toBe(false);
    }
    // A folder already there under the next run's name (a hook made it, and killed it): not used.
    const next = c.create(false);
    const planted = path.dirname(next.procs ?? '');
    mkdirSync(planted);
    expect(makeRunCgroup(next.procs ?? '')).toBe(false);
    next.release(true);
    c.close();
    expect(existsSync(parent)).toBe(false);
  });
});
