/**
 * [R-INST-1] Where `hookwerk install --agent copilot` writes: a hook file of hookwerk's own,
 * `.github/hooks/hookwerk.json` or `$COPILOT_HOME/hooks/hookwerk.json` (default `~/.copilot`),
 * with flat entries run by bash [A-COP-1]. Copilot's input names no event, so each entry's
 * command says which one it is (`--event preToolUse`). No matcher: every tool.
 */
import path from 'node:path';
import type { AgentInstall } from '../hook-agent.ts';
import { HOOK_TIMEOUT_S } from '../hook-timeout.ts';

/** `$COPILOT_HOME` (resolved) when set, else `<home>/.copilot`. */
function copilotHomeDir(home: string, env: NodeJS.ProcessEnv): string {
  const given = env.COPILOT_HOME;
  return given !== undefined && given !== '' ? path.resolve(given) : path.join(home, '.copilot');
}

export const copilotInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.github', 'hooks', 'hookwerk.json'),
  userFile: (home, env) => path.join(copilotHomeDir(home, env), 'hooks', 'hookwerk.json'),
  events: [
    'sessionStart',
    'sessionEnd',
    'userPromptSubmitted',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'permissionRequest',
    'agentStop',
    'subagentStop',
    'preCompact',
  ],
  needsEventFlag: true,
  entry: (_event, command) => ({ type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_S }),
  newFile: { version: 1 },
  // [A-COP-1] Copilot CLI runs the project's `.claude/settings.json` hooks too.
  runsClaudeFiles: true,
};
