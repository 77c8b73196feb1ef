/**
 * [G-TEST-1] A reply of `hookwerk hook --agent codex` as Codex CLI reads it: with the answer reader
 * hookwerk's Codex dialect runs hook files with (its strict output check, exit 2 and stderr). An
 * `ask` never reaches Codex (it has none on PreToolUse: the reply denies), nor does an allow
 * without a rewrite (no opinion), so those read back as what Codex does.
 */
import type { ClaudeCall, HookReply, ReplyVerdict } from '../agent/hook-agent.ts';
import { replyAsRun, verdictOfAnswer } from '../agent/reply-verdict.ts';
import { readCodexAnswer } from './answer.ts';

export function readCodexReply(call: ClaudeCall, reply: HookReply): ReplyVerdict {
  return verdictOfAnswer(readCodexAnswer(call.agentEvent, replyAsRun(reply), 'open', call.input));
}
