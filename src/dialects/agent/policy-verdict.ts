/**
 * The policy's decision as `hookwerk hook` hands it on [R-HOOK-1, R-HOOK-2]: what each agent's
 * reply needs, with "no objection" kept apart from an explicit allow (an allow is passed on only
 * when a policy hook said allow: in most agents it skips the user's own permission prompt).
 */
import type { AgentDecision, PermissionRequestAnswer } from '../../dispatch/agent-answer.ts';

export interface PolicyVerdict {
  /** `deny` when it blocks; `allow` only when a hook explicitly allowed; else none. */
  readonly permission?: 'deny' | 'ask' | 'allow';
  /** Why it blocks or asks (for the model or the user). */
  readonly reason?: string;
  readonly updatedInput?: Record<string, unknown>;
  readonly additionalContext?: string;
  readonly systemMessage?: string;
  /** `continue: false`: the agent stops altogether. */
  readonly stop?: { readonly reason?: string };
  /** PermissionRequest's own answer. */
  readonly permissionRequest?: PermissionRequestAnswer;
  /** Session environment (Cursor's sessionStart `env`, Claude's `CLAUDE_ENV_FILE`). */
  readonly env?: Readonly<Record<string, string>>;
}

/** The decision of the policy's hooks; `undefined` (no hook ran) is no objection. */
export function policyVerdict(decision: AgentDecision | undefined): PolicyVerdict {
  if (decision === undefined) return {};
  const explicitAllow = decision.runs.some((r) => r.permission === 'allow');
  const permission = decision.blocked
    ? 'deny'
    : decision.decision === 'ask'
      ? 'ask'
      : decision.decision === 'allow' && explicitAllow
        ? 'allow'
        : undefined;
  const reason = decision.reason;
  return {
    ...(permission !== undefined ? { permission } : {}),
    ...(reason !== undefined && reason !== '' ? { reason } : {}),
    ...(decision.updatedInput !== undefined ? { updatedInput: decision.updatedInput } : {}),
    ...(decision.additionalContext !== undefined && decision.additionalContext !== ''
      ? { additionalContext: decision.additionalContext }
      : {}),
    ...(decision.systemMessage !== undefined && decision.systemMessage !== ''
      ? { systemMessage: decision.systemMessage }
      : {}),
    ...(!decision.continue
      ? { stop: decision.stopReason !== undefined ? { reason: decision.stopReason } : {} }
      : {}),
    ...(decision.permission !== undefined ? { permissionRequest: decision.permission } : {}),
    ...(decision.env !== undefined && Object.keys(decision.env).length > 0 ? { env: decision.env } : {}),
  };
}

/** The reason text to show, with a fallback naming who blocked. */
export function reasonOr(verdict: PolicyVerdict, fallback = 'blocked by a hookwerk policy hook'): string {
  return verdict.reason ?? fallback;
}

/** A reply that prints nothing and exits 0. */
export const SILENT = { stdout: '', stderr: '', exitCode: 0 } as const;

/** A reply that prints `value` as one line of JSON and exits 0. */
export function jsonReply(value: Record<string, unknown>): {
  stdout: string;
  stderr: string;
  exitCode: number;
} {
  return { stdout: `${JSON.stringify(value)}\n`, stderr: '', exitCode: 0 };
}
