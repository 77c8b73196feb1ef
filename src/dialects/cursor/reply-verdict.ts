/**
 * [G-TEST-1] A reply of `hookwerk hook --agent cursor` as Cursor reads it: with the answer reader
 * hookwerk's Cursor dialect runs hook files with (`permission`, `continue`, `followup_message`;
 * empty or non-JSON output blocks a preToolUse, as Cursor does).
 */
import type { ClaudeCall, HookReply, ReplyVerdict } from '../agent/hook-agent.ts';
import { replyAsRun, verdictOfAnswer } from '../agent/reply-verdict.ts';
import { readCursorAnswer } from './answer.ts';

export function readCursorReply(call: ClaudeCall, reply: HookReply): ReplyVerdict {
  return verdictOfAnswer(readCursorAnswer(call.agentEvent, replyAsRun(reply), 'open', { input: call.input }));
}
