/**
 * How a tool call is put to the engine's gate, in the words of its gate dialect: the events and
 * the input fields of "before a tool runs", "after it ran" and "after it failed". The one place
 * the adapters look at which dialect an engine speaks [AD-AI-1, AD-OAI-1]; a new dialect is a line
 * in the table (the `satisfies` makes a missing one a compile error).
 */
import type { GateDialect } from '../dialects/gate-dialects.ts';

export interface ToolVocabulary {
  /** The event asked before the tool runs (the one that can block it). */
  readonly pre: string;
  /** The event told after it ran, with its output. */
  readonly post: string;
  /** The event told after it failed; undefined where the dialect has none. */
  readonly failure: string | undefined;
  /** The input fields: tool name, arguments, output, error, session, call id. */
  readonly name: string;
  readonly input: string;
  readonly output: string;
  readonly error: string;
  readonly session: string;
  readonly callId: string;
  /** The output is given as text (Cursor's `tool_output` is a JSON string), not as the value. */
  readonly outputAsText: boolean;
  /** It takes every Claude Code event and input as Claude Code sends them (the Claude Agent SDK's hooks). */
  readonly claudeEvents: boolean;
}

const CLAUDE: ToolVocabulary = {
  pre: 'PreToolUse',
  post: 'PostToolUse',
  failure: 'PostToolUseFailure',
  name: 'tool_name',
  input: 'tool_input',
  output: 'tool_response',
  error: 'error',
  session: 'session_id',
  callId: 'tool_use_id',
  outputAsText: false,
  claudeEvents: true,
};

const VOCABULARIES = {
  // [L-EV-1] Lurus's context is camelCase; it names no output field, so `toolOutput` is ours.
  lurus: {
    ...CLAUDE,
    name: 'toolName',
    input: 'toolInput',
    output: 'toolOutput',
    session: 'sessionId',
    callId: 'toolUseId',
    claudeEvents: false,
  },
  claude: CLAUDE,
  policy: CLAUDE,
  // Copilot takes Claude's PascalCase events with the snake_case (VS Code) input [A-COP-1].
  copilot: { ...CLAUDE, claudeEvents: false },
  // Codex has no PostToolUseFailure and refuses events it does not have [A-CDX-1].
  codex: { ...CLAUDE, failure: undefined, claudeEvents: false },
  gemini: { ...CLAUDE, pre: 'BeforeTool', post: 'AfterTool', failure: undefined, claudeEvents: false },
  cursor: {
    ...CLAUDE,
    pre: 'preToolUse',
    post: 'postToolUse',
    failure: 'postToolUseFailure',
    output: 'tool_output',
    error: 'error_message',
    outputAsText: true,
    claudeEvents: false,
  },
} as const satisfies Record<GateDialect, ToolVocabulary>;

/** The vocabulary of an engine's gate dialect. */
export function toolVocabulary(dialect: GateDialect): ToolVocabulary {
  return VOCABULARIES[dialect];
}
