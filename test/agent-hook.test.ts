/**
 * `hookwerk hook --agent A` end to end [R-HOOK-1, R-HOOK-2, R-MAP-1, R-POL-1]: each agent's own
 * hook file (written as `hookwerk install` writes it) calls the real CLI, and hookwerk's own
 * dialect of that agent — the one `npm run differential` checks against the real tools — runs
 * that file and reads the answer exactly as the agent reads it. One policy, written as Claude
 * Code hooks in a temp `~/.hookwerk/policy.json`, guards all five.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { GateDialect } from '../src/engine-api.ts';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { answerHookCall } from '../src/hook/hook-call.ts';
import { BIN, runCli } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, waitFor } from './helpers.ts';

type Agent = 'claude' | 'gemini' | 'codex' | 'copilot' | 'cursor';
type Input = Record<string, unknown>;

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const hookCmd = (agent: Agent, event?: string) =>
  `${q(process.execPath)} ${q(BIN)} hook --agent ${agent}${event !== undefined ? ` --event ${event}` : ''}`;

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A guard written once, as Claude Code hooks [R-POL-1]. */
const GUARD = `input=$(cat); case "$input" in *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;; esac; exit 0`;
const POLICY = {
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] },
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: `grep -q 'echo hi' && printf '%s' '${JSON.stringify({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'allow',
                updatedInput: { command: 'echo rewritten' },
              },
            })}' || true`,
          },
        ],
      },
    ],
    UserPromptSubmit: [
      {
        hooks: [
          {
            type: 'command',
            command: `grep -q secret && { echo 'no secrets in prompts' >&2; exit 2; }; exit 0`,
          },
        ],
      },
    ],
  },
};

interface AgentCase {
  agent: Agent;
  /** The agent's own hook file in the project, as `hookwerk install` writes it. */
  file: string;
  /** Its content for these events (agent name → whether the command needs --event). */
  config(events: Record<string, string>): unknown;
  /** The agent's events for a tool call and a prompt. */
  pre: string;
  prompt: string;
  bash(command: string): Input;
  promptInput(text: string): Input;
  /** The rewrite as the agent gets it back. */
  rewritten(d: AgentDecision): unknown;
}

const claudeShape = (events: Record<string, string>) => ({
  hooks: Object.fromEntries(
    Object.entries(events).map(([event, command]) => [event, [{ hooks: [{ type: 'command', command }] }]]),
  ),
});

const CASES: AgentCase[] = [
  {
    agent: 'claude',
    file: '.claude/settings.json',
    config: claudeShape,
    pre: 'PreToolUse',
    prompt: 'UserPromptSubmit',
    bash: (command) => ({ tool_name: 'Bash', tool_input: { command } }),
    promptInput: (prompt) => ({ prompt }),
    rewritten: (d) => d.updatedInput?.command,
  },
  {
    agent: 'gemini',
    file: '.gemini/settings.json',
    config: claudeShape,
    pre: 'BeforeTool',
    prompt: 'BeforeAgent',
    bash: (command) => ({ tool_name: 'run_shell_command', tool_input: { command } }),
    promptInput: (prompt) => ({ prompt }),
    rewritten: (d) => d.updatedInput?.command,
  },
  {
    agent: 'codex',
    file: '.codex/hooks.json',
    config: claudeShape,
    pre: 'PreToolUse',
    prompt: 'UserPromptSubmit',
    bash: (command) => ({ tool_name: 'Bash', tool_input: { command }, turn_id: 't1', tool_use_id: 'u1' }),
    promptInput: (prompt) => ({ prompt, turn_id: 't1' }),
    rewritten: (d) => d.updatedInput?.command,
  },
  {
    agent: 'copilot',
    file: '.github/hooks/hookwerk.json',
    config: (events) => ({
      version: 1,
      hooks: Object.fromEntries(
        Object.entries(events).map(([event, command]) => [event, [{ type: 'command', bash: command }]]),
      ),
    }),
    pre: 'preToolUse',
    prompt: 'userPromptSubmitted',
    bash: (command) => ({ toolName: 'bash', toolArgs: { command, description: 'run it' } }),
    promptInput: (prompt) => ({ prompt }),
    rewritten: (d) => d.updatedInput?.command,
  },
  {
    agent: 'cursor',
    file: '.cursor/hooks.json',
    config: (events) => ({
      version: 1,
      hooks: Object.fromEntries(Object.entries(events).map(([event, command]) => [event, [{ command }]])),
    }),
    pre: 'preToolUse',
    prompt: 'beforeSubmitPrompt',
    bash: (command) => ({ tool_name: 'Shell', tool_input: { command }, tool_use_id: 'u1' }),
    promptInput: (prompt) => ({ prompt }),
    rewritten: (d) => d.updatedInput?.command,
  },
];

