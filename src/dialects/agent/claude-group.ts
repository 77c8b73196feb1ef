/**
 * [R-INST-1] The hook group Claude Code's settings hold one handler in: Claude's, Codex's and
 * Gemini CLI's installs write it, so it lives in the base every agent folder builds on (issue 31).
 */
/** Claude Code's group shape, `{hooks: [{type: "command", command, timeout}]}` (Codex and Gemini CLI read it too). */
export function claudeGroup(handler: Readonly<Record<string, unknown>>): unknown {
  return { hooks: [{ type: 'command', ...handler }] };
}
