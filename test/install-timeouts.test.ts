/**
 * [G-FAIL-4] The timeouts `hookwerk install` writes come from the policy (the user's, the
 * project's, and Claude Code's files when the policy includes them for another agent): the longest
 * handler of the entry's event plus 5 s, capped at what the agent accepts, in its unit, and the
 * same number as the command's `--timeout`. A policy changed afterwards to a longer timeout is
 * named by `hookwerk hook` (once a day) and by `installTimeoutWarnings` (for validate). Real
 * `hookwerk install` / `hookwerk hook` processes on real files in a temp HOME and project.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../src/core/plain-object.ts';
import { firstTimeToday } from '../src/hook/daily-warnings.ts';
import { installTimeoutWarnings } from '../src/install/install-timeout-warnings.ts';
import { runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

interface World {
  home: string;
  project: string;
}

function world(): World {
  const root = tempDir('hw-install-timeouts-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  return { home, project };
}

function put(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** Claude Code's shape: one group per event, each handler `{type: command, command, …extra}`. */
function hooks(spec: Record<string, ReadonlyArray<Record<string, unknown>>>): unknown {
  return Object.fromEntries(
    Object.entries(spec).map(([event, handlers]) => [
      event,
      [{ hooks: handlers.map((h) => ({ type: 'command', command: 'true', ...h })) }],
    ]),
  );
}

/** hookwerk's entry for `event` in a settings file: its handler (Claude's shape) or the entry itself (flat). */
function entryOf(file: string, event: string): Record<string, unknown> {
  const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const list = isPlainObject(value) && isPlainObject(value.hooks) ? value.hooks[event] : undefined;
  for (const item of Array.isArray(list) ? list : []) {
    const handlers: unknown[] = isPlainObject(item) && Array.isArray(item.hooks) ? item.hooks : [item];
    for (const h of handlers) if (isPlainObject(h) && /hookwerk/.test(String(h.command ?? h.bash))) return h;
  }
  throw new Error(`${file}: no hookwerk entry for ${event}`);
}

/** The entry's timeout field and the `--timeout` of its command. */
function timeoutsOf(file: string, event: string, field = 'timeout'): { field: unknown; flag: string } {
  const entry = entryOf(file, event);
  const command = String(entry.command ?? entry.bash);
  return { field: entry[field], flag: /--timeout (\S+)$/.exec(command)?.[1] ?? 'none' };
}

describe('[G-FAIL-4] install writes entry timeouts from the policy', () => {
  it('the longest handler of the event + 5 s (600 s without one), the agent default without handlers, in the agent unit, also as --timeout', async () => {
    const w = world();
    put(path.join(w.home, '.hookwerk', 'policy.json'), {
      include: ['claude'],
      hooks: hooks({
        PreToolUse: [{ timeout: 90, failMode: 'closed' }, { timeout: 12 }],
        Stop: [{}],
      }),
    });
    put(path.join(w.project, '.hookwerk', 'policy.json'), {
      hooks: hooks({ PostToolUse: [{ timeout: 20 }] }),
    });
    // Included for every agent but Claude Code, which runs its own files itself [R-POL-1].
    put(path.join(w.project, '.claude', 'settings.json'), {
      hooks: hooks({ UserPromptSubmit: [{ timeout: 50 }] }),
    });

    const gemini = await runCli(['install', '--agent', 'gemini', '--project', w.project], { home: w.home });
    expect(gemini.code, gemini.stderr).toBe(0);
    const g = path.join(w.project, '.gemini', 'settings.json');
    expect(timeoutsOf(g, 'BeforeTool')).toEqual({ field: 95_000, flag: '95' });
    expect(timeoutsOf(g, 'AfterAgent')).toEqual({ field: 605_000, flag: '605' });
    expect(timeoutsOf(g, 'AfterTool')).toEqual({ field: 25_000, flag: '25' });
    expect(timeoutsOf(g, 'BeforeAgent')).toEqual({ field: 55_000, flag: '55' });
    expect(timeoutsOf(g, 'SessionStart')).toEqual({ field: 60_000, flag: '60' });
    expect(gemini.stdout).toMatch(/timeouts \(s\): .*95 BeforeTool/);

    const copilot = await runCli(['install', '--agent', 'copilot', '--project', w.project], { home: w.home });
    expect(copilot.code, copilot.stderr).toBe(0);
    const p = path.join(w.project, '.github', 'hooks', 'hookwerk.json');
    expect(timeoutsOf(p, 'preToolUse', 'timeoutSec')).toEqual({ field: 95, flag: '95' });
    expect(timeoutsOf(p, 'userPromptSubmitted', 'timeoutSec')).toEqual({ field: 55, flag: '55' });
    expect(timeoutsOf(p, 'sessionStart', 'timeoutSec')).toEqual({ field: 30, flag: '30' });

    // (Last: its entries in .claude/settings.json would be included Claude Code hooks for the others.)
    const claude = await runCli(['install', '--agent', 'claude', '--project', w.project], { home: w.home });
    expect(claude.code, claude.stderr).toBe(0);
    const c = path.join(w.project, '.claude', 'settings.json');
    expect(timeoutsOf(c, 'PreToolUse')).toEqual({ field: 95, flag: '95' });
    expect(timeoutsOf(c, 'Stop')).toEqual({ field: 605, flag: '605' });
    expect(timeoutsOf(c, 'UserPromptSubmit')).toEqual({ field: 30, flag: '30' });
    expect(timeoutsOf(c, 'SessionStart')).toEqual({ field: 600, flag: '600' });
  });

  it('capped at what the agent accepts, with a warning when that cuts a closed guard short', async () => {
    const w = world();
    put(path.join(w.home, '.hookwerk', 'policy.json'), {
      hooks: hooks({ SessionEnd: [{ timeout: 10, failMode: 'closed' }], PreToolUse: [{ timeout: 10 }] }),
    });
    const r = await runCli(['install', '--agent', 'codex', '--user'], { home: w.home, cwd: w.project });
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(w.home, '.codex', 'hooks.json');
    // Codex clamps a SessionEnd hook to 3 s.
    expect(timeoutsOf(file, 'SessionEnd')).toEqual({ field: 3, flag: '3' });
    expect(timeoutsOf(file, 'PreToolUse')).toEqual({ field: 15, flag: '15' });
    expect(r.stderr).toMatch(
      /^hookwerk: warning: a failMode "closed" SessionEnd handler .* has a timeout of 10 s, but Codex CLI waits at most 3 s for SessionEnd: hookwerk hook stops it and denies \("timed out"\)/m,
    );
    expect(r.stderr).not.toMatch(/PreToolUse handler/);
  });
});

