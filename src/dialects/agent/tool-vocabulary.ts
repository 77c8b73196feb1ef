/**
 * How a tool call is put to a gate dialect, in its own words [AD-AI-1, AD-OAI-1]: the events and
 * input fields of "before a tool runs", "after it ran" and "after it failed". Each dialect's entry
 * in the table carries its own (issue 31); Claude Code's is the base the others differ from.
 */
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

export const CLAUDE_TOOLS: ToolVocabulary = {
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
