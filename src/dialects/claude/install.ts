/**
 * [R-INST-1] Where `hookwerk install --agent claude` writes: Claude Code's own settings files,
 * one group per event, no matcher (every tool, every source), the command in Claude's handler
 * shape with its timeout in seconds [C-SRC-1, C-RUN-1, G-FAIL-4].
 */

import path from 'node:path';
import { claudeGroup } from '../agent/claude-group.ts';
import type { AgentInstall } from '../agent/hook-agent.ts';
import type { AgentTimeouts } from '../agent/hook-timeout.ts';
import { claudeSurface } from '../surfaces/claude.ts';

/**
 * [G-FAIL-4] Claude Code's timeouts (research/claude-code-hooks.md §7), in seconds: 600 s for a
 * command hook, 30 s on UserPromptSubmit; SessionEnd hooks share a 1.5 s budget, raised to the
 * longest hook's timeout up to 60 s (1 s here: whole seconds, within the budget). Above one hour
 * Claude Code's cap applies (SPEC §14.5).
 */
export const claudeTimeouts: AgentTimeouts = {
  unit: 's',
  defaultS: (event) => (event === 'UserPromptSubmit' ? 30 : event === 'SessionEnd' ? 1 : 600),
  maxS: (event) => (event === 'SessionEnd' ? 60 : 3600),
};

export const claudeInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.claude', 'settings.json'),
  userFile: (home) => path.join(home, '.claude', 'settings.json'),
  // [T-MGD-2] docs/managed.md: the administrator path and what it does.
  systemFile: '/etc/claude-code/managed-settings.d/hookwerk.json',
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
  claudeEvent: (event) => event,
  timeouts: claudeTimeouts,
  entry: (_event, command, timeoutS) => claudeGroup({ command, timeout: timeoutS }),
  runsClaudeFiles: false,
  envFiles: (projectDir) => claudeSurface.projectFiles(projectDir),
};
