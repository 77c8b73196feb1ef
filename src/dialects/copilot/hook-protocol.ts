/**
 * `hookwerk hook --agent copilot` [R-HOOK-1, R-MAP-1]: Copilot CLI's camelCase input (its event
 * from `--event`, since the input names none) as a Claude Code event and input, and the answer in
 * the fields Copilot 1.0.102 reads for that event [A-COP-1]; `{}` for no opinion [R-HOOK-2]. An
 * input in the VS Code form (`hook_event_name`, a PascalCase key) is answered as Claude Code's.
 */

import { claudeCall, toolNameOf } from '../agent/claude-call.ts';
import { claudeAnswerJson, claudeShapedCall } from '../agent/claude-shape.ts';
import type { EventMap } from '../agent/event-map.ts';
import { claudeEventOf } from '../agent/event-map.ts';
import type { CallProblem, ClaudeCall, HookAgentProtocol } from '../agent/hook-agent.ts';
import { jsonReply, policyVerdict, reasonOr } from '../agent/policy-verdict.ts';
import { objectOf, textOf, toolArgsObject, toolMapper } from '../agent/tool-map.ts';
import { copilotToolName } from './payload.ts';

export const COPILOT_CLAUDE_EVENTS: EventMap = {
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  userPromptSubmitted: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  permissionRequest: 'PermissionRequest',
  agentStop: 'Stop',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  preCompact: 'PreCompact',
  notification: 'Notification',
};

export const copilotTools = toolMapper([
  { agent: 'bash', claude: 'Bash' },
  {
    agent: 'edit',
    claude: 'Edit',
    fields: { path: 'file_path', old_str: 'old_string', new_str: 'new_string' },
  },
  { agent: 'create', claude: 'Write', fields: { path: 'file_path', file_text: 'content' } },
  { agent: 'view', claude: 'Read', fields: { path: 'file_path' } },
  { agent: 'glob', claude: 'Glob' },
  { agent: 'grep', claude: 'Grep' },
  { agent: 'web_fetch', claude: 'WebFetch' },
  { agent: 'task', claude: 'Task' },
]);

/** Copilot's camelCase fields as Claude Code's. */
const FIELDS: Readonly<Record<string, string>> = {
  sessionId: 'session_id',
  transcriptPath: 'transcript_path',
  toolResult: 'tool_response',
  stopReason: 'stop_reason',
  initialPrompt: 'initial_prompt',
  errorMessage: 'error',
};

/**
 * The VS Code form: Claude's shape, but Copilot's tool (PascalCased: `Create`) and its own fields
 * (`path`, `file_text`): mapped as the camelCase form is, so a Write guard sees `create` and its
 * `file_path` is the `path` the tool writes. A tool not in the table keeps its name and input.
 */
function vscodeCall(
  given: Record<string, unknown>,
  named: string | undefined,
  projectDir: string | undefined,
): ClaudeCall | CallProblem {
  const call = claudeShapedCall(given, named, projectDir);
  if ('problem' in call || call.toolName === undefined) return call;
  const own = copilotToolName(call.toolName);
  const claude = copilotTools.claudeName(own);
  const args = objectOf(given.tool_input) ?? toolArgsObject(given.tool_input);
  if (claude === own || args === undefined) return call;
  return {
    ...call,
    input: { ...call.input, tool_name: claude, tool_input: copilotTools.toClaude(own, args) },
    toolName: claude,
    agentTool: own,
  };
}

const CONTEXT_EVENTS = new Set(['userPromptSubmitted', 'sessionStart', 'subagentStart', 'notification']);
const BLOCK_EVENTS = new Set(['userPromptSubmitted', 'agentStop', 'subagentStop', 'postToolUse']);

export const copilotHookProtocol: HookAgentProtocol = {
  toClaude(given, named, env) {
    const projectDir = textOf(env.COPILOT_PROJECT_DIR) ?? textOf(env.CLAUDE_PROJECT_DIR) ?? textOf(given.cwd);
    if (textOf(given.hook_event_name) !== undefined) return vscodeCall(given, named, projectDir);
    const agentEvent = textOf(given.hookName) ?? named;
    if (agentEvent === undefined) return { problem: "Copilot's input names no event: give --event" };
    const event = claudeEventOf(COPILOT_CLAUDE_EVENTS, agentEvent) ?? agentEvent;
    const input: Record<string, unknown> = { hook_event_name: event };
    const tool = textOf(given.toolName);
    for (const [k, v] of Object.entries(given)) {
      if (k === 'hookName' || k === 'timestamp') continue;
      if (k === 'toolName') input.tool_name = tool !== undefined ? copilotTools.claudeName(tool) : v;
      else if (k === 'toolArgs' || k === 'toolInput') {
        const args = toolArgsObject(v);
        input.tool_input =
          args !== undefined && tool !== undefined ? copilotTools.toClaude(tool, args) : (args ?? v);
      } else input[Object.hasOwn(FIELDS, k) ? (FIELDS[k] ?? k) : k] = v;
    }
    return claudeCall(agentEvent, event, input, {
      projectDir,
      sessionId: textOf(input.session_id),
      toolName: toolNameOf(input),
      agentTool: tool,
    });
  },
  reply(call, decision) {
    if (textOf(call.input.hook_event_name) === call.agentEvent && call.agentEvent === call.event) {
      // The VS Code form (a PascalCase key): Copilot reads Claude Code's answer there, its tool's
      // own field names in a rewrite.
      const back =
        decision?.updatedInput !== undefined && call.agentTool !== undefined
          ? { ...decision, updatedInput: copilotTools.fromClaude(call.agentTool, decision.updatedInput) }
          : decision;
      return jsonReply(claudeAnswerJson(call.event, back));
    }
    const v = policyVerdict(decision);
    const event = call.agentEvent;
    const out: Record<string, unknown> = {};
    if (event === 'preToolUse') {
      if (v.permission !== undefined) {
        out.permissionDecision = v.permission;
        if (v.permission !== 'allow' || v.reason !== undefined) out.permissionDecisionReason = reasonOr(v);
      }
      if (v.updatedInput !== undefined && v.permission !== 'deny')
        out.modifiedArgs =
          call.agentTool !== undefined
            ? copilotTools.fromClaude(call.agentTool, v.updatedInput)
            : v.updatedInput;
    } else if (event === 'permissionRequest') {
      const answer = v.permissionRequest;
      if (answer !== undefined) {
        out.behavior = answer.behavior;
        if (answer.message !== undefined && answer.message !== '') out.message = answer.message;
        if (answer.interrupt === true) out.interrupt = true;
      } else if (v.permission === 'deny') {
        out.behavior = 'deny';
        out.message = reasonOr(v);
      }
    } else if (event === 'postToolUseFailure') {
      // Copilot reads a failure's guidance for the model from exit 2 and stderr.
      const guidance = v.additionalContext ?? (v.permission === 'deny' ? reasonOr(v) : undefined);
      if (guidance !== undefined) return { stdout: '', stderr: `${guidance}\n`, exitCode: 2 };
    } else if (v.permission === 'deny' && BLOCK_EVENTS.has(event)) {
      out.decision = 'block';
      out.reason = reasonOr(v);
    }
    if (v.additionalContext !== undefined && CONTEXT_EVENTS.has(event))
      out.additionalContext = v.additionalContext;
    return jsonReply(out);
  },
  readReply: async (call, reply) => (await import('./reply-verdict.ts')).readCopilotReply(call, reply),
};
