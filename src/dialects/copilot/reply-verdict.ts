/**
 * [G-TEST-1] A reply of `hookwerk hook --agent copilot` as Copilot CLI reads it: with the answer
 * reader hookwerk's Copilot dialect runs hook files with, in the form the call came in (camelCase
 * `preToolUse` fields, or Claude Code's fields for the VS Code form's PascalCase events). An event
 * Copilot does not have is never answered by it: no objection.
 */
import type { ClaudeCall, HookReply, ReplyVerdict } from '../agent/hook-agent.ts';
import { replyAsRun, verdictOfAnswer } from '../agent/reply-verdict.ts';
import { readCopilotAnswer } from './answer.ts';
import { copilotEventOfKey } from './events.ts';

export function readCopilotReply(call: ClaudeCall, reply: HookReply): ReplyVerdict {
  const known = copilotEventOfKey(call.agentEvent);
  if (known === undefined)
    return { verdict: 'none', reason: `${call.agentEvent} is not a Copilot CLI event` };
  return verdictOfAnswer(readCopilotAnswer(known.event, replyAsRun(reply), 'open', known.form));
}
