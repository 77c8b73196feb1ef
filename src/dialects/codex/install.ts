/**
 * [R-INST-1] Where `hookwerk install --agent codex` writes: `hooks.json` of the project's
 * `.codex/` layer or of `$CODEX_HOME` (default `~/.codex`), in Claude's shape, one group per event
 * without a matcher; `timeout` a whole number of seconds, as Codex requires [A-CDX-1]. Every
 * event is one Codex 0.171 fires (`codex/events.ts`), so no key is one Codex would warn about.
 */
import path from 'node:path';
import { claudeGroup } from '../agent/claude-group.ts';
import type { AgentInstall } from '../agent/hook-agent.ts';
import type { AgentTimeouts } from '../agent/hook-timeout.ts';

/**
 * [G-FAIL-4] Codex's timeouts (research/codex-facts.md, hook-systems-2026.md), whole seconds:
 * 600 s by default; SessionEnd 1 s, clamped to 3 s (Codex prints `clamping SessionEnd hook
 * timeout to 3s` and warns on every run about a longer one). No other maximum is documented:
 * hookwerk's one-hour cap.
 */
export const codexTimeouts: AgentTimeouts = {
  unit: 's',
  defaultS: (event) => (event === 'SessionEnd' ? 1 : 600),
  maxS: (event) => (event === 'SessionEnd' ? 3 : 3600),
};

/** `$CODEX_HOME` (resolved) when set, else `<home>/.codex`: Codex's user layer. */
export function codexHomeDir(home: string, env: NodeJS.ProcessEnv): string {
  const given = env.CODEX_HOME;
  return given !== undefined && given !== '' ? path.resolve(given) : path.join(home, '.codex');
}

export const codexInstall: AgentInstall = {
  projectFile: (projectDir) => path.join(projectDir, '.codex', 'hooks.json'),
  userFile: (home, env) => path.join(codexHomeDir(home, env), 'hooks.json'),
  // [T-MGD-2] Codex's managed hooks: `[[hooks.<Event>]]` tables of its requirements file, run for
  // every user without the trust review (codex-rs config/loader, hooks discovery; seen with 0.171).
  systemFile: '/etc/codex/requirements.toml',
  systemToml: true,
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
  claudeEvent: (event) => event,
  timeouts: codexTimeouts,
  entry: (_event, command, timeoutS) => claudeGroup({ command, timeout: timeoutS }),
  runsClaudeFiles: false,
  // Codex passes its own environment, none of a file's (codex-facts.md).
  envFiles: () => [],
};
