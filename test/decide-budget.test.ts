/**
 * [G-FAIL-4] `decide(event, input, { timeoutMs })`: every run is cut to what is left of the
 * budget, its kill grace included, so even a hook that ignores SIGTERM has ended when the decide
 * settles; a run cut short ends as a timeout and its failMode decides (a closed guard denies, an
 * open one gives no opinion); nothing rejects. Real processes; no timing asserted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookEngine } from '../src/engine-api.ts';
import { withinDeadline } from '../src/runners/run-budget.ts';
import { makeEngine } from './engine-harness.ts';
import { processAlive, tempDir, writeScript } from './helpers.ts';

const trustAll = () => ({ trusted: true, reason: 'test' });

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** A hook that writes its pid, ignores SIGTERM and sleeps: only SIGKILL ends it. */
function stubborn(dir: string, name: string): { script: string; pids: string } {
  const pids = path.join(dir, `${name}.pid`);
  return { script: writeScript(dir, name, `echo $$ > '${pids}'\ntrap '' TERM\nsleep 30`), pids };
}

const pidOf = (file: string) => Number(readFileSync(file, 'utf8').trim());

describe('[G-FAIL-4] decide(…, { timeoutMs }): a budget for the whole decide', () => {
  it('Claude Code dialect: a closed guard still running is cut and denies, an open one gives no opinion; both recorded as timeouts', async () => {
    const project = tempDir('hw-budget-claude-');
    const closed = stubborn(project, 'closed.sh');
    const open = stubborn(project, 'open.sh');
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: closed.script, failMode: 'closed' }] },
          { matcher: 'Read', hooks: [{ type: 'command', command: open.script }] },
        ],
      },
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-budget-home-'),
      gateDialect: 'claude',
      claude: { managedSettings: path.join(project, 'no-managed.json') },
      trust: trustAll,
    });
    const [deny, none] = await Promise.all([
      engine.decide('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { timeoutMs: 1000 }),
      engine.decide('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } }, { timeoutMs: 1000 }),
    ]);
    expect(deny).toMatchObject({ decision: 'deny', blocked: true });
    expect('reason' in deny ? deny.reason : '').toContain('timed out');
    expect(deny.runs.map((r) => [r.outcome, r.failed])).toEqual([['timeout', 'closed']]);
    expect(none).toMatchObject({ blocked: false });
    expect(none.runs.map((r) => [r.outcome, r.failed])).toEqual([['timeout', 'open']]);
    for (const file of [closed.pids, open.pids]) expect(processAlive(pidOf(file))).toBe(false);
  });

  it('Lurus dialect: a closed guard cut by the budget denies', async () => {
    const project = tempDir('hw-budget-lurus-');
    const closed = stubborn(project, 'closed.sh');
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      PreToolUse: [{ hooks: [{ type: 'command', command: closed.script, failMode: 'closed' }] }],
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-budget-lurus-home-'),
      trust: trustAll,
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash', toolInput: {} }, { timeoutMs: 800 });
    expect(d).toMatchObject({ decision: 'deny' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['timeout']);
    expect(processAlive(pidOf(closed.pids))).toBe(false);
  });

  it('a timeoutMs that is not a finite number of ms, at least 0, is refused', async () => {
    const engine = await makeEngine(undefined, { projectDir: tempDir('hw-budget-bad-'), trust: trustAll });
    // A JavaScript caller may pass anything.
    const decide = (opts: unknown) =>
      engine.decide('PreToolUse', { toolName: 'Bash' }, opts as Parameters<HookEngine['decide']>[2]);
    for (const timeoutMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5'])
      await expect(decide({ timeoutMs })).rejects.toMatchObject({ code: 'HOOK_INPUT', field: 'timeoutMs' });
  });

  it('withinDeadline: a run that fits is left alone; one that does not is cut, its grace too', () => {
    expect(withinDeadline(10_000, undefined, 0)).toEqual({ timeoutMs: 10_000 });
    expect(withinDeadline(1000, 60_000, 0)).toEqual({ timeoutMs: 1000 });
    const cut = withinDeadline(600_000, 2000, 0);
    expect(cut.killGraceMs).toBe(500);
    expect(cut.timeoutMs + (cut.killGraceMs ?? 0)).toBeLessThan(2000);
    expect(withinDeadline(600_000, 0, 100)).toEqual({ timeoutMs: 0, killGraceMs: 20 });
  });
});
