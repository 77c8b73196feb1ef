/**
 * (SPEC §14.4) What a `rule` handler answers when its condition holds: the JSON output a Claude
 * Code hook would print for it [C-ANS-3], so that the dialect reads and merges it exactly like any
 * hook's answer [C-ANS-4] (the policy is Claude Code's dialect). Per event:
 * - `PreToolUse`: `permissionDecision` deny, ask or allow, with the reason;
 * - `PermissionRequest`: deny or allow (`decision.behavior`); ask is that event's own default, so
 *   no opinion;
 * - any other event: deny is `decision: "block"` (which blocks where the event can block [C-EV-1]);
 *   ask and allow mean nothing there, no opinion (`validate` warns about such a rule);
 * - `additionalContext` on every event, as `hookSpecificOutput.additionalContext`.
 */
/** What a rule answers with (the handler's own fields). */
export interface RuleAnswer {
  readonly decision?: 'deny' | 'ask' | 'allow' | undefined;
  readonly reason?: string | undefined;
  readonly additionalContext?: string | undefined;
}

export function ruleOutput(event: string, rule: RuleAnswer): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = { hookEventName: event };
  const { decision, reason } = rule;
  if (event === 'PreToolUse') {
    if (decision !== undefined) {
      specific.permissionDecision = decision;
      if (reason !== undefined) specific.permissionDecisionReason = reason;
    }
  } else if (event === 'PermissionRequest') {
    if (decision === 'deny')
      specific.decision = { behavior: 'deny', ...(reason !== undefined ? { message: reason } : {}) };
    else if (decision === 'allow') specific.decision = { behavior: 'allow' };
  } else if (decision === 'deny') {
    out.decision = 'block';
    if (reason !== undefined) out.reason = reason;
  }
  if (rule.additionalContext !== undefined) specific.additionalContext = rule.additionalContext;
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** (SPEC §14.4) Whether the rule's `decision` means anything on `event` (else `validate` warns). */
export function ruleDecisionProblem(
  event: string,
  decision: 'deny' | 'ask' | 'allow',
  canBlock: (event: string) => boolean,
): string | undefined {
  if (event === 'PreToolUse') return undefined;
  if (event === 'PermissionRequest')
    return decision === 'ask'
      ? 'decision "ask" means nothing on PermissionRequest (asking is its default): this rule gives no opinion'
      : undefined;
  if (decision === 'deny')
    return canBlock(event)
      ? undefined
      : `${event} cannot block: this rule's deny is recorded, and changes nothing`;
  return `decision "${decision}" only means something on PreToolUse (and "allow" on PermissionRequest): on ${event} this rule gives no opinion`;
}
