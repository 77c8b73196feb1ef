/**
 * `hookwerk hook --agent codex` [R-HOOK-1, R-MAP-1]: Codex CLI already uses Claude Code's event
 * names and `Bash`; its `apply_patch` becomes `Edit` (a patch that updates or deletes a file) or
 * `Write` (one that only adds files), with the first file as `file_path`. The answer is what Codex
 * 0.171's strict parser accepts for that event [A-CDX-1] — an unknown or unsupported field would
 * fail the hook and let the tool run — and `{}` for no opinion [R-HOOK-2]. Codex cannot ask from
 * PreToolUse, allows only with a rewrite and cannot stop there: an `ask` or a stop is a deny with
 * the reason, an allow without a rewrite is no opinion (docs/agents-hook.md).
 */
import { jsonReply, policyVerdict, reasonOr } from '../agent/policy-verdict.ts';
import { objectOf, textOf } from '../agent/tool-map.ts';
import { claudeShapedCall } from '../claude/hook-protocol.ts';
import type { ClaudeCall, HookAgentProtocol } from '../hook-agent.ts';

const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+)$/gm;

/** `apply_patch`'s patch text as Claude's `Edit` or `Write`, with the first file it names. */
function patchAsClaude(input: Record<string, unknown>): { tool: string; input: Record<string, unknown> } {
  const patch = textOf(input.command) ?? textOf(input.patch) ?? textOf(input.input) ?? '';
  const files = [...patch.matchAll(PATCH_FILE)];
  const onlyAdds = files.length > 0 && files.every((m) => m[1] === 'Add');
  const first = files[0]?.[2]?.trim();
  return {
    tool: onlyAdds ? 'Write' : 'Edit',
    input: { ...input, ...(first !== undefined ? { file_path: first } : {}) },
  };
}

/** Codex's events whose `hookSpecificOutput.additionalContext` it reads. */
const CONTEXT_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SessionStart',
  'SubagentStart',
]);
/** Where `decision: "block"` + `reason` blocks. */
const BLOCK_EVENTS = new Set(['PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop']);

function codexReply(call: ClaudeCall, decision: Parameters<HookAgentProtocol['reply']>[1]) {
  const v = policyVerdict(decision);
  const event = call.agentEvent;
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (event === 'PreToolUse') {
    const refused = v.permission === 'deny' || v.permission === 'ask' || v.stop !== undefined;
    if (refused) {
      specific.permissionDecision = 'deny';
      specific.permissionDecisionReason = v.reason ?? v.stop?.reason ?? reasonOr(v);
    } else if (v.updatedInput !== undefined) {
      specific.permissionDecision = 'allow';
      // A Bash rewrite keeps Codex's `{command}`; an apply_patch rewrite gives its patch text back.
      specific.updatedInput =
        call.agentTool === 'apply_patch' ? { command: v.updatedInput.command } : v.updatedInput;
    }
  } else if (event === 'PermissionRequest') {
    const answer = v.permissionRequest;
    if (answer !== undefined)
      specific.decision = {
        behavior: answer.behavior,
        ...(answer.message !== undefined && answer.message !== '' ? { message: answer.message } : {}),
      };
    else if (v.permission === 'deny') specific.decision = { behavior: 'deny', message: reasonOr(v) };
  } else if (v.permission === 'deny' && BLOCK_EVENTS.has(event)) {
    out.decision = 'block';
    out.reason = reasonOr(v);
  }
  if (v.additionalContext !== undefined && CONTEXT_EVENTS.has(event))
    specific.additionalContext = v.additionalContext;
  if (v.stop !== undefined && event !== 'PreToolUse') {
    out.continue = false;
    if (v.stop.reason !== undefined) out.stopReason = v.stop.reason;
  }
  if (v.systemMessage !== undefined) out.systemMessage = v.systemMessage;
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: event, ...specific };
  return jsonReply(out);
}

export const codexHookProtocol: HookAgentProtocol = {
  toClaude(given, named, env) {
    const call = claudeShapedCall(given, named, textOf(env.CLAUDE_PROJECT_DIR) ?? textOf(given.cwd));
    if ('problem' in call || call.toolName !== 'apply_patch') return call;
    const patch = patchAsClaude(objectOf(given.tool_input) ?? {});
    return {
      ...call,
      input: { ...call.input, tool_name: patch.tool, tool_input: patch.input },
      toolName: patch.tool,
      agentTool: 'apply_patch',
    };
  },
  reply: codexReply,
};
