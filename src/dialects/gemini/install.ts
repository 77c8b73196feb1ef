/**
 * [R-INST-1] Where `hookwerk install --agent gemini` writes: Gemini CLI's settings files, one
 * group per event without a matcher (every tool). Gemini CLI's `timeout` is in milliseconds. The
 * handler is named `hookwerk`: Gemini CLI lists it by that name (its project-hook warning,
 * `/hooks`) and `hooksConfig.disabled: ["hookwerk"]` turns all of them off at once.
 */
import path from 'node:path';
import { claudeGroup } from '../claude/install.ts';
import type { AgentInstall } from '../hook-agent.ts';
import { HOOK_TIMEOUT_S } from '../hook-timeout.ts';

export const geminiInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.gemini', 'settings.json'),
  userFile: (home) => path.join(home, '.gemini', 'settings.json'),
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
  entry: (_event, command) => claudeGroup({ name: 'hookwerk', command, timeout: HOOK_TIMEOUT_S * 1000 }),
  runsClaudeFiles: false,
};
