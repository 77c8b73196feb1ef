/**
 * The agents `hookwerk install` speaks to, by name [R-INST-1]: each one's `AgentInstall` (its
 * folder's `install.ts`) and what people call it. The lead's `hook-agents.ts` joins these with
 * the agents' protocols; this table is what install needs until then.
 */
import { claudeInstall } from '../dialects/claude/install.ts';
import { codexInstall } from '../dialects/codex/install.ts';
import { copilotInstall } from '../dialects/copilot/install.ts';
import { cursorInstall } from '../dialects/cursor/install.ts';
import { geminiInstall } from '../dialects/gemini/install.ts';
import type { AgentInstall } from '../dialects/hook-agent.ts';

export interface InstallAgent {
  readonly name: string;
  readonly label: string;
  readonly install: AgentInstall;
}

export const AGENT_INSTALLS = {
  claude: { name: 'claude', label: 'Claude Code', install: claudeInstall },
  gemini: { name: 'gemini', label: 'Gemini CLI', install: geminiInstall },
  codex: { name: 'codex', label: 'Codex CLI', install: codexInstall },
  copilot: { name: 'copilot', label: 'GitHub Copilot CLI', install: copilotInstall },
  cursor: { name: 'cursor', label: 'Cursor', install: cursorInstall },
} as const satisfies Record<string, InstallAgent>;

export type InstallAgentName = keyof typeof AGENT_INSTALLS;

export const INSTALL_AGENT_NAMES = Object.keys(AGENT_INSTALLS).filter(isInstallAgent);

export function isInstallAgent(name: string): name is InstallAgentName {
  return Object.hasOwn(AGENT_INSTALLS, name);
}
