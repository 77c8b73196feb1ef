/**
 * [AD-MCP-1] The three events of one gated call in the engine's gate dialect — what each hook is
 * given, and what the gate makes of the decision. `claude` speaks Claude Code's input
 * (`tool_name`, `tool_input`, `tool_response`, [C-IN-1]), and so does `policy`, hookwerk's own
 * policy files read with Claude Code's rules [R-POL-1, G-PERM-1]; `lurus` its own context
 * (`toolName`, `toolInput`, `toolResponse` [L-EV-1]).
 */
import type { GateDecision } from '../engine-api.ts';
import type { McpToolResult } from './tool-result.ts';

/** The gate dialects whose events a tool call maps to. */
export type McpGateDialect = 'policy' | 'claude' | 'lurus';

export function isMcpGateDialect(name: string): name is McpGateDialect {
  return name === 'policy' || name === 'claude' || name === 'lurus';
}

/** One call as its events describe it. */
export interface ToolCall {
  /** `mcp__<server>__<tool>`. */
  toolName: string;
  args: Record<string, unknown>;
  sessionId: string;
}

type Input = Record<string, unknown>;

interface DialectInputs {
  pre(call: ToolCall): Input;
  post(call: ToolCall, result: McpToolResult): Input;
  failure(call: ToolCall, error: string, interrupted: boolean): Input;
}

const CLAUDE_INPUTS: DialectInputs = {
  pre: (c) => ({ session_id: c.sessionId, tool_name: c.toolName, tool_input: c.args }),
  post: (c, result) => ({
    session_id: c.sessionId,
    tool_name: c.toolName,
    tool_input: c.args,
    tool_response: result,
  }),
  failure: (c, error, interrupted) => ({
    session_id: c.sessionId,
    tool_name: c.toolName,
    tool_input: c.args,
    error,
    is_interrupt: interrupted,
  }),
};

export const TOOL_EVENTS: Record<McpGateDialect, DialectInputs> = {
  claude: CLAUDE_INPUTS,
  policy: CLAUDE_INPUTS,
  lurus: {
    pre: (c) => ({ toolName: c.toolName, toolInput: c.args }),
    post: (c, result) => ({ toolName: c.toolName, toolInput: c.args, toolResponse: result }),
    failure: (c, error) => ({ toolName: c.toolName, toolInput: c.args, error }),
  },
};

/** What PreToolUse decided, for a call through MCP. */
export interface PreVerdict {
  /** Why the call must not run; undefined: it may. */
  deny?: string;
  /** The arguments to call the tool with instead [C-ANS-3]. */
  updatedInput?: Record<string, unknown>;
  /** For the model: added to the tool's result. */
  context: string[];
  /** For the user (`systemMessage`): one line each on the host's log. */
  notes: string[];
}

/** What PostToolUse or PostToolUseFailure decided. */
export interface PostVerdict {
  /** For the model: a block's reason and `additionalContext`, added to the tool's result. */
  feedback: string[];
  notes: string[];
}

/**
 * The Claude Code decision of a tool call, as an MCP gate can act on it: `deny` and a block stop
 * the call; `ask` and `defer` stop it too (there is no one to ask and nothing to resume in a
 * proxy, and letting it through would turn "ask first" into "allow"); `continue: false` (stop the
 * agent) stops at least this call.
 */
export function preVerdict(decision: GateDecision, toolName: string): PreVerdict {
  const context = decision.additionalContext === undefined ? [] : [decision.additionalContext];
  if (!('continue' in decision))
    return decision.decision === 'deny'
      ? { deny: decision.reason ?? `a hook denied ${toolName}`, context, notes: [] }
      : { context, notes: [] };
  const notes = decision.systemMessage === undefined ? [] : [decision.systemMessage];
  const verdict: PreVerdict = { context, notes };
  if (decision.updatedInput !== undefined) verdict.updatedInput = decision.updatedInput;
  const why = decision.reason === undefined ? '' : `: ${decision.reason}`;
  if (decision.blocked || decision.decision === 'deny')
    verdict.deny = decision.reason ?? `a hook denied ${toolName}`;
  else if (decision.decision === 'ask')
    verdict.deny = `a hook asks for the user's approval of ${toolName}, which the MCP gate cannot ask for${why}`;
  else if (decision.decision === 'defer')
    verdict.deny = `a hook defers ${toolName}, which the MCP gate cannot resume later${why}`;
  else if (!decision.continue)
    verdict.deny = decision.stopReason ?? `a hook stopped the agent before ${toolName}`;
  return verdict;
}

/** After the call: a block (or a Lurus deny) is feedback for the model, as Claude Code gives it. */
export function postVerdict(decision: GateDecision): PostVerdict {
  const feedback: string[] = [];
  const notes: string[] = [];
  if (decision.decision === 'deny' && decision.reason !== undefined) feedback.push(decision.reason);
  if (decision.additionalContext !== undefined) feedback.push(decision.additionalContext);
  if ('continue' in decision) {
    if (decision.systemMessage !== undefined) notes.push(decision.systemMessage);
    if (!decision.continue)
      notes.push(`a hook asks to stop the agent: ${decision.stopReason ?? 'no reason given'}`);
  }
  return { feedback, notes };
}
