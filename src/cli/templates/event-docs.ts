import type { LurusEventName } from '../../events/lurus-events.ts';

/** One field of `context` that the TS template types (fields beyond these come from the runtime). */
interface ContextField {
  name: string;
  doc: string;
}

/**
 * What a generated hook explains about its event [L-EV-1, L-EV-2], and the example it shows.
 * The text follows the event table of SPEC §2.2; examples stay commented out in the templates.
 */
interface EventDoc {
  /** Completes "EVENT fires …". */
  when: string;
  /** Lines on the matcher: which context field it is tested against, with example values. */
  matcher: string[];
  /** Lines on what a deny does here and what `reason` means for this event. */
  deny: string[];
  /** An example `context`, shown in the input line of the comment block. */
  exampleContext: Record<string, unknown>;
  /** Typed fields of `context` in the TS template. */
  contextFields: ContextField[];
  /** Shell example, commented out in the template (each line gets a `# ` prefix). */
  shellExample: string[];
  /** TS example inside `decide()`, commented out (each line gets a `// ` prefix). */
  tsExample: string[];
}

const TOOL_NAME: ContextField = {
  name: 'toolName',
  doc: 'The tool, e.g. "Write" or "Bash": what the matcher is tested against.',
};
const TOOL_INPUT: ContextField = {
  name: 'toolInput',
  doc: 'The input the tool really used; its shape depends on the tool.',
};
const AGENT_TYPE: ContextField = {
  name: 'toolName',
  doc: 'The agent type of the subagent: what the matcher is tested against.',
};
const TRIGGER: ContextField = { name: 'trigger', doc: 'What the matcher is tested against.' };

const NON_BLOCKING = [
  'Deny does NOT block: the action has already happened or goes ahead anyway. A deny',
  'only stops the hooks after this one for this event and is reported in the decision;',
  '"reason" appears there, nowhere else. Normally answer allow.',
];

/** Shell: the value of a string field of the (compact, one-line) event JSON. */
const sedField = (variable: string, field: string) =>
  `${variable}=$(printf '%s\\n' "$input" | sed -n 's/.*"${field}":"\\([^"]*\\)".*/\\1/p')`;

