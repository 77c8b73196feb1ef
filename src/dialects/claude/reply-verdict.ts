/**
 * [G-TEST-1] A reply of `hookwerk hook --agent claude` as Claude Code reads it: with the answer
 * reader hookwerk's Claude Code dialect runs hook files with (exit 2 and stderr, then the JSON
 * output's `permissionDecision`, `decision`, `continue`, each on its own event).
 */
import { readClaudeAnswer } from '../agent/claude-answer.ts';
import type { ClaudeCall, HookReply, ReplyVerdict } from '../agent/hook-agent.ts';
import { replyAsRun, verdictOfAnswer } from '../agent/reply-verdict.ts';

export function readClaudeReply(call: ClaudeCall, reply: HookReply): ReplyVerdict {
  return verdictOfAnswer(readClaudeAnswer(call.agentEvent, replyAsRun(reply)));
}
