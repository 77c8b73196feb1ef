/**
 * [R-INST-1] Where `hookwerk install --agent gemini` writes: Gemini CLI's settings files, one
 * group per event without a matcher (every tool). Gemini CLI's `timeout` is in milliseconds. The
 * handler is named `hookwerk`: Gemini CLI lists it by that name (its project-hook warning,
 * `/hooks`) and `hooksConfig.disabled: ["hookwerk"]` turns all of them off at once.
 */
import path from 'node:path';
import { claudeGroup } from '../agent/claude-group.ts';
import { claudeEventOf } from '../agent/event-map.ts';
import type { AgentInstall } from '../agent/hook-agent.ts';
import { type AgentTimeouts, timeoutField } from '../agent/hook-timeout.ts';
import { GEMINI_CLAUDE_EVENTS } from './hook-protocol.ts';

/**
 * [G-FAIL-4] Gemini CLI's timeouts (research/claude-gemini-compat-findings.md): milliseconds,
 * 60 000 by default. No maximum is documented: hookwerk's one-hour cap.
 */
export const geminiTimeouts: AgentTimeouts = {
  unit: 'ms',
  defaultS: () => 60,
  maxS: () => 3600,
};

export const geminiInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.gemini', 'settings.json'),
  userFile: (home) => path.join(home, '.gemini', 'settings.json'),
  // [T-MGD-2] docs/managed.md: the administrator path and what it does.
  systemFile: '/etc/gemini-cli/settings.json',
  events: [
    'BeforeTool',
    'AfterTool',
    'BeforeAgent',
    'AfterAgent',
    'SessionStart',
    'SessionEnd',
    'PreCompress',
    'Notification',
  ],
  needsEventFlag: false,
  claudeEvent: (event) => claudeEventOf(GEMINI_CLAUDE_EVENTS, event),
  timeouts: geminiTimeouts,
  entry: (_event, command, timeoutS) =>
    claudeGroup({ name: 'hookwerk', command, timeout: timeoutField(geminiTimeouts, timeoutS) }),
  runsClaudeFiles: false,
  envFiles: (projectDir) => [path.join(projectDir, '.gemini', 'settings.json')],
};
