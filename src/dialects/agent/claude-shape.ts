/**
 * Claude Code's hook protocol, the shape every agent's call and answer is translated through
 * [R-MAP-1, C-ANS rules]: an input in Claude Code's shape as a call, and a decision as Claude Code's
 * stdout JSON. Claude's own `hook-protocol.ts` uses both as they are; Codex's and Copilot's reuse
 * them, so they live in the base every agent folder builds on (issue 31), not in `claude/`.
 */
import type { AgentDecision } from '../../dispatch/agent-answer.ts';
import { claudeCall, namedEvents } from './claude-call.ts';
import type { CallProblem, ClaudeCall } from './hook-agent.ts';
import { policyVerdict, reasonOr } from './policy-verdict.ts';
import { textOf } from './tool-map.ts';

/** The events whose `hookSpecificOutput.additionalContext` reaches the model. */
const CONTEXT_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
  'SubagentStart',
]);

/** A Claude Code input (or one in its shape) as a call: event, project, session and tool. */
export function claudeShapedCall(
  given: Record<string, unknown>,
  named: string | undefined,
  projectDir: string | undefined,
): ClaudeCall | CallProblem {
  const events = namedEvents(given, named);
  if ('problem' in events) return events;
  const { event } = events;
  const input = { ...given, hook_event_name: event };
  return claudeCall(event, event, input, {
    projectDir,
    sessionId: textOf(given.session_id),
    toolName: textOf(given.tool_name),
  });
}

/** The decision as a Claude Code hook's stdout JSON (exit 0), or nothing for no opinion. */
export function claudeAnswerJson(
  event: string,
  decision: AgentDecision | undefined,
): Record<string, unknown> {
  const v = policyVerdict(decision);
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (event === 'PreToolUse') {
    if (v.permission !== undefined) {
      specific.permissionDecision = v.permission;
      if (v.permission !== 'allow' || v.reason !== undefined) specific.permissionDecisionReason = reasonOr(v);
    }
    if (v.updatedInput !== undefined) specific.updatedInput = v.updatedInput;
  } else if (event === 'PermissionRequest') {
    if (v.permissionRequest !== undefined) specific.decision = { ...v.permissionRequest };
    else if (v.permission === 'deny') specific.decision = { behavior: 'deny', message: reasonOr(v) };
  } else if (v.permission === 'deny') {
    out.decision = 'block';
    out.reason = reasonOr(v);
  }
  if (v.additionalContext !== undefined && CONTEXT_EVENTS.has(event))
    specific.additionalContext = v.additionalContext;
  if (v.stop !== undefined) {
    out.continue = false;
    if (v.stop.reason !== undefined) out.stopReason = v.stop.reason;
  }
  if (v.systemMessage !== undefined) out.systemMessage = v.systemMessage;
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: event, ...specific };
  return out;
}
