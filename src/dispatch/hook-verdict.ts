/**
 * What one gate hook said, before it is folded into the decision [L-ANS-1..3]: a verdict, and the
 * answer an in-process hook (or a Lurus command) gives. Shared by the gates and the dialects.
 */
import type { FailMode } from '../core/fail-mode.ts';
import { isPlainObject } from '../core/plain-object.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { Ending } from '../runners/run-result.ts';

/** What one hook said, before it is folded into the decision. */
export type HookVerdict = Ending &
  Pick<RunRecord, 'additionalContext'> & { decision: 'allow' | 'deny'; failed?: FailMode };

export type Answer = { decision: 'allow' | 'deny'; reason?: string; additionalContext?: string };

/** Checks an answer value (parsed JSON, or what an in-process hook returned). */
export function readAnswer(value: unknown): Answer | { invalid: string } {
  if (!isPlainObject(value)) return { invalid: 'answer is not an object' };
  const decision: unknown = Reflect.get(value, 'decision');
  if (decision !== 'allow' && decision !== 'deny') {
    return { invalid: `unknown decision ${JSON.stringify(decision ?? null)} (expected "allow" or "deny")` };
  }
  const reason: unknown = Reflect.get(value, 'reason');
  const additionalContext: unknown = Reflect.get(value, 'additionalContext');
  // Built field by field: conditional spreads cost µs per call on Node 20 (in-process hooks are µs-scale).
  const answer: Answer = { decision };
  if (typeof reason === 'string') answer.reason = reason;
  if (typeof additionalContext === 'string' && additionalContext !== '')
    answer.additionalContext = additionalContext;
  return answer;
}

/**
 * [L-ANS-3] A failure decides by failMode: allow (open, default) or deny (closed); its cause is
 * kept. Verdicts are built by assignment onto the ending (no spread: see run-result.ts).
 */
export function failedVerdict(failMode: FailMode, e: Ending): HookVerdict {
  return Object.assign(e, {
    decision: failMode === 'closed' ? ('deny' as const) : ('allow' as const),
    failed: failMode,
  });
}
