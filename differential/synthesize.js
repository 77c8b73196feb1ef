// Firings for hookwerk when the real tool fired none (its settings turned every hook off, the
// recorder included): hookwerk must still be asked, or a hookwerk that ignores the setting would
// go unseen. The input is built from the case as the tool would have built it: the base fields
// every firing has, the prompt, and the first tool call of the model's turns.

const ORDER = {
  claude: ['SessionStart', 'UserPromptSubmit', 'PreToolUse'],
  gemini: ['SessionStart', 'BeforeAgent', 'BeforeTool'],
  codex: ['SessionStart', 'UserPromptSubmit', 'PreToolUse'],
  copilot: ['sessionStart', 'userPromptSubmitted', 'preToolUse'],
};

/**
 * @param {'claude'|'gemini'} dialect
 * @param {object} kase
 * @param {{proj: string}} world
 * @param {string|undefined} sessionId the real run's session, when it printed one
 */
export function synthesizeFirings(dialect, kase, world, sessionId) {
  const call = kase.turns[0]?.tools?.[0];
  const prompt = kase.prompt ?? 'Run the step.';
  const fields = {
    SessionStart: { source: 'startup' },
    UserPromptSubmit: { prompt },
    BeforeAgent: { prompt },
    PreToolUse: call && codexOr(dialect, call),
    BeforeTool: call && { tool_name: call.name, tool_input: call.input },
    sessionStart: { source: 'new', initialPrompt: prompt },
    userPromptSubmitted: { prompt },
    preToolUse: call && { toolName: call.name, toolArgs: call.input },
  };
  const events = new Set([...Object.keys(kase.hooks ?? {}), ...Object.keys(kase.userHooks ?? {})]);
  return ORDER[dialect]
    .filter((e) => events.has(e) && fields[e] !== undefined)
    .map((event) => {
      if (dialect === 'copilot') {
        const input = {
          sessionId: sessionId ?? 'differential-session',
          timestamp: Date.now(),
          cwd: world.proj,
          ...fields[event],
        };
        return { event, input, stdin: JSON.stringify(input), t: 0, tEnd: 0, records: [], synthetic: true };
      }
      const input = {
        session_id: sessionId ?? 'differential-session',
        cwd: world.proj,
        hook_event_name: event,
        ...(dialect === 'gemini' ? { timestamp: new Date().toISOString() } : {}),
        ...fields[event],
      };
      return { event, input, stdin: JSON.stringify(input), t: 0, tEnd: 0, records: [], synthetic: true };
    });
}

/** Codex names its shell tool `Bash` with `{command}` and a patch `apply_patch` with `{command: <patch>}`. */
function codexOr(dialect, call) {
  if (dialect !== 'codex') return { tool_name: call.name, tool_input: call.input };
  return call.name === 'apply_patch'
    ? { tool_name: 'apply_patch', tool_input: { command: call.input.patch } }
    : { tool_name: 'Bash', tool_input: { command: call.input.command } };
}
