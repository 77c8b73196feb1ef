/**
 * [G-PERM-1..4, R-HOOK-1, R-MAP-1] Permission rules in a user policy, enforced in each of the five
 * agents' own input shapes by real `hookwerk hook --agent A` processes (the built CLI, as the
 * agents' hook files call it), read back in each agent's own protocol: a Bash deny per simple
 * command, a command that cannot be read, `Read(.env)`/`Edit(.env)` through `..`, a symlink,
 * Gemini's `read_many_files`, Copilot's `view`, Cursor's `beforeReadFile` and a Codex patch. The
 * fast path still hands such calls to the engine once its index is written [R-HOOK-4]; the
 * journal and `explain` name the rule [R-HOOK-3, G-FAIL-5].
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHookArgs } from '../src/cli/hook.ts';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { answerHookCall } from '../src/hook/hook-call.ts';
import { type CliResult, cleanEnv, runCli } from './cli-runner.ts';
import { tempDir, waitFor } from './helpers.ts';

type Agent = 'claude' | 'gemini' | 'codex' | 'copilot' | 'cursor';
type Answer = 'deny' | 'ask' | 'allow' | 'none';

const POLICY = {
  permissions: { deny: ['Bash(rm -rf *)', 'Read(.env)', 'Edit(.env)'] },
};

function world() {
  const root = tempDir('hw-permhook-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(project, 'sub'), { recursive: true });
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify(POLICY));
  writeFileSync(path.join(project, '.env'), 'SECRET=1\n');
  symlinkSync(path.join(project, '.env'), path.join(project, 'notes.txt'));
  return { home, project };
}

/** The agent's answer as the agent reads it: deny, ask, allow or no opinion; and the reason shown. */
function answerOf(agent: Agent, r: CliResult): { answer: Answer; reason: string } {
  expect(r.code).toBe(0);
  const out = r.stdout.trim() === '' ? {} : JSON.parse(r.stdout);
  const pick = (): [unknown, unknown] => {
    if (agent === 'claude' || agent === 'codex')
      return [out.hookSpecificOutput?.permissionDecision, out.hookSpecificOutput?.permissionDecisionReason];
    if (agent === 'gemini') return [out.decision, out.reason];
    if (agent === 'copilot') return [out.permissionDecision, out.permissionDecisionReason];
    return [out.permission, out.agent_message];
  };
  const [answer, reason] = pick();
  return { answer: typeof answer === 'string' ? (answer as Answer) : 'none', reason: String(reason ?? '') };
}

interface Shape {
  /** `--event` for agents whose input names none. */
  event?: string;
  bash(command: string, cwd: string): Record<string, unknown>;
  /** A read of `.env` by the agent's own file tool, however it names the file. */
  secretRead(project: string): Record<string, unknown>;
}

const SHAPES: Record<Agent, Shape> = {
  claude: {
    bash: (command, cwd) => ({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd,
      tool_name: 'Bash',
      tool_input: { command },
    }),
    secretRead: (p) => ({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: p,
      tool_name: 'Read',
      tool_input: { file_path: `${p}/sub/../.env` },
    }),
  },
  gemini: {
    bash: (command, cwd) => ({
      hook_event_name: 'BeforeTool',
      session_id: 's',
      cwd,
      tool_name: 'run_shell_command',
      tool_input: { command },
    }),
    secretRead: (p) => ({
      hook_event_name: 'BeforeTool',
      session_id: 's',
      cwd: p,
      tool_name: 'read_many_files',
      tool_input: { paths: ['README.md', '.env'] },
    }),
  },
  codex: {
    bash: (command, cwd) => ({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd,
      tool_name: 'Bash',
      tool_input: { command },
      turn_id: 't',
      tool_use_id: 'u',
    }),
    secretRead: (p) => ({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: p,
      tool_name: 'apply_patch',
      tool_input: {
        command:
          '*** Begin Patch\n*** Add File: ok.txt\n+hi\n*** Update File: .env\n@@\n-SECRET=1\n+SECRET=2\n*** End Patch',
      },
      turn_id: 't',
      tool_use_id: 'u',
    }),
  },
  copilot: {
    event: 'preToolUse',
    bash: (command, cwd) => ({
      sessionId: 's',
      cwd,
      toolName: 'bash',
      toolArgs: { command, description: 'x' },
    }),
    secretRead: (p) => ({ sessionId: 's', cwd: p, toolName: 'view', toolArgs: { path: `${p}/notes.txt` } }),
  },
  cursor: {
    bash: (command, cwd) => ({
      hook_event_name: 'preToolUse',
      conversation_id: 's',
      workspace_roots: [cwd],
      cwd,
      tool_name: 'Shell',
      tool_input: { command },
    }),
    secretRead: (p) => ({
      hook_event_name: 'beforeReadFile',
      conversation_id: 's',
      workspace_roots: [p],
      file_path: `${p}/.env`,
    }),
  },
};