async function agentSetup(c: AgentCase, policy: unknown | undefined) {
  const project = tempDir(`hw-ah-${c.agent}-`);
  const home = tempDir(`hw-ah-${c.agent}-home-`);
  if (policy !== undefined) writeJson(path.join(home, '.hookwerk', 'policy.json'), policy);
  const needsEvent = c.agent === 'copilot';
  writeJson(
    path.join(project, c.file),
    c.config({
      [c.pre]: hookCmd(c.agent, needsEvent ? c.pre : undefined),
      [c.prompt]: hookCmd(c.agent, needsEvent ? c.prompt : undefined),
    }),
  );
  const engine = await makeEngine(undefined, {
    projectDir: project,
    home,
    env: { ...process.env, HOME: home },
    gateDialect: c.agent satisfies GateDialect,
    trust: () => ({ trusted: true, reason: 'test: the agent file is the own file of the user' }),
  });
  const decide = async (event: string, input: Input): Promise<AgentDecision> => {
    const d = await engine.decide(event, { session_id: 'sess-1', ...input });
    if (!('continue' in d)) throw new Error('not an agent decision');
    return d;
  };
  return { project, home, decide };
}

describe.each(CASES)('[R-HOOK-1] hookwerk hook --agent $agent, read as the agent reads it', (c) => {
  it('[R-HOOK-1, R-MAP-1] the Claude Code guard stops rm -rf, the model is told why, a harmless command runs without an explicit allow [R-HOOK-2]', async () => {
    const { decide } = await agentSetup(c, POLICY);
    const denied = await decide(c.pre, c.bash('rm -rf /tmp/x'));
    expect(denied.blocked).toBe(true);
    expect(denied.reason).toContain('rm -rf is not allowed here');
    const harmless = await decide(c.pre, c.bash('ls -la'));
    expect(harmless.blocked).toBe(false);
    expect(harmless.updatedInput).toBeUndefined();
    // No objection is never an explicit allow: the agent's own permission rules still apply.
    expect(harmless.runs).toHaveLength(1);
    expect(harmless.runs[0]?.outcome).toBe('ok');
    expect(harmless.runs[0]?.permission).toBeUndefined();
  });

  it('[R-MAP-1] a rewrite from the policy reaches the agent in its own field names', async () => {
    const { decide } = await agentSetup(c, POLICY);
    const d = await decide(c.pre, c.bash('echo hi'));
    expect(d.blocked).toBe(false);
    expect(c.rewritten(d)).toBe('echo rewritten');
  });

  it('[R-HOOK-1] a prompt guard blocks the prompt', async () => {
    const { decide } = await agentSetup(c, POLICY);
    const d = await decide(c.prompt, c.promptInput('here is my secret'));
    expect(d.blocked).toBe(true);
    expect(d.reason ?? d.stopReason).toContain('no secrets in prompts');
    expect((await decide(c.prompt, c.promptInput('hello'))).blocked).toBe(false);
  });

  it('[R-HOOK-2] no policy at all: the agent reads "no objection"', async () => {
    const { decide } = await agentSetup(c, undefined);
    const d = await decide(c.pre, c.bash('rm -rf /tmp/x'));
    expect(d.blocked).toBe(false);
    expect(d.runs[0]?.outcome).toBe('ok');
    expect(d.runs[0]?.permission).toBeUndefined();
  });
});

