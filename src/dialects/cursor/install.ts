/**
 * [R-INST-1] Where `hookwerk install --agent cursor` writes: Cursor's `hooks.json` (project or
 * `~/.cursor`), flat entries without a matcher [A-CUR-1]. Tool calls are gated once, through
 * `preToolUse` (every tool type), not also through the `before*Execution` / `beforeReadFile`
 * events. No `failClosed`: whether a failure blocks is the hook command's answer to give.
 */
import path from 'node:path';
import type { AgentInstall } from '../hook-agent.ts';
import { HOOK_TIMEOUT_S } from '../hook-timeout.ts';

export const cursorInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.cursor', 'hooks.json'),
  userFile: (home) => path.join(home, '.cursor', 'hooks.json'),
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
  entry: (_event, command) => ({ command, timeout: HOOK_TIMEOUT_S }),
  newFile: { version: 1 },
  // [A-CUR-1] Cursor's third-party imports (on by default) run the Claude Code files too.
  runsClaudeFiles: true,
};
