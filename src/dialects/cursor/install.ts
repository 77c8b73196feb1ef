/**
 * [R-INST-1] Where `hookwerk install --agent cursor` writes: Cursor's `hooks.json` (project or
 * `~/.cursor`), flat entries without a matcher [A-CUR-1]. Tool calls are gated once, through
 * `preToolUse` (every tool type), not also through the `before*Execution` / `beforeReadFile`
 * events. No `failClosed`: whether a failure blocks is the hook command's answer to give.
 */

import path from 'node:path';
import { claudeEventOf } from '../agent/event-map.ts';
import type { AgentInstall } from '../agent/hook-agent.ts';
import type { AgentTimeouts } from '../agent/hook-timeout.ts';
import { claudeSurface } from '../surfaces/claude.ts';
import { CURSOR_CLAUDE_EVENTS } from './hook-protocol.ts';

/**
 * [G-FAIL-4] Cursor's `timeout` is in seconds with a "platform default" it does not document
 * (research/cursor-facts.md §12): hookwerk takes 30 s (what published configs use, and VS Code's
 * documented default) and always writes the number itself. No maximum is documented: hookwerk's
 * one-hour cap.
 */
export const cursorTimeouts: AgentTimeouts = {
  unit: 's',
  defaultS: () => 30,
  maxS: () => 3600,
};

export const cursorInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.cursor', 'hooks.json'),
  userFile: (home) => path.join(home, '.cursor', 'hooks.json'),
  // [T-MGD-2] docs/managed.md: the administrator path and what it does.
  systemFile: '/etc/cursor/hooks.json',
  events: [
    'sessionStart',
    'sessionEnd',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'subagentStart',
    'subagentStop',
    'beforeSubmitPrompt',
    'stop',
    'preCompact',
  ],
  needsEventFlag: false,
  claudeEvent: (event) => claudeEventOf(CURSOR_CLAUDE_EVENTS, event),
  timeouts: cursorTimeouts,
  entry: (_event, command, timeoutS) => ({ command, timeout: timeoutS }),
  newFile: { version: 1 },
  // [A-CUR-1] Cursor's third-party imports (on by default) run the Claude Code files too.
  runsClaudeFiles: true,
  envFiles: (projectDir) => [
    path.join(projectDir, '.cursor', 'hooks.json'),
    ...claudeSurface.projectFiles(projectDir),
  ],
};