describe('[R-HOOK-2] hookwerk hook never blocks by accident', () => {
  const input = JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });

  it('a broken input or an unknown flag prints no stack trace and no objection', async () => {
    const home = tempDir('hw-ah-home-');
    const bad = await runCli(['hook', '--agent', 'codex'], { home, stdin: { text: 'not json' } });
    expect(bad.code).toBe(0);
    expect(bad.stdout).toBe('{}\n');
    expect(bad.stderr).toContain('not JSON');
    const cursor = await runCli(['hook', '--agent', 'cursor'], { home, stdin: { text: '[1,2]' } });
    expect(cursor.stdout).toBe('{}\n');
    const unknown = await runCli(['hook', '--agent', 'vim'], { home, stdin: { text: input } });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('unknown agent "vim"');
  });

  it('a failing guard: failMode "open" is no objection, "closed" denies with the cause', async () => {
    const home = tempDir('hw-ah-home-');
    const file = path.join(home, '.hookwerk', 'policy.json');
    mkdirSync(path.dirname(file), { recursive: true });
    // A hook whose command cannot start: open → no objection; closed → deny with the cause.
    const policy = (failMode: string) => ({
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 1', failMode, timeout: 0.001 }] }] },
    });
    writeFileSync(file, JSON.stringify(policy('open')));
    const open = await runCli(['hook', '--agent', 'claude'], { home, stdin: { text: input } });
    expect(open.code).toBe(0);
    expect(open.stdout).toBe('');
    writeFileSync(file, JSON.stringify(policy('closed')));
    const closed = await runCli(['hook', '--agent', 'claude'], { home, stdin: { text: input } });
    expect(closed.code).toBe(0);
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('[R-HOOK-2] an internal failure of hookwerk', () => {
  const failing = { decide: () => Promise.reject(new Error('engine exploded')) };

  it('is no objection with the cause on stderr, unless a closed guard names the event', async () => {
    const home = tempDir('hw-ah-home-');
    const file = path.join(home, '.hookwerk', 'policy.json');
    const guard = (failMode: string) => ({
      hooks: { PreToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: 'true', failMode }] }] },
    });
    writeJson(file, guard('open'));
    // A tool self-protect (on by default, T-SELF-1) does not look at: only the policy's own guard counts.
    const cursorInput = JSON.stringify({
      hook_event_name: 'preToolUse',
      tool_name: 'Task',
      tool_input: { description: 'x' },
    });
    const req = { agent: 'cursor' as const, stdin: cursorInput, cwd: home, env: { HOME: home }, home };
    const open = await answerHookCall(req, { decider: failing });
    expect(open).toMatchObject({ stdout: '{}\n', exitCode: 0 });
    // A shell call: self-protect looks at it, so the failure denies whatever the policy says.
    const shell = JSON.stringify({
      hook_event_name: 'preToolUse',
      tool_name: 'Shell',
      tool_input: { command: 'ls' },
    });
    const shellAnswer = await answerHookCall({ ...req, stdin: shell }, { decider: failing });
    expect(JSON.parse(shellAnswer.stdout)).toMatchObject({ permission: 'deny' });
    expect(open.stderr).toContain('engine exploded');
    writeJson(file, guard('closed'));
    const closed = await answerHookCall(req, { decider: failing });
    expect(JSON.parse(closed.stdout)).toMatchObject({ permission: 'deny' });
    expect(closed.stdout).toContain('engine exploded');
  });

  it('[R-HOOK-4] an event no policy file names never reaches the engine', async () => {
    const home = tempDir('hw-ah-home-');
    writeJson(path.join(home, '.hookwerk', 'policy.json'), {
      hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'exit 2' }] }] },
    });
    // A WebFetch: not in the plain name list, and no tool self-protect (on by default) looks at.
    const fetch = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'WebFetch',
      tool_input: { url: 'https://example.com/', prompt: 'x' },
    });
    const req = { agent: 'claude' as const, stdin: fetch, cwd: home, env: { HOME: home }, home };
    // A call that loads the policy leaves its index for the fast path (not while the policy file
    // is as new as the load itself: the file clock is coarse, so that load may have missed a write).
    await waitFor(async () => {
      const loaded = await answerHookCall(req, { decider: coldDecider });
      expect(loaded).toEqual({ stdout: '', stderr: '', exitCode: 0 });
      return existsSync(path.join(home, '.hookwerk', 'cache', 'policy-index'));
    }, 'the policy index');
    // WebFetch is not in the plain name list: answered from the index, without the engine.
    expect(await answerHookCall(req, { decider: failing })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

describe('[R-HOOK-3] one audit trail', () => {
  it('every run of hookwerk hook is in the journal with agent, session and tool; hookwerk runs lists it', async () => {
    const home = tempDir('hw-ah-home-');
    writeJson(path.join(home, '.hookwerk', 'policy.json'), POLICY);
    const cursor = await runCli(['hook', '--agent', 'cursor'], {
      home,
      stdin: {
        text: JSON.stringify({
          hook_event_name: 'preToolUse',
          conversation_id: 'conv-7',
          tool_name: 'Shell',
          tool_input: { command: 'rm -rf build' },
          workspace_roots: [home],
        }),
      },
    });
    expect(JSON.parse(cursor.stdout)).toMatchObject({ permission: 'deny' });
    const runs = await runCli(['runs', '--agent', 'cursor', '--json'], { home });
    expect(runs.code).toBe(0);
    const lines = runs.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toContainEqual(
      expect.objectContaining({
        agent: 'cursor',
        sessionId: 'conv-7',
        toolName: 'Bash',
        outcome: 'deny',
        event: 'PreToolUse',
      }),
    );
    expect((await runCli(['runs', '--agent', 'codex', '--json'], { home })).stdout).toBe('');
  });
});

describe('[C-RUN-3] SessionStart environment', () => {
  it("what the policy's SessionStart hooks write to CLAUDE_ENV_FILE goes on to Claude Code's own file", async () => {
    const home = tempDir('hw-ah-home-');
    writeJson(path.join(home, '.hookwerk', 'policy.json'), {
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'command', command: `echo "export TEAM_MODE=it's on" >> "$CLAUDE_ENV_FILE"` }] },
        ],
      },
    });
    const agentFile = path.join(home, 'claude-env.sh');
    writeFileSync(agentFile, 'export BEFORE=1\n');
    const r = await runCli(['hook', '--agent', 'claude'], {
      home,
      env: { CLAUDE_ENV_FILE: agentFile },
      stdin: {
        text: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', session_id: 's' }),
      },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(agentFile, 'utf8')).toBe("export BEFORE=1\nexport TEAM_MODE='it'\\''s on'\n");
  });
});

