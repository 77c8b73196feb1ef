/**
 * [G-TEST-1] A reply of `hookwerk hook` read back the way its agent reads it: the reply (stdout,
 * stderr, exit code) is handed to the agent's own answer reader as the ending of a hook process
 * (each agent folder's `reply-verdict.ts` picks the reader), and the answer becomes one of four
 * verdicts. Shared by every agent: nothing here knows which one reads.
 */
import type { AgentAnswer } from '../../dispatch/agent-answer.ts';
import type { ProcessResult } from '../../runners/process-types.ts';
import type { HookReply, ReplyVerdict } from './hook-agent.ts';

/** The reply as the agent sees it: a hook process that exited with this code and output. */
export function replyAsRun(reply: HookReply): ProcessResult {
  return {
    kind: 'process',
    reason: 'exit',
    exitCode: reply.exitCode,
    signal: null,
    stdout: reply.stdout,
    stderr: reply.stderr,
    durationMs: 0,
  };
}

/**
 * The verdict of one answer: it blocks, denies or stops the agent (`continue: false`: the call
 * does not go ahead either) → deny; it asks → ask; it allows explicitly (a PreToolUse allow, a
 * PermissionRequest allow) → allow; anything else (context, a rewrite without an allow, nothing)
 * → none, the agent's "no objection".
 */
export function verdictOfAnswer(answer: AgentAnswer): ReplyVerdict {
  const reason =
    answer.permissionReason ?? answer.reason ?? answer.permissionRequest?.message ?? answer.stopReason;
  const said = (verdict: ReplyVerdict['verdict']): ReplyVerdict =>
    reason !== undefined && reason !== '' ? { verdict, reason } : { verdict };
  if (
    answer.block === true ||
    answer.permission === 'deny' ||
    answer.permissionRequest?.behavior === 'deny' ||
    answer.continue === false
  )
    return said('deny');
  if (answer.permission === 'ask') return said('ask');
  if (answer.permission === 'allow' || answer.permissionRequest?.behavior === 'allow') return said('allow');
  return { verdict: 'none' };
}
