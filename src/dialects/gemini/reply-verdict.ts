/**
 * [G-TEST-1] A reply of `hookwerk hook --agent gemini` as Gemini CLI reads it: with the answer
 * reader hookwerk's Gemini dialect runs hook files with (`decision`, `reason`, `continue`, exit 2).
 * An event Gemini CLI does not have is never answered by it: no objection.
 */
import type { ClaudeCall, HookReply, ReplyVerdict } from '../agent/hook-agent.ts';
import { replyAsRun, verdictOfAnswer } from '../agent/reply-verdict.ts';
import { readGeminiAnswer } from './answer.ts';
import { isGeminiEvent } from './events.ts';

export function readGeminiReply(call: ClaudeCall, reply: HookReply): ReplyVerdict {
  const event = call.agentEvent;
  if (!isGeminiEvent(event)) return { verdict: 'none', reason: `${event} is not a Gemini CLI event` };
  return verdictOfAnswer(readGeminiAnswer(event, replyAsRun(reply), 'open'));
}
