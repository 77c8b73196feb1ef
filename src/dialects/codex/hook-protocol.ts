/**
 * `hookwerk hook --agent codex` [R-HOOK-1, R-MAP-1]: Codex CLI already uses Claude Code's event
 * names and `Bash`. Its `apply_patch` — and a shell command that runs `apply_patch <<EOF`, which
 * Codex applies as a patch too — stands for one Claude `Edit`/`Write` call per file the patch
 * touches (`patch-calls.ts`), each decided by the policy. The answer is what Codex
 * 0.171's strict parser accepts for that event [A-CDX-1] — an unknown or unsupported field would
 * fail the hook and let the tool run — and `{}` for no opinion [R-HOOK-2]. Codex cannot ask from
 * PreToolUse, allows only with a rewrite and cannot stop there: an `ask` or a stop is a deny with
 * the reason, an allow without a rewrite is no opinion (docs/agents-hook.md). A patch is rewritten
 * only through its patch text (`command`).
 */
import { isDeepStrictEqual } from 'node:util';
import { claudeShapedCall } from '../agent/claude-shape.ts';
import type { ClaudeCall, HookAgentProtocol } from '../agent/hook-agent.ts';
import { jsonReply, policyVerdict, reasonOr } from '../agent/policy-verdict.ts';
import { objectOf, textOf } from '../agent/tool-map.ts';
import { patchCalls, shellPatchCalls } from './patch-calls.ts';

/**
 * A policy rewrite of a patch as Codex takes it: the patch text in `command`. Codex runs only that
 * text, so a rewrite that changes another field (`file_path`, `content`: derived from the patch)
 * and leaves the text as it was cannot be applied; it is refused with the reason rather than
 * dropped, which would run what a hook wanted changed.
 */
function patchRewrite(call: ClaudeCall, rewrite: Record<string, unknown>): { command: string } | string {
  const given = objectOf(call.input.tool_input) ?? {};
  const command = rewrite.command;
  if (typeof command !== 'string' || command === '')
    return 'hookwerk: a policy hook rewrote this patch without giving its text in tool_input.command; a patch is rewritten only through its text';
  const same = command === given.command;
  const changed = Object.keys({ ...given, ...rewrite }).filter(
    (k) => k !== 'command' && !isDeepStrictEqual(given[k], rewrite[k]),
  );
  if (same && changed.length > 0)
    return `hookwerk: a policy hook rewrote ${changed.join(', ')} of this patch but not its text; Codex applies only the patch text (tool_input.command)`;
  return { command };
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
      // A Bash rewrite keeps Codex's `{command}`; an apply_patch rewrite gives its patch text back.
      const rewrite = call.agentTool === 'apply_patch' ? patchRewrite(call, v.updatedInput) : v.updatedInput;
      if (typeof rewrite === 'string') {
        specific.permissionDecision = 'deny';
        specific.permissionDecisionReason = rewrite;
      } else {
        specific.permissionDecision = 'allow';
        specific.updatedInput = rewrite;
      }
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
    if ('problem' in call) return call;
    if (call.toolName === 'apply_patch') return patchCalls(call, given, env);
    return call.toolName === 'Bash' ? shellPatchCalls(call, given, env) : call;
  },
  reply: codexReply,
  readReply: async (call, reply) => (await import('./reply-verdict.ts')).readCodexReply(call, reply),
};