const AGENTS = Object.keys(SHAPES) as Agent[];

const args = (agent: Agent) => {
  const event = SHAPES[agent].event;
  return ['--agent', agent, ...(event !== undefined ? ['--event', event] : [])];
};

/** A real `hookwerk hook` process. */
function hookProcess(agent: Agent, w: { home: string; project: string }, input: Record<string, unknown>) {
  return runCli(['hook', ...args(agent)], {
    home: w.home,
    cwd: w.project,
    env: { CLAUDE_PROJECT_DIR: w.project },
    stdin: { text: JSON.stringify(input) },
  });
}

/** The same call decided in this process by the code the CLI runs. */
async function hook(agent: Agent, w: { home: string; project: string }, input: Record<string, unknown>) {
  const reply = await answerHookArgs(
    args(agent),
    {
      stdin: Buffer.from(JSON.stringify(input)),
      cwd: w.project,
      env: cleanEnv({ HOME: w.home, CLAUDE_PROJECT_DIR: w.project }),
    },
    { decider: coldDecider },
  );
  return { code: reply.exitCode, stdout: reply.stdout, stderr: reply.stderr };
}

describe.each(AGENTS)("[G-PERM-1] hookwerk hook --agent %s enforces the policy's permissions", (agent) => {
  it('[G-PERM-2, G-PERM-3, G-PERM-4] a Bash deny per simple command, an unreadable line, a secret read', async () => {
    const w = world();
    const shape = SHAPES[agent];
    const [respelled, harmless, unbalanced, secret] = await Promise.all([
      hookProcess(agent, w, shape.bash('sudo rm -fr build', w.project)),
      hook(agent, w, shape.bash('rm -r build', w.project)),
      hook(agent, w, shape.bash('echo "oops', w.project)),
      hook(agent, w, shape.secretRead(w.project)),
    ]);
    const denied = answerOf(agent, respelled);
    expect(denied.answer).toBe('deny');
    expect(denied.reason).toContain('~/.hookwerk/policy.json: permissions.deny: Bash(rm -rf *)');
    expect(answerOf(agent, harmless).answer).toBe('none');
    const unreadable = answerOf(agent, unbalanced);
    expect(unreadable.answer).toBe('deny');
    expect(unreadable.reason).toContain('cannot read this command safely');
    const read = answerOf(agent, secret);
    expect(read.answer).toBe('deny');
    expect(read.reason).toMatch(/permissions\.deny: (Read|Edit)\(\.env\)/);
  });
});

describe('[R-HOOK-4, R-HOOK-3, G-FAIL-5] the fast path, the journal and explain know the rules', () => {
  it('with the index written, a Bash call still reaches the rules; the journal and explain name the rule', async () => {
    const w = world();
    const input = SHAPES.claude.bash('rm -rf --no-preserve-root /', w.project);
    await waitFor(async () => {
      expect(answerOf('claude', await hook('claude', w, input)).answer).toBe('deny');
      return existsSync(path.join(w.home, '.hookwerk', 'cache', 'policy-index'));
    }, 'the policy index');
    // Answered with the index in place: the rule still decides.
    expect(answerOf('claude', await hook('claude', w, input)).answer).toBe('deny');
    // The index names the tools the rules may match: a Bash call reaches the engine (which fails
    // here, and the deny rules close the gate [R-HOOK-2]); a Task call, which no rule names, does not.
    const failing = { decide: () => Promise.reject(new Error('engine exploded')) };
    const req = (i: Record<string, unknown>) => ({
      agent: 'claude' as const,
      stdin: JSON.stringify(i),
      cwd: w.project,
      env: { HOME: w.home, CLAUDE_PROJECT_DIR: w.project },
      home: w.home,
    });
    const viaEngine = await answerHookCall(req(input), { decider: failing });
    expect(
      answerOf('claude', { code: viaEngine.exitCode, stdout: viaEngine.stdout, stderr: '' }).answer,
    ).toBe('deny');
    expect(viaEngine.stdout).toContain('engine exploded');
    const task = { ...input, tool_name: 'Task', tool_input: { prompt: 'x' } };
    expect(await answerHookCall(req(task), { decider: failing })).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    const [runs, explain] = await Promise.all([
      runCli(['runs', '--agent', 'claude', '--json'], { home: w.home }),
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
          '{"command":"rm -fr x"}',
        ],
        { home: w.home },
      ),
    ]);
    expect(runs.stdout).toContain('"hook":"permissions.deny: Bash(rm -rf *)"');
    expect(runs.stdout).toContain('"cause":"permission"');
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/1\. RUNS +permissions\.deny: Bash\(rm -rf \*\)/);
    expect(explain.stdout).toMatch(/3\. no match +permissions\.deny: Edit\(\.env\)/);
  });
});
