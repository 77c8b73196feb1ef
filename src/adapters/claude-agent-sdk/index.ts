/**
 * `hookwerk/claude-agent-sdk` [AD-CAS-1]: the Claude Agent SDK's `hooks` option, decided by the
 * engine, and SessionStart run by the host. `@anthropic-ai/claude-agent-sdk` is an optional peer:
 * imported as types only.
 */
export type { AgentDecision } from '../../dispatch/agent-answer.ts';
export type { HookEngine } from '../../engine-api.ts';
export { claudeAgentAnswer } from './claude-agent-answer.ts';
export {
  CLAUDE_AGENT_EVENTS,
  type ClaudeAgentHooks,
  type ClaudeAgentHooksOptions,
  claudeAgentHooks,
} from './claude-agent-hooks.ts';
export { type ClaudeAgentSessionStart, claudeAgentSessionStart } from './claude-agent-session-start.ts';
