/**
 * `hookwerk hook --agent cursor` [R-HOOK-1, R-MAP-1]: Cursor's events and tool types as Claude
 * Code's, and the answer in the fields Cursor reads on that event (research/cursor-facts.md §4,
 * §7). Every reply is JSON, `{}` for no opinion: Cursor blocks a preToolUse whose stdout is empty
 * or not JSON [R-HOOK-2]. Where Cursor does not enforce `ask` (preToolUse, subagentStart,
 * beforeReadFile) an ask is a deny with the reason, never a silent pass.
 */

import { mcpToolName } from '../../action/mcp-tool-name.ts';
import { claudeCall, namedEvents } from '../agent/claude-call.ts';
import type { EventMap } from '../agent/event-map.ts';
import type { HookAgentProtocol } from '../agent/hook-agent.ts';
import { jsonReply, policyVerdict, reasonOr } from '../agent/policy-verdict.ts';
import { objectOf, textOf, toolArgsObject, toolMapper } from '../agent/tool-map.ts';

export const CURSOR_CLAUDE_EVENTS: EventMap = {
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  beforeSubmitPrompt: 'UserPromptSubmit',
  stop: 'Stop',
  preCompact: 'PreCompact',
  beforeShellExecution: 'PreToolUse',
  afterShellExecution: 'PostToolUse',
  beforeReadFile: 'PreToolUse',
  afterFileEdit: 'PostToolUse',
  beforeMCPExecution: 'PreToolUse',
  afterMCPExecution: 'PostToolUse',
};

export const cursorTools = toolMapper([
  { agent: 'Shell', claude: 'Bash' },
  { agent: 'Read', claude: 'Read' },
  { agent: 'Write', claude: 'Write' },
  { agent: 'Edit', claude: 'Edit' },
  { agent: 'Grep', claude: 'Grep' },
  { agent: 'Task', claude: 'Task' },
]);

/** Events that read `permission`, and whether they enforce `ask`. */
const PERMISSION_EVENTS: ReadonlyMap<string, boolean> = new Map([
  ['preToolUse', false],
  ['subagentStart', false],
  ['beforeReadFile', false],
  ['beforeShellExecution', true],
  ['beforeMCPExecution', true],
]);
const CONTEXT_EVENTS = new Set(['sessionStart', 'postToolUse']);

/**
 * `MCP:<tool>` (or beforeMCPExecution's tool) as Claude's `mcp__<server>__<tool>`, both names
 * normalised as Claude Code does; the tool's name is the server's word, never a name of its own:
 * a tool called `mcp__github__wipe` stays the tool of its server (src/action/mcp-tool-name.ts).
 */
function mcpName(tool: string, given: Record<string, unknown>): string {
  return mcpToolName(textOf(given.server_name) ?? textOf(given.server) ?? 'cursor', tool);
}

/** The Claude Code tool call an event of Cursor's stands for. */
function toolOf(
  agentEvent: string,
  given: Record<string, unknown>,
): { agentTool?: string; name?: string; input?: Record<string, unknown> } {
  switch (agentEvent) {
    case 'beforeShellExecution':
    case 'afterShellExecution': {
      const command = textOf(given.command) ?? '';
      return {
        agentTool: 'Shell',
        name: 'Bash',
        input: { command, ...(textOf(given.cwd) ? { cwd: given.cwd } : {}) },
      };
    }
    case 'beforeReadFile':
      return { agentTool: 'Read', name: 'Read', input: { file_path: given.file_path } };
    case 'afterFileEdit':
      return { agentTool: 'Write', name: 'Edit', input: { file_path: given.file_path, edits: given.edits } };
    case 'beforeMCPExecution':
    case 'afterMCPExecution': {
      const tool = textOf(given.tool_name) ?? '';
      return { agentTool: tool, name: mcpName(tool, given), input: toolArgsObject(given.tool_input) ?? {} };
    }
    default: {
      const tool = textOf(given.tool_name);
      if (tool === undefined) return {};
      const input = objectOf(given.tool_input) ?? toolArgsObject(given.tool_input) ?? {};
      if (tool.startsWith('MCP:')) return { agentTool: tool, name: mcpName(tool.slice(4), given), input };
      return {
        agentTool: tool,
        name: cursorTools.claudeName(tool),
        input: cursorTools.toClaude(tool, input),
      };
    }
  }
}

export const cursorHookProtocol: HookAgentProtocol = {
  toClaude(given, named, env) {
    const events = namedEvents(given, named, CURSOR_CLAUDE_EVENTS);
    if ('problem' in events) return events;
    const { agentEvent, event } = events;
    const roots = Array.isArray(given.workspace_roots) ? given.workspace_roots : [];
    const projectDir = textOf(roots[0]) ?? textOf(env.CURSOR_PROJECT_DIR) ?? textOf(env.CLAUDE_PROJECT_DIR);
    const sessionId = textOf(given.conversation_id) ?? textOf(given.session_id);
    const input: Record<string, unknown> = { ...given, hook_event_name: event };
    if (sessionId !== undefined) input.session_id = sessionId;
    if (input.cwd === undefined && projectDir !== undefined) input.cwd = projectDir;
    if (event === 'Stop' || event === 'SubagentStop')
      input.stop_hook_active = typeof given.loop_count === 'number' && given.loop_count > 0;
    if (agentEvent === 'beforeSubmitPrompt' && typeof given.prompt === 'string') input.prompt = given.prompt;
    const tool = toolOf(agentEvent, given);
    if (tool.name !== undefined) {
      input.tool_name = tool.name;
      input.tool_input = tool.input ?? {};
    }
    return claudeCall(agentEvent, event, input, {
      projectDir,
      sessionId,
      toolName: tool.name,
      agentTool: tool.agentTool,
    });
  },
  reply(call, decision) {
    const v = policyVerdict(decision);
    const event = call.agentEvent;
    const out: Record<string, unknown> = {};
    const asks = PERMISSION_EVENTS.get(event);
    if (asks !== undefined) {
      const permission = v.permission === 'ask' && !asks ? 'deny' : v.permission;
      if (permission !== undefined) {
        out.permission = permission;
        if (permission !== 'allow' || v.reason !== undefined) {
          out.user_message = reasonOr(v);
          out.agent_message = reasonOr(v);
        }
      }
      if (event === 'preToolUse' && v.updatedInput !== undefined && permission !== 'deny')
        out.updated_input =
          call.agentTool !== undefined && !call.agentTool.startsWith('MCP:')
            ? cursorTools.fromClaude(call.agentTool, v.updatedInput)
            : v.updatedInput;
    } else if (event === 'beforeSubmitPrompt') {
      if (v.permission === 'deny' || v.stop !== undefined) {
        out.continue = false;
        out.user_message = v.reason ?? v.stop?.reason ?? reasonOr(v);
      }
    } else if ((event === 'stop' || event === 'subagentStop') && v.permission === 'deny') {
      out.followup_message = reasonOr(v);
    }
    if (v.additionalContext !== undefined && CONTEXT_EVENTS.has(event))
      out.additional_context = v.additionalContext;
    if (event === 'sessionStart' && v.env !== undefined) out.env = { ...v.env };
    return jsonReply(out);
  },
  readReply: async (call, reply) => (await import('./reply-verdict.ts')).readCursorReply(call, reply),
};
