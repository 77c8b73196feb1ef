/**
 * [R-INST-1] Where `hookwerk install --agent copilot` writes: a hook file of hookwerk's own,
 * `.github/hooks/hookwerk.json` or `$COPILOT_HOME/hooks/hookwerk.json` (default `~/.copilot`),
 * with flat entries run by bash [A-COP-1]. Copilot's input names no event, so each entry's
 * command says which one it is (`--event preToolUse`). No matcher: every tool.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { claudeEventOf } from '../agent/event-map.ts';
import type { AgentInstall } from '../agent/hook-agent.ts';
import type { AgentTimeouts } from '../agent/hook-timeout.ts';
import { claudeSurface } from '../surfaces/claude.ts';
import { COPILOT_CLAUDE_EVENTS } from './hook-protocol.ts';

/**
 * [G-FAIL-4] Copilot CLI's `timeoutSec` (research/copilot-facts.md §6): 30 s by default, honoured
 * as given. No maximum is documented: hookwerk's one-hour cap.
 */
export const copilotTimeouts: AgentTimeouts = {
  unit: 's',
  defaultS: () => 30,
  maxS: () => 3600,
};

/** `$COPILOT_HOME` (resolved) when set, else `<home>/.copilot`. */
function copilotHomeDir(home: string, env: NodeJS.ProcessEnv): string {
  const given = env.COPILOT_HOME;
  return given !== undefined && given !== '' ? path.resolve(given) : path.join(home, '.copilot');
}

export const copilotInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.github', 'hooks', 'hookwerk.json'),
  userFile: (home, env) => path.join(copilotHomeDir(home, env), 'hooks', 'hookwerk.json'),
  // [T-MGD-2] docs/managed.md: the administrator path and what it does.
  systemFile: '/etc/github-copilot/policy.d/hookwerk.json',
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
  claudeEvent: (event) => claudeEventOf(COPILOT_CLAUDE_EVENTS, event),
  timeouts: copilotTimeouts,
  entry: (_event, command, timeoutS) => ({ type: 'command', bash: command, timeoutSec: timeoutS }),
  newFile: { version: 1 },
  // [A-COP-1] Copilot CLI runs the project's `.claude/settings.json` hooks too.
  runsClaudeFiles: true,
  // Its settings, the Claude Code files it runs, and every `.github/hooks/*.json`.
  envFiles: (projectDir) => [
    path.join(projectDir, '.github', 'copilot', 'settings.json'),
    path.join(projectDir, '.github', 'copilot', 'settings.local.json'),
    ...claudeSurface.projectFiles(projectDir),
    ...jsonFilesIn(path.join(projectDir, '.github', 'hooks')),
  ],
};

/** The `.json` files of `dir`, sorted; none when it is not a folder. */
function jsonFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}