export const EVENT_DOCS: Record<LurusEventName, EventDoc> = {
  SessionStart: {
    when: 'when a session opens (a fresh start, a resume, or after a clear).',
    matcher: [
      'context.trigger: "startup", "resume" or "clear". Set "matcher" to e.g. "startup"',
      'to run only on a fresh start; missing, "" or "*" match every trigger.',
    ],
    deny: [
      ...NON_BLOCKING,
      '"additionalContext" is handed to the agent: a place for facts about the project.',
    ],
    exampleContext: { trigger: 'startup' },
    contextFields: [
      { ...TRIGGER, doc: '"startup", "resume" or "clear": what the matcher is tested against.' },
    ],
    shellExample: [
      sedField('trigger', 'trigger'),
      'if [ "$trigger" = "startup" ]; then',
      '  echo "session started in $PWD" >&2',
      `  printf '%s\\n' '{"decision":"allow","additionalContext":"Run npm test before you finish."}'`,
      '  exit 0',
      'fi',
    ],
    tsExample: [
      "if (input.context.trigger === 'startup') {",
      "  return { decision: 'allow', additionalContext: 'Run npm test before you finish.' };",
      '}',
    ],
  },
  SessionEnd: {
    when: 'when a session closes.',
    matcher: [
      'context.trigger: how the session closed (the values come from the agent runtime);',
      'missing, "" or "*" match every trigger.',
    ],
    deny: NON_BLOCKING,
    exampleContext: { trigger: 'exit' },
    contextFields: [{ ...TRIGGER, doc: 'How the session closed: what the matcher is tested against.' }],
    shellExample: [
      sedField('trigger', 'trigger'),
      `printf '%s session ended (%s)\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$trigger" >> .lurus/hooks/sessions.log`,
    ],
    tsExample: [
      "const { appendFileSync } = await import('node:fs');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the generated hook
      "appendFileSync('.lurus/hooks/sessions.log', `${new Date().toISOString()} session ended (${input.context.trigger})\\n`);",
    ],
  },
  UserPromptSubmit: {
    when: 'when the user sends a message, before the agent sees it.',
    matcher: [
      'none: this event has no toolName or trigger, so every matcher matches.',
      'Filter inside this script instead.',
    ],
    deny: [
      'Deny BLOCKS: the prompt is dropped and the agent never sees it.',
      '"reason" says why it was dropped (address the user).',
      '"additionalContext" (with allow) is handed to the agent along with the prompt.',
    ],
    exampleContext: { prompt: 'Add a test for the parser' },
    contextFields: [],
    shellExample: [
      "if printf '%s' \"$input\" | grep -qiE 'password|api[_-]?key|BEGIN [A-Z ]*PRIVATE KEY'; then",
      '  echo "The prompt seems to contain a secret, so it was not sent." >&2',
      '  exit 2',
      'fi',
    ],
    tsExample: [
      'if (/password|api[_-]?key|BEGIN [A-Z ]*PRIVATE KEY/i.test(JSON.stringify(input.context))) {',
      "  return { decision: 'deny', reason: 'The prompt seems to contain a secret, so it was not sent.' };",
      '}',
    ],
  },
  PreToolUse: {
    when: 'before any tool call.',
    matcher: [
      'context.toolName, e.g. "Write", or a regex like "^(Write|Edit)$"; missing, "" or',
      '"*" match every tool. Set "matcher" in .lurus/hooks.json to run only for some tools.',
    ],
    deny: [
      'Deny BLOCKS: the tool does not run. "reason" tells the agent why (it reads it and',
      'can try another way). Blocking one tool is no general write gate: Edit, shell',
      'commands etc. are other tools.',
    ],
    exampleContext: { toolName: 'Write', toolInput: { path: 'example.txt' } },
    contextFields: [TOOL_NAME, TOOL_INPUT],
    shellExample: [
      sedField('tool_name', 'toolName'),
      `if [ "$tool_name" = "Write" ] && printf '%s' "$input" | grep -q '"path":"[^"]*\\.env"'; then`,
      `  printf '%s\\n' '{"decision":"deny","reason":"Do not write .env files; ask the user instead."}'`,
      '  exit 0',
      'fi',
    ],
    tsExample: [
      'const toolInput = input.context.toolInput as { path?: unknown } | undefined;',
      "if (input.context.toolName === 'Write' && typeof toolInput?.path === 'string' && toolInput.path.endsWith('.env')) {",
      "  return { decision: 'deny', reason: 'Do not write .env files; ask the user instead.' };",
      '}',
    ],
  },
  PostToolUse: {
    when: 'after a successful tool call.',
    matcher: ['context.toolName, e.g. "Write" or "^(Write|Edit)$"; missing, "" or "*" match every tool.'],
    deny: [...NON_BLOCKING, '"additionalContext" is handed to the agent (e.g. a reminder after an edit).'],
    exampleContext: { toolName: 'Write', toolInput: { path: 'example.txt' } },
    contextFields: [TOOL_NAME, TOOL_INPUT],
    shellExample: [
      '# Log metadata only: toolInput may hold file contents or secrets.',
      sedField('tool_name', 'toolName'),
      `printf '%s %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$tool_name" >> .lurus/hooks/tool-events.log`,
    ],
    tsExample: [
      "const { appendFileSync } = await import('node:fs');",
      '// Log metadata only: toolInput may hold file contents or secrets.',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the generated hook
      "appendFileSync('.lurus/hooks/tool-events.log', `${new Date().toISOString()} ${input.context.toolName}\\n`);",
    ],
  },
  PostToolUseFailure: {
    when: 'after a tool call that failed.',
    matcher: ['context.toolName, e.g. "Bash"; missing, "" or "*" match every tool.'],
    deny: [...NON_BLOCKING, '"additionalContext" is handed to the agent (e.g. a hint on how to recover).'],
    exampleContext: { toolName: 'Bash', toolInput: { command: 'npm test' } },
    contextFields: [TOOL_NAME, TOOL_INPUT],
    shellExample: [
      sedField('tool_name', 'toolName'),
      'if [ "$tool_name" = "Bash" ]; then',
      `  printf '%s\\n' '{"decision":"allow","additionalContext":"Read the error output before you retry."}'`,
      '  exit 0',
      'fi',
    ],
    tsExample: [
      "if (input.context.toolName === 'Bash') {",
      "  return { decision: 'allow', additionalContext: 'Read the error output before you retry.' };",
      '}',
    ],
  },
  SubagentStart: {
    when: 'when a subagent is spawned.',
    matcher: [
      'context.toolName holds the agent type, e.g. "reviewer"; missing, "" or "*" match',
      'every subagent.',
    ],
    deny: [...NON_BLOCKING, '"additionalContext" is handed to the agent.'],
    exampleContext: { toolName: 'reviewer' },
    contextFields: [AGENT_TYPE],
    shellExample: [sedField('agent_type', 'toolName'), 'echo "subagent started: $agent_type" >&2'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the generated hook
    tsExample: ['stderr.write(`subagent started: ${input.context.toolName}\\n`);'],
  },
  SubagentStop: {
    when: 'when a subagent finishes.',
    matcher: [
      'context.toolName holds the agent type, e.g. "reviewer"; missing, "" or "*" match',
      'every subagent.',
    ],
    deny: [
      'Deny BLOCKS the stop: the subagent CONTINUES, and "reason" becomes its instruction',
      '(say what is left to do). Deny only while something is really left (a condition',
      'the subagent can make false), or it never finishes.',
    ],
    exampleContext: { toolName: 'reviewer' },
    contextFields: [AGENT_TYPE],
    shellExample: [
      sedField('agent_type', 'toolName'),
      'if [ "$agent_type" = "reviewer" ] && [ ! -f review-notes.md ]; then',
      `  printf '%s\\n' '{"decision":"deny","reason":"Write your findings to review-notes.md, then finish."}'`,
      '  exit 0',
      'fi',
    ],
    tsExample: [
      "const { existsSync } = await import('node:fs');",
      "if (input.context.toolName === 'reviewer' && !existsSync('review-notes.md')) {",
      "  return { decision: 'deny', reason: 'Write your findings to review-notes.md, then finish.' };",
      '}',
    ],
  },
  Stop: {
    when: 'when the agent is about to stop (its turn is over).',
    matcher: ['context.trigger (set by the agent runtime); missing, "" or "*" match every trigger.'],
    deny: [
      'Deny BLOCKS the stop: the agent CONTINUES, and "reason" becomes its instruction',
      '(say what is left to do). Deny only while something is really left (a condition',
      'the agent can make false), or the agent never stops.',
    ],
    exampleContext: { trigger: 'end_turn' },
    contextFields: [TRIGGER],
    shellExample: [
      "if [ -f TODO.md ] && grep -q '^- \\[ \\]' TODO.md; then",
      `  printf '%s\\n' '{"decision":"deny","reason":"TODO.md has open items: finish them and tick them off."}'`,
      '  exit 0',
      'fi',
    ],
    tsExample: [
      "const { existsSync, readFileSync } = await import('node:fs');",
      "if (existsSync('TODO.md') && /^- \\[ \\]/m.test(readFileSync('TODO.md', 'utf8'))) {",
      "  return { decision: 'deny', reason: 'TODO.md has open items: finish them and tick them off.' };",
      '}',
    ],
  },
  PreCompact: {
    when: 'before the context is compacted.',
    matcher: ['context.trigger: "manual" or "auto"; missing, "" or "*" match both.'],
    deny: ['Deny BLOCKS: there is no compaction. "reason" says why.'],
    exampleContext: { trigger: 'auto' },
    contextFields: [{ ...TRIGGER, doc: '"manual" or "auto": what the matcher is tested against.' }],
    shellExample: [
      sedField('trigger', 'trigger'),
      'if [ "$trigger" = "auto" ]; then',
      '  echo "Automatic compaction is off in this project; compact by hand." >&2',
      '  exit 2',
      'fi',
    ],
    tsExample: [
      "if (input.context.trigger === 'auto') {",
      "  return { decision: 'deny', reason: 'Automatic compaction is off in this project; compact by hand.' };",
      '}',
    ],
  },
  Notification: {
    when: 'when the agent sends a notification.',
    matcher: [
      'context.trigger: the notification type (set by the agent runtime); missing, "" or',
      '"*" match every type.',
    ],
    deny: NON_BLOCKING,
    exampleContext: { trigger: 'idle' },
    contextFields: [{ ...TRIGGER, doc: 'The notification type: what the matcher is tested against.' }],
    shellExample: [sedField('kind', 'trigger'), 'echo "notification: $kind" >&2'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the generated hook
    tsExample: ['stderr.write(`notification: ${input.context.trigger}\\n`);'],
  },
};
