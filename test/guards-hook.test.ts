/**
 * [G-LIB-1, G-LIB-2, R-HOOK-1, R-HOOK-2, R-HOOK-4, G-FAIL-1, G-FAIL-5] The guards through real
 * processes: `bin/hookwerk.js hook --agent claude` (the built CLI, as Claude Code's hook entry
 * calls it) with a user policy turning guards on — a deny, an ask and no objection read back in
 * Claude Code's protocol; a policy naming a guard hookwerk does not ship denies with the file's
 * error; `explain` lists the guards in force; the journal names the guard; with the fast path's
 * index written, a Bash call still reaches the guards, a Read call (no guard reads it) does not,
 * and a failing engine denies because a guard is on. The corpora: guard-corpus.test.ts.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHookCall } from '../src/hook/hook-call.ts';
import { type CliResult, runCli } from './cli-runner.ts';
import { tempDir, waitFor } from './helpers.ts';

function world(policy: unknown) {
  const root = tempDir('hw-guardhook-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(project, 'build'), { recursive: true });
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify(policy));
  return { home, project };
}

const GUARDS = { guards: { 'destructive-delete': true, 'force-push': true, publish: true } };

const bash = (command: string, cwd: string) => ({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  cwd,
  tool_name: 'Bash',
  tool_input: { command },
});

function hook(w: { home: string; project: string }, input: unknown): Promise<CliResult> {
  return runCli(['hook', '--agent', 'claude'], {
    home: w.home,
    cwd: w.project,
    env: { CLAUDE_PROJECT_DIR: w.project, HOOKWERK_DAEMON: 'off' },
    stdin: { text: JSON.stringify(input) },
  });
}

function answer(r: CliResult): { decision: string; reason: string } {
  expect(r.code, r.stderr).toBe(0);
  const out = r.stdout.trim() === '' ? {} : JSON.parse(r.stdout);
  return {
    decision: out.hookSpecificOutput?.permissionDecision ?? 'none',
    reason: out.hookSpecificOutput?.permissionDecisionReason ?? '',
  };
}

describe('[G-LIB-1, R-HOOK-1] hookwerk hook --agent claude with guards on, as a real process', () => {
  it('stops rm -fr ~ and git push origin main --force, asks before npm publish, lets the everyday through', async () => {
    const w = world(GUARDS);
    const [home, push, publish, modules, feature, test] = await Promise.all([
      hook(w, bash('rm -fr ~', w.project)),
      hook(w, bash('git push origin main --force', w.project)),
      hook(w, bash('npm publish', w.project)),
      hook(w, bash('rm -rf node_modules', w.project)),
      hook(w, bash('git push origin feature', w.project)),
      hook(w, bash('npm test', w.project)),
    ]);
    expect(answer(home)).toEqual({
      decision: 'deny',
      reason: '~/.hookwerk/policy.json: guards.destructive-delete: rm -fr ~ deletes the home folder (~)',
    });
    expect(answer(push)).toEqual({
      decision: 'deny',
      reason:
        '~/.hookwerk/policy.json: guards.force-push: git push origin main --force force-pushes main, a protected branch',
    });
    expect(answer(publish)).toEqual({
      decision: 'ask',
      reason: '~/.hookwerk/policy.json: guards.publish: npm publish publishes a package to its registry',
    });
    for (const r of [modules, feature, test]) expect(answer(r).decision).toBe('none');
  });

  it('[G-FAIL-1] a guard hookwerk does not ship denies with the file, JSON path and cause', async () => {
    const w = world({ guards: { 'force-push': true, 'no-secrets': true } });
    const r = answer(await hook(w, bash('ls', w.project)));
    expect(r.decision).toBe('deny');
    expect(r.reason).toBe(
      'hookwerk: ~/.hookwerk/policy.json: $.guards["no-secrets"]: unknown guard "no-secrets" (the guards are destructive-delete, secrets, force-push, outside-project, publish, pipe-to-shell, self-protect) — fix it, or check it with hookwerk validate',
    );
  });

  it('[G-FAIL-5, R-HOOK-3] explain lists the guards in force; the journal names the guard', async () => {
    const w = world(GUARDS);
    answer(await hook(w, bash('rm -rf ~', w.project)));
    const [explain, runs] = await Promise.all([
      runCli(
        [
          'explain',
          'PreToolUse',
          '--dialect',
          'policy',
          '--project',
          w.project,
          '--tool',
          'Bash',
          '--input',
          '{"command":"sudo rm -rf /"}',
        ],
        { home: w.home },
      ),
      runCli(['runs', '--agent', 'claude', '--json'], { home: w.home }),
    ]);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toMatch(/1\. RUNS +guards\.destructive-delete/);
    expect(explain.stdout).toContain(
      'guard of ~/.hookwerk/policy.json (deny): denies: rm -rf / deletes the root folder /',
    );
    expect(explain.stdout).toMatch(/2\. no match +guards\.force-push/);
    expect(explain.stdout).toMatch(/3\. no match +guards\.publish/);
    expect(runs.stdout).toContain('"hook":"guards.destructive-delete"');
    expect(runs.stdout).toContain('"cause":"guard"');
  });
});

describe('[R-HOOK-4, R-HOOK-2] the fast path knows the guards', () => {
  it('with the index written a Bash call reaches the guards, a WebFetch call does not; a failing engine denies', async () => {
    const w = world({ guards: { 'force-push': true } });
    const input = bash('git push -f origin main', w.project);
    await waitFor(async () => {
      expect(answer(await hook(w, input)).decision).toBe('deny');
      return existsSync(path.join(w.home, '.hookwerk', 'cache', 'policy-index'));
    }, 'the policy index');
    expect(answer(await hook(w, input)).decision).toBe('deny');
    const failing = { decide: () => Promise.reject(new Error('engine exploded')) };
    const req = (i: Record<string, unknown>) => ({
      agent: 'claude' as const,
      stdin: JSON.stringify(i),
      cwd: w.project,
      env: { HOME: w.home, CLAUDE_PROJECT_DIR: w.project },
      home: w.home,
    });
    const viaEngine = await answerHookCall(req(input), { decider: failing });
    expect(viaEngine.stdout).toContain('"permissionDecision":"deny"');
    expect(viaEngine.stdout).toContain('engine exploded');
    // [T-SELF-1] A Read reaches self-protect (on by default: the trust token); a WebFetch no guard looks at.
    const read = { ...input, tool_name: 'Read', tool_input: { file_path: 'README.md' } };
    expect((await answerHookCall(req(read), { decider: failing })).stdout).toContain('engine exploded');
    const fetch = { ...input, tool_name: 'WebFetch', tool_input: { url: 'https://example.com/' } };
    expect(await answerHookCall(req(fetch), { decider: failing })).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    // No index (a fresh home): the engine's failure still denies, from the policy's text.
    const fresh = world({ guards: { publish: true } });
    const cold = await answerHookCall(
      {
        ...req(bash('npm publish', fresh.project)),
        cwd: fresh.project,
        home: fresh.home,
        env: { HOME: fresh.home },
      },
      { decider: failing },
    );
    expect(cold.stdout).toContain('"permissionDecision":"deny"');
  });
});
