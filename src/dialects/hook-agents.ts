/**
 * The agents `hookwerk hook` answers and `hookwerk install` writes into [R-HOOK-1, R-INST-1]: the
 * one place that knows which exist. Each is its dialect folder's protocol (and install spec).
 */
import { claudeHookProtocol } from './claude/hook-protocol.ts';
import { codexHookProtocol } from './codex/hook-protocol.ts';
import { copilotHookProtocol } from './copilot/hook-protocol.ts';
import { cursorHookProtocol } from './cursor/hook-protocol.ts';
import { geminiHookProtocol } from './gemini/hook-protocol.ts';
import type { HookAgentProtocol } from './hook-agent.ts';

interface HookAgentEntry extends HookAgentProtocol {
  readonly label: string;
}

export const HOOK_AGENTS = {
  claude: { label: 'Claude Code', ...claudeHookProtocol },
  gemini: { label: 'Gemini CLI', ...geminiHookProtocol },
  codex: { label: 'Codex CLI', ...codexHookProtocol },
  copilot: { label: 'GitHub Copilot CLI', ...copilotHookProtocol },
  cursor: { label: 'Cursor', ...cursorHookProtocol },
} as const satisfies Record<string, HookAgentEntry>;

export type HookAgentName = keyof typeof HOOK_AGENTS;

export const HOOK_AGENT_NAMES: readonly HookAgentName[] = ['claude', 'gemini', 'codex', 'copilot', 'cursor'];

export function isHookAgentName(name: string): name is HookAgentName {
  return Object.hasOwn(HOOK_AGENTS, name);
}
