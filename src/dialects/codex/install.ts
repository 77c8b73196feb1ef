/**
 * [R-INST-1] Where `hookwerk install --agent codex` writes: `hooks.json` of the project's
 * `.codex/` layer or of `$CODEX_HOME` (default `~/.codex`), in Claude's shape, one group per event
 * without a matcher; `timeout` a whole number of seconds, as Codex requires [A-CDX-1]. Every
 * event is one Codex 0.171 fires (`codex/events.ts`), so no key is one Codex would warn about.
 */
import path from 'node:path';
import { claudeGroup } from '../claude/install.ts';
import type { AgentInstall } from '../hook-agent.ts';
import { HOOK_TIMEOUT_S } from '../hook-timeout.ts';

/** The longest SessionEnd hook Codex 0.171 runs (it prints `clamping SessionEnd hook timeout to 3s`). */
const CODEX_SESSION_END_TIMEOUT_S = 3;

/** `$CODEX_HOME` (resolved) when set, else `<home>/.codex`: Codex's user layer. */
export function codexHomeDir(home: string, env: NodeJS.ProcessEnv): string {
  const given = env.CODEX_HOME;
  return given !== undefined && given !== '' ? path.resolve(given) : path.join(home, '.codex');
}

export const codexInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.codex', 'hooks.json'),
  userFile: (home, env) => path.join(codexHomeDir(home, env), 'hooks.json'),
  events: [
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PermissionRequest',
    'PostToolUse',
    'Stop',
    'PreCompact',
    'SubagentStart',
    'SubagentStop',
    'SessionEnd',
  ],
  needsEventFlag: false,
  // Codex clamps a SessionEnd hook to 3 s and warns on every run about a longer one.
  entry: (event, command) =>
    claudeGroup({ command, timeout: event === 'SessionEnd' ? CODEX_SESSION_END_TIMEOUT_S : HOOK_TIMEOUT_S }),
  runsClaudeFiles: false,
};