describe('[G-FAIL-4] a policy changed after install to a longer timeout', () => {
  const bash = (w: World) =>
    JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's1',
      cwd: w.project,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });

  it('hookwerk hook warns once a day on stderr, and installTimeoutWarnings (validate) names hookwerk install', async () => {
    const w = world();
    const policy = path.join(w.home, '.hookwerk', 'policy.json');
    put(policy, { hooks: hooks({ PreToolUse: [{ timeout: 10, failMode: 'closed' }] }) });
    const r = await runCli(['install', '--agent', 'claude', '--project', w.project], { home: w.home });
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(w.project, '.claude', 'settings.json');
    expect(timeoutsOf(file, 'PreToolUse')).toEqual({ field: 15, flag: '15' });
    expect(installTimeoutWarnings({ projectDir: w.project, home: w.home })).toEqual([]);

    put(policy, { hooks: hooks({ PreToolUse: [{ timeout: 100, failMode: 'closed' }] }) });
    const command = String(entryOf(file, 'PreToolUse').command);
    // As Claude Code runs it: /bin/sh -c, the input on stdin.
    const run = () =>
      spawnSync('/bin/sh', ['-c', command], {
        input: bash(w),
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: w.home, HOOKWERK_DAEMON_SOCKET: path.join(w.home, 'none.sock') },
      });
    const first = run();
    expect({ code: first.status, stdout: first.stdout }, first.stderr).toEqual({ code: 0, stdout: '' });
    expect(first.stderr).toMatch(
      /^hookwerk: warning: the policy's PreToolUse handlers need a 105 s timeout, but this entry gives hookwerk hook 15 s \(--timeout\).* run `hookwerk install --agent claude` again/m,
    );
    const second = run();
    expect({ code: second.status, stdout: second.stdout }).toEqual({ code: 0, stdout: '' });
    expect(second.stderr).not.toMatch(/warning/);

    const warnings = installTimeoutWarnings({ projectDir: w.project, home: w.home });
    expect(warnings).toEqual([
      {
        file,
        path: '$.hooks.PreToolUse[0]',
        level: 'warning',
        message: expect.stringMatching(
          /need a 105 s timeout, but this hookwerk entry gives hookwerk hook 15 s: .*run `hookwerk install --agent claude --project .*` again$/,
        ),
      },
    ]);

    // Installed again: the longer timeout, and nothing more to say.
    const again = await runCli(['install', '--agent', 'claude', '--project', w.project], { home: w.home });
    expect(again.code, again.stderr).toBe(0);
    // Its own entries of last time: updated (stdout), not reported as replaced (stderr).
    expect(again.stdout).toMatch(/entries updated or replaced by install's own: PreToolUse$/m);
    expect(again.stderr).not.toMatch(/replaced/);
    expect(timeoutsOf(file, 'PreToolUse')).toEqual({ field: 105, flag: '105' });
    expect(installTimeoutWarnings({ projectDir: w.project, home: w.home })).toEqual([]);
  });

  it('"once a day": a stamp per warning under ~/.hookwerk, reset the next day', () => {
    const home = tempDir('hw-daily-');
    const day = new Date('2030-05-01T10:00:00Z');
    expect(firstTimeToday(home, 'a', day)).toBe(true);
    expect(firstTimeToday(home, 'a', day)).toBe(false);
    expect(firstTimeToday(home, 'b', day)).toBe(true);
    expect(firstTimeToday(home, 'a', new Date('2030-05-02T10:00:00Z'))).toBe(true);
    // Bounded: many keys keep the file small.
    for (let i = 0; i < 80; i++) firstTimeToday(home, `k${i}`, day);
    expect(readFileSync(path.join(home, '.hookwerk', 'warned-today.json'), 'utf8').length).toBeLessThan(2000);
  });
});
