/**
 * [R-INST-1] Where `hookwerk install --agent claude` writes: Claude Code's own settings files,
 * one group per event, no matcher (every tool, every source), the command in Claude's handler
 * shape with its timeout in seconds [C-SRC-1, C-RUN-1].
 */
import path from 'node:path';
import type { AgentInstall } from '../hook-agent.ts';
import { HOOK_TIMEOUT_S } from '../hook-timeout.ts';

/** Claude Code's group shape, `{hooks: [{type: "command", command, timeout}]}` (Codex and Gemini CLI read it too). */
export function claudeGroup(handler: Readonly<Record<string, unknown>>): unknown {
  return { hooks: [{ type: 'command', ...handler }] };
}

export const claudeInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.claude', 'settings.json'),
  userFile: (home) => path.join(home, '.claude', 'settings.json'),
  events: [
    'PreToolUse',
    'PermissionRequest',
    'PostToolUse',
    'PostToolUseFailure',
    'UserPromptSubmit',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'SessionStart',
    'SessionEnd',
    'PreCompact',
    'Notification',
  ],
  needsEventFlag: false,
  entry: (_event, command) => claudeGroup({ command, timeout: HOOK_TIMEOUT_S }),
  runsClaudeFiles: false,
};
