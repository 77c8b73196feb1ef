/**
 * [G-PERM-1] The policy for every caller, not only `hookwerk hook`: an engine made with
 * `gateDialect: 'policy'` (what the adapters are given) and `hookwerk serve`'s `/api/decide` with
 * `dialect: "policy"` read the same files — `~/.hookwerk/policy.json` and the approved project
 * policy — and a project policy that waits for approval is never silent [L-TRUST-11]: one warning
 * through the engine's logger, naming the file and `hookwerk trust --project DIR`. Real files in
 * temp folders, approvals by the real `hookwerk trust --yes`, `serve` as a real process on
 * 127.0.0.1. The adapters' own tests hold their policy cases (adapter-*.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../src/records/logger.ts';
import { cleanEnv, runCli } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';
import { request, startServe } from './serve-process.ts';

const TOKEN = 'policy-token-0123456789abcdef';

function writePolicy(dir: string, policy: object | string): string {
  const file = path.join(dir, '.hookwerk', 'policy.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return file;
}

/** A logger that keeps what the engine warns. */
function keptLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, logger: { info() {}, warn: (l) => lines.push(l), error: (l) => lines.push(l) } };
}

const rmCall = { tool_name: 'Bash', tool_input: { command: 'rm -fr build' } };

describe('[L-TRUST-11] [G-PERM-1] the library: gateDialect "policy"', () => {
  it('an unapproved project policy is one warning naming the file and how to approve it; approved, it runs, and nothing more is said', async () => {
    const project = tempDir('hw-pe-project-');
    const home = tempDir('hw-pe-home-');
    const file = writePolicy(project, { permissions: { deny: ['Bash(rm -rf *)'] } });
    const { logger, lines } = keptLogger();
    const engine = await makeEngine(undefined, { projectDir: project, home, gateDialect: 'policy', logger });
    const warning =
      `${file} is not approved: its permissions, guards and hooks do not run; ` +
      `review and approve it with \`hookwerk trust --project ${project}\``;
    expect(lines).toEqual([warning]);
    expect((await engine.decide('PreToolUse', rmCall)).blocked).toBe(false);
    expect((await engine.decide('PreToolUse', rmCall)).blocked).toBe(false);
    expect(lines).toEqual([warning]);

    const trust = await runCli(['trust', '--yes', '--project', project], { home });
    expect(trust.code, trust.stderr).toBe(0);
    engine.gate.reload();
    expect(await engine.decide('PreToolUse', rmCall)).toMatchObject({
      blocked: true,
      reason: `${file}: permissions.deny: Bash(rm -rf *)`,
    });
    expect(lines).toEqual([warning]);
  });

  it('[G-FAIL-1] a broken policy file is the line that says the gate denies, not a "skipped source"', async () => {
    const home = tempDir('hw-pe-home-');
    writePolicy(home, '{"permissions": {"deny": ["Bash(rm -rf"]}}');
    const { logger, lines } = keptLogger();
    const engine = await makeEngine(undefined, {
      projectDir: tempDir('hw-pe-project-'),
      home,
      gateDialect: 'policy',
      logger,
    });
    const cause =
      '~/.hookwerk/policy.json: $.permissions.deny[0]: cannot read permission rule "Bash(rm -rf": ' +
      'expected Tool or Tool(specifier) — fix it, or check it with hookwerk validate';
    expect(lines).toEqual([cause]);
    expect(await engine.decide('PreToolUse', { tool_name: 'Read', tool_input: {} })).toMatchObject({
      blocked: true,
      reason: `hookwerk: ${cause}`,
    });
  });
});

describe('[G-PERM-1] hookwerk hook: a project policy of rules alone', () => {
  it('runs nothing before `hookwerk trust`, and denies after it', async () => {
    const project = tempDir('hw-pe-project-');
    const home = tempDir('hw-pe-home-');
    const file = writePolicy(project, { permissions: { deny: ['mcp__files__delete'] } });
    const input = JSON.stringify({
      session_id: 's',
      hook_event_name: 'PreToolUse',
      cwd: project,
      tool_name: 'mcp__files__delete',
      tool_input: {},
    });
    const hook = () =>
      runCli(['hook', '--agent', 'claude', '--project', project], {
        home,
        env: { HOOKWERK_DAEMON: 'off' },
        stdin: { text: input },
      });
    expect((await hook()).stdout).toBe('');
    const trust = await runCli(['trust', '--yes', '--project', project], { home });
    expect(trust.code, trust.stderr).toBe(0);
    const after = await hook();
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `${file}: permissions.deny: mcp__files__delete`,
      },
    });
  });
});

describe('[G-PERM-1] hookwerk serve: POST /api/decide with dialect "policy"', () => {
  it('the user policy and the approved project policy decide; an unapproved one is one warning on stderr', async () => {
    const home = tempDir('hw-pe-home-');
    const approved = tempDir('hw-pe-approved-');
    const waiting = tempDir('hw-pe-waiting-');
    writePolicy(home, { permissions: { deny: ['Bash(rm -rf *)'] } });
    const projectFile = writePolicy(approved, { permissions: { deny: ['mcp__files__delete'] } });
    const waitingFile = writePolicy(waiting, { permissions: { deny: ['mcp__files__delete'] } });
    const trust = await runCli(['trust', '--yes', '--project', approved], { home });
    expect(trust.code, trust.stderr).toBe(0);
    const env = cleanEnv({ HOME: home, HOOKWERK_TOKEN: TOKEN });
    const serve = (project: string) =>
      startServe(['--workspace', tempDir('hw-pe-ws-'), '--project', project, '--port', '0'], env);
    const [a, w] = await Promise.all([serve(approved), serve(waiting)]);
    const decide = async (port: number, input: object) => {
      const res = await request(port, 'POST', '/api/decide', TOKEN, {
        dialect: 'policy',
        event: 'PreToolUse',
        input,
      });
      expect(res.status, res.text).toBe(200);
      return JSON.parse(res.text);
    };
    const mcp = { tool_name: 'mcp__files__delete', tool_input: {} };
    try {
      expect(await decide(a.port, rmCall)).toMatchObject({
        decision: 'deny',
        blocked: true,
        reason: '~/.hookwerk/policy.json: permissions.deny: Bash(rm -rf *)',
        runs: [{ dialect: 'policy', cause: 'permission', outcome: 'deny' }],
      });
      expect(await decide(a.port, mcp)).toMatchObject({
        blocked: true,
        reason: `${projectFile}: permissions.deny: mcp__files__delete`,
      });
      expect(await decide(w.port, mcp)).toMatchObject({ blocked: false, runs: [] });
      expect((await decide(w.port, rmCall)).blocked).toBe(true);
    } finally {
      expect((await a.stop()).code).toBe(0);
      expect((await w.stop()).code).toBe(0);
    }
    expect(a.stderr()).toBe('');
    expect(w.stderr()).toBe(
      `hookwerk: ${waitingFile} is not approved: its permissions, guards and hooks do not run; ` +
        `review and approve it with \`hookwerk trust --project ${waiting}\`\n`,
    );
    // validate counts the rules, and says they wait for approval.
    const validate = await runCli(['validate', '--dialect', 'policy', '--project', waiting], { home });
    expect(validate.stdout).toContain(`ok: ${waitingFile}: 0 hooks, 1 rule (project)`);
    expect(validate.stdout).toContain(
      `note: project rules of ${waiting}: not approved (run \`hookwerk trust\`)`,
    );
  });
});