describe('[R-POL-1] the policy files', () => {
  const call = (command: string) =>
    JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

  it('a project policy runs only once approved with hookwerk trust; .hookwerk/policy/ is pinned whole', async () => {
    const project = tempDir('hw-ah-proj-');
    const home = tempDir('hw-ah-home-');
    writeFileSync(path.join(project, 'placeholder'), '');
    mkdirSync(path.join(project, '.hookwerk', 'policy'), { recursive: true });
    const script = path.join(project, '.hookwerk', 'policy', 'guard.sh');
    writeFileSync(script, `#!/bin/sh\necho 'project guard' >&2\nexit 2\n`, { mode: 0o755 });
    writeJson(path.join(project, '.hookwerk', 'policy.json'), {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.hookwerk/policy/guard.sh' }] },
        ],
      },
    });
    const env = { CLAUDE_PROJECT_DIR: project };
    const before = await runCli(['hook', '--agent', 'claude'], { home, env, stdin: { text: call('ls') } });
    expect(before.stdout).toBe('');
    const trust = await runCli(['trust', '--project', project, '--yes'], { home });
    expect(trust.code).toBe(0);
    const after = await runCli(['hook', '--agent', 'claude'], { home, env, stdin: { text: call('ls') } });
    expect(JSON.parse(after.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'project guard',
    });
    // A changed script in the pinned folder is not what was approved: it does not run.
    writeFileSync(script, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const changed = await runCli(['hook', '--agent', 'claude'], { home, env, stdin: { text: call('ls') } });
    expect(changed.stdout).not.toContain('"allow"');
    expect(changed.stderr + changed.stdout).toMatch(/project guard|changed|approv/);
  });

  it('"include": ["claude"] runs the project\'s Claude Code guards for the other agents, never for Claude Code itself', async () => {
    const project = tempDir('hw-ah-proj-');
    const home = tempDir('hw-ah-home-');
    writeJson(path.join(home, '.hookwerk', 'policy.json'), { include: ['claude'] });
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] }] },
    });
    expect((await runCli(['trust', '--project', project, '--yes'], { home })).code).toBe(0);
    const codex = await runCli(['hook', '--agent', 'codex'], {
      home,
      cwd: project,
      stdin: {
        text: JSON.stringify({
          hook_event_name: 'PreToolUse',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command: 'rm -rf x' },
        }),
      },
    });
    expect(JSON.parse(codex.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      'rm -rf is not allowed',
    );
    const claude = await runCli(['hook', '--agent', 'claude'], {
      home,
      env: { CLAUDE_PROJECT_DIR: project },
      stdin: { text: call('rm -rf x') },
    });
    expect(claude.stdout).toBe('');
  });
});
