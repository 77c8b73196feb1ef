/**
 * [G-TEST-1] Each agent's reader of our replies (`readReply`, in its dialect folder): a decision
 * answered in the agent's protocol (`reply`) and read back with the agent's own answer reader
 * says what the agent does with it — deny, ask, allow, or none, its "no objection" [R-HOOK-2].
 * Pure: no process.
 */
import { describe, expect, it } from 'vitest';
import type { ClaudeCall, VerdictName } from '../src/dialects/agent/hook-agent.ts';
import {
  agentEventOf,
  HOOK_AGENT_NAMES,
  HOOK_AGENTS,
  type HookAgentName,
} from '../src/dialects/hook-agents.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { RunRecord } from '../src/records/run-record.ts';

function run(permission?: RunRecord['permission']): RunRecord {
  return {
    hook: 'guard.sh',
    source: '/p.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    outcome: 'ok',
    durationMs: 1,
    at: '2026-01-01T00:00:00.000Z',
    ...(permission !== undefined ? { permission } : {}),
  };
}

const DECISIONS: Readonly<Record<string, AgentDecision | undefined>> = {
  deny: { decision: 'deny', blocked: true, reason: 'no rm -rf here', continue: true, runs: [run('deny')] },
  ask: { decision: 'ask', blocked: false, reason: 'a human decides', continue: true, runs: [run('ask')] },
  allow: { decision: 'allow', blocked: false, reason: 'fine', continue: true, runs: [run('allow')] },
  // Hooks ran and none had an opinion: never an explicit allow.
  quiet: { decision: 'allow', blocked: false, continue: true, runs: [run()] },
  // No hook ran at all.
  nothing: undefined,
};

/** What each agent does with each decision on its gate event (docs/testing-policies.md). */
const GATE: Readonly<Record<HookAgentName, Readonly<Record<string, VerdictName>>>> = {
  claude: { deny: 'deny', ask: 'ask', allow: 'allow', quiet: 'none', nothing: 'none' },
  gemini: { deny: 'deny', ask: 'ask', allow: 'allow', quiet: 'none', nothing: 'none' },
  // Codex has no ask on PreToolUse (the reply denies) and takes an allow only with a rewrite.
  codex: { deny: 'deny', ask: 'deny', allow: 'none', quiet: 'none', nothing: 'none' },
  copilot: { deny: 'deny', ask: 'ask', allow: 'allow', quiet: 'none', nothing: 'none' },
  // Cursor's preToolUse enforces no ask: the reply denies.
  cursor: { deny: 'deny', ask: 'deny', allow: 'allow', quiet: 'none', nothing: 'none' },
};

function callOf(agent: HookAgentName, claudeEvent: string, input: Record<string, unknown>): ClaudeCall {
  const a = HOOK_AGENTS[agent];
  const call = a.toClaude(input, agentEventOf(a, claudeEvent), {});
  if ('problem' in call) throw new Error(call.problem);
  return call;
}

describe.each(HOOK_AGENT_NAMES)('[G-TEST-1] readReply of %s', (agent) => {
  const a = HOOK_AGENTS[agent];
  const bash = callOf(agent, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });

  it('[G-TEST-1, R-HOOK-2] the gate event: each decision reads back as the agent acts on it, with the reason', async () => {
    for (const [name, decision] of Object.entries(DECISIONS)) {
      const read = await a.readReply(bash, a.reply(bash, decision));
      expect({ name, verdict: read.verdict }).toEqual({ name, verdict: GATE[agent][name] });
      if (read.verdict !== 'none') expect(read.reason).toBe(decision?.reason);
      else expect(read.reason).toBeUndefined();
    }
  });

  it('[G-TEST-1] a prompt the policy blocks reads as deny, with the reason', async () => {
    const prompt = callOf(agent, 'UserPromptSubmit', { prompt: 'here is my secret' });
    const read = await a.readReply(prompt, a.reply(prompt, DECISIONS.deny));
    expect(read).toEqual({ verdict: 'deny', reason: 'no rm -rf here' });
    expect(await a.readReply(prompt, a.reply(prompt, undefined))).toEqual({ verdict: 'none' });
  });
});

describe('[G-TEST-1] readReply beyond the gate event', () => {
  it('a PermissionRequest answer reads as its behavior (Claude Code, Codex, Copilot)', async () => {
    for (const agent of ['claude', 'codex', 'copilot'] as const) {
      const a = HOOK_AGENTS[agent];
      const call = callOf(agent, 'PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'ls' } });
      const allow: AgentDecision = {
        decision: 'allow',
        blocked: false,
        continue: true,
        permission: { behavior: 'allow' },
        runs: [run('allow')],
      };
      expect({ agent, read: await a.readReply(call, a.reply(call, allow)) }).toEqual({
        agent,
        read: { verdict: 'allow' },
      });
      expect({ agent, read: (await a.readReply(call, a.reply(call, DECISIONS.deny))).verdict }).toEqual({
        agent,
        read: 'deny',
      });
    }
  });

  it("Cursor blocks a preToolUse whose output is not JSON: so does the reader (never our reply's shape)", async () => {
    const call = callOf('cursor', 'PreToolUse', { tool_name: 'Shell', tool_input: { command: 'ls' } });
    const read = await HOOK_AGENTS.cursor.readReply(call, { stdout: '', stderr: '', exitCode: 0 });
    expect(read.verdict).toBe('deny');
  });
});
