/**
 * The agents `hookwerk hook` answers and `hookwerk install` writes into [R-HOOK-1, R-INST-1]: the
 * one place that knows which exist. Each is its dialect folder's protocol and install spec.
 */
import type { HookAgent } from './agent/hook-agent.ts';
import { claudeHookProtocol } from './claude/hook-protocol.ts';
import { claudeInstall } from './claude/install.ts';
import { codexHookProtocol } from './codex/hook-protocol.ts';
import { codexInstall } from './codex/install.ts';
import { copilotHookProtocol } from './copilot/hook-protocol.ts';
import { copilotInstall } from './copilot/install.ts';
import { cursorHookProtocol } from './cursor/hook-protocol.ts';
import { cursorInstall } from './cursor/install.ts';
import { geminiHookProtocol } from './gemini/hook-protocol.ts';
import { geminiInstall } from './gemini/install.ts';

export const HOOK_AGENTS = {
  claude: { name: 'claude', label: 'Claude Code', install: claudeInstall, ...claudeHookProtocol },
  gemini: { name: 'gemini', label: 'Gemini CLI', install: geminiInstall, ...geminiHookProtocol },
  codex: { name: 'codex', label: 'Codex CLI', install: codexInstall, ...codexHookProtocol },
  copilot: { name: 'copilot', label: 'GitHub Copilot CLI', install: copilotInstall, ...copilotHookProtocol },
  cursor: { name: 'cursor', label: 'Cursor', install: cursorInstall, ...cursorHookProtocol },
} as const satisfies Record<string, HookAgent>;

export type HookAgentName = keyof typeof HOOK_AGENTS;

/** The agents' names, in table order (the table is the one list). */
export const HOOK_AGENT_NAMES: readonly HookAgentName[] = Object.keys(HOOK_AGENTS).filter(
  (name): name is HookAgentName => Object.hasOwn(HOOK_AGENTS, name),
);

export function isHookAgentName(name: string): name is HookAgentName {
  return Object.hasOwn(HOOK_AGENTS, name);
}

/**
 * The agent's own event for `event`: itself when the agent has it, else the first of the agent's
 * events that maps to it as a Claude Code event (`PreToolUse` is Gemini's `BeforeTool`, Copilot's
 * and Cursor's `preToolUse`) [R-MAP-1]; else `event` as given.
 */
export function agentEventOf(agent: HookAgent, event: string): string {
  if (agent.install.events.includes(event)) return event;
  return agent.install.events.find((e) => agent.install.claudeEvent(e) === event) ?? event;
}
