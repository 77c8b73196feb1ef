/**
 * [G-FAIL-1] Fail closed in one place: while a source the gate must not lose (a policy file) exists
 * but cannot be used, every decide records one `policy_error` run per such file, and on the gate
 * events the answer is a deny with the file, JSON path and cause — before any hook runs. Other
 * events run the hooks of the files that are fine and only record the error. With
 * `HOOKWERK_POLICY_ERRORS=open` the gate events do the same as the others: no objection.
 */

import type { AgentDecision } from '../../dispatch/agent-answer.ts';
import type { DecideCall } from '../../dispatch/decide-call.ts';
import { runSubject, stampSubject } from '../../dispatch/run-subject.ts';
import { isoNow } from '../../events/prx-events.ts';
import type { RunRecord } from '../../records/run-record.ts';
import type { UnusableSources } from '../../sources/agent-config.ts';

/** The events that gate a tool call (and those R-MAP-1 maps onto them): where an unusable file denies. */
export const GATE_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest']);

export const POLICY_ERROR = 'policy_error';

/**
 * The decision while files are unusable: `run` runs the hooks that are fine (never called for a
 * deny). The records of the errors come first, then the hooks'.
 */
export async function decideWithUnusable(
  unusable: UnusableSources,
  ctx: {
    event: string;
    input: Record<string, unknown>;
    dialect: string;
    sessionId: string;
    call?: DecideCall;
  },
  record: (r: RunRecord) => void,
  run: () => Promise<AgentDecision>,
): Promise<AgentDecision> {
  const denies = !unusable.open && GATE_EVENTS.has(ctx.event);
  const subject = runSubject(ctx.input, ctx.sessionId, ctx.call);
  const at = isoNow();
  const records = unusable.lines.map((line): RunRecord => {
    const r: RunRecord = {
      hook: line.file,
      source: line.source,
      event: ctx.event,
      dialect: ctx.dialect,
      outcome: 'policy_error',
      durationMs: 0,
      at,
      cause: POLICY_ERROR,
      reason: line.text,
    };
    if (denies) r.decision = 'deny';
    return stampSubject(r, subject);
  });
  for (const r of records) record(r);
  if (denies) {
    const reason = unusable.lines.map((l) => l.text).join('\n');
    const decision: AgentDecision = {
      decision: 'deny',
      blocked: true,
      reason,
      continue: true,
      runs: records,
    };
    if (ctx.event === 'PermissionRequest') decision.permission = { behavior: 'deny', message: reason };
    return decision;
  }
  const decided = await run();
  return { ...decided, runs: [...records, ...decided.runs] };
}
