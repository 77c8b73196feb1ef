import type { HookVerdict } from '../dialects/lurus-dialect.ts';
import type { LurusEnvelope } from '../events/lurus-events.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { CompiledMatcher } from '../registry/matcher.ts';

/** A hook as the gate sees it: where it came from, whether it may run, and how to run it. */
export interface GateHook {
  name: string;
  source: string;
  matcher: CompiledMatcher;
  /** False for project hooks without a valid consent: recorded as `skipped_untrusted`, never run. */
  trusted: boolean;
  /** Re-checked just before a run: a reason when a pinned file changed since approval. */
  verify?: () => string | undefined;
  /** `json()` serializes the envelope once per decision, only for hooks that need it. */
  run(envelope: LurusEnvelope, json: () => string): Promise<HookVerdict>;
}

/** [L-ANS-4] What the agent gets back. */
export interface Decision {
  decision: 'allow' | 'deny';
  /** True only for a deny on an event that can block [L-EV-2]. */
  blocked: boolean;
  reason?: string;
  additionalContext?: string;
  runs: RunRecord[];
}

/**
 * [L-RUN-1] Runs matching hooks one after another; the first deny stops the rest.
 * Folds their verdicts into one Decision; every run (and every skip) leaves a record.
 */
export async function runGate(
  envelope: LurusEnvelope,
  target: string | undefined,
  canBlock: boolean,
  hooks: readonly GateHook[],
  onRecord: (record: RunRecord) => void,
): Promise<Decision> {
  let runs: RunRecord[] | undefined;
  let json: string | undefined;
  const jsonOf = () => {
    json ??= JSON.stringify(envelope);
    return json;
  };
  let contexts: string[] | undefined;
  let deny: RunRecord | undefined;
  for (const hook of hooks) {
    if (!hook.matcher.test(target)) continue;
    runs ??= [];
    const at = isoNow();
    const untrusted = hook.trusted
      ? hook.verify?.()
      : 'project hooks are not approved, or changed since approval: run `hookwerk trust`';
    if (untrusted !== undefined) {
      const record: RunRecord = {
        hook: hook.name,
        source: hook.source,
        event: envelope.event,
        outcome: 'skipped_untrusted',
        durationMs: 0,
        at,
        cause: 'untrusted',
        reason: untrusted,
      };
      runs.push(record);
      onRecord(record);
      continue;
    }
    const verdict = await hook.run(envelope, jsonOf);
    const record: RunRecord = Object.assign(
      { hook: hook.name, source: hook.source, event: envelope.event, at },
      verdict,
    );
    runs.push(record);
    onRecord(record);
    if (verdict.additionalContext !== undefined) {
      contexts ??= [];
      contexts.push(verdict.additionalContext);
    }
    if (verdict.decision === 'deny') {
      deny = record;
      break;
    }
  }
  if (runs === undefined) return { decision: 'allow', blocked: false, runs: [] };
  const decision: Decision = {
    decision: deny ? 'deny' : 'allow',
    blocked: deny !== undefined && canBlock,
    runs,
  };
  if (deny?.reason !== undefined) decision.reason = deny.reason;
  if (contexts !== undefined) decision.additionalContext = contexts.join('\n');
  return decision;
}
