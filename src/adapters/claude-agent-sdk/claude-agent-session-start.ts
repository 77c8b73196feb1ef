/**
 * [AD-CAS-1, C-RUN-3] SessionStart for a Claude Agent SDK session, run by the host before its
 * `query`: the SDK does not raise SessionStart for `hooks` callbacks, and what a SessionStart hook
 * writes to `CLAUDE_ENV_FILE` is meant for the session's later Bash commands, which only the
 * Claude Code process's own environment (the `env` option of `query`) can carry.
 */
import type { SessionStartHookInput } from '@anthropic-ai/claude-agent-sdk';
import type { AgentDecision } from '../../dispatch/agent-answer.ts';
import type { HookEngine } from '../../engine-api.ts';
import { agentDecision, assertClaudeEngine } from './claude-agent-hooks.ts';

export interface ClaudeAgentSessionStart {
  /** The variables the hooks exported, for `query({ options: { env: { ...process.env, ...env } } })`. */
  env: Record<string, string>;
  /** The context the hooks gave the model (for `systemPrompt`'s `append`), if any. */
  additionalContext?: string;
  /** A message for the user, if any. */
  systemMessage?: string;
  /** The engine's whole decision (its runs, a `continue: false`). */
  decision: AgentDecision;
}

/** Runs the engine's SessionStart hooks (default `source: "startup"`) and hands back what they set. */
export async function claudeAgentSessionStart(
  engine: HookEngine,
  input: Partial<SessionStartHookInput> = {},
): Promise<ClaudeAgentSessionStart> {
  assertClaudeEngine(engine);
  const decision = agentDecision(await engine.decide('SessionStart', { source: 'startup', ...input }));
  return {
    env: { ...decision.env },
    ...(decision.additionalContext !== undefined && decision.additionalContext !== ''
      ? { additionalContext: decision.additionalContext }
      : {}),
    ...(decision.systemMessage !== undefined && decision.systemMessage !== ''
      ? { systemMessage: decision.systemMessage }
      : {}),
    decision,
  };
}
