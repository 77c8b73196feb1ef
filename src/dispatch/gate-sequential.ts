import type { HookVerdict } from '../dialects/lurus-dialect.ts';
import { failedVerdict } from '../dialects/lurus-dialect.ts';
import type { LurusEnvelope } from '../events/lurus-events.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { LurusGateEntry, LurusGateHook } from '../registry/hook-definition.ts';

/** [L-ANS-4] What the agent gets back. */
export interface Decision {
  decision: 'allow' | 'deny';
  /** True only for a deny on an event that can block [L-EV-2]. */
  blocked: boolean;
  reason?: string;
  additionalContext?: string;
  runs: RunRecord[];
}

/** How the sequential gate runs one selected hook (the dialect's job). */
export type RunGateHook = (
  hook: LurusGateHook,
  envelope: LurusEnvelope,
  json: () => string,
) => Promise<HookVerdict>;

/**
 * [L-RUN-1] Runs the selected entries one after another; the first deny stops the rest. Folds
 * their verdicts into one Decision; every run (and every skip) leaves a record.
 *
 * Project hooks are checked against their approval right before they run [L-TRUST-6]: a pinned
 * file that changed means the hook cannot run as approved — a closed guard denies, others are
 * skipped — so no write by the guarded agent turns a closed guard into an allow.
 */
export async function runSequentialGate(
  envelope: LurusEnvelope,
  canBlock: boolean,
  entries: readonly LurusGateEntry[],
  run: RunGateHook,
  onRecord: (record: RunRecord) => void,
  onSettled: () => void,
): Promise<Decision> {
  const runs: RunRecord[] = [];
  let json: string | undefined;
  const jsonOf = () => {
    json ??= JSON.stringify(envelope);
    return json;
  };
  let contexts: string[] | undefined;
  let deny: RunRecord | undefined;
  try {
    for (const entry of entries) {
      const at = isoNow();
      let verdict: HookVerdict | SkipFields;
      let pending = false;
      if (entry.kind === 'unapproved') {
        verdict = skip('untrusted', entry.reason);
      } else {
        const check = entry.consent?.check();
        pending = check !== undefined && check.pending.length > 0;
        const changed = check?.changed[0];
        if (changed !== undefined) {
          const why = `${changed} changed since approval: run \`hookwerk trust\``;
          verdict =
            entry.failMode === 'closed'
              ? failedVerdict('closed', {
                  outcome: 'deny',
                  durationMs: 0,
                  cause: 'changed_since_approval',
                  reason: why,
                })
              : skip('changed_since_approval', why);
        } else {
          verdict = await run(entry, envelope, jsonOf);
        }
      }
      const record: RunRecord = Object.assign(
        { hook: entry.name, source: entry.origin.source, event: envelope.event, dialect: entry.dialect, at },
        verdict,
      );
      if (pending) record.consent = 'newer_version_pending';
      runs.push(record);
      onRecord(record);
      if (!('decision' in verdict)) continue;
      if (verdict.additionalContext !== undefined) {
        contexts ??= [];
        contexts.push(verdict.additionalContext);
      }
      if (verdict.decision === 'deny') {
        deny = record;
        break;
      }
    }
  } finally {
    onSettled();
  }
  const decision: Decision = {
    decision: deny ? 'deny' : 'allow',
    blocked: deny !== undefined && canBlock,
    runs,
  };
  if (deny?.reason !== undefined) decision.reason = deny.reason;
  if (contexts !== undefined) decision.additionalContext = contexts.join('\n');
  return decision;
}

type SkipFields = Pick<RunRecord, 'outcome' | 'durationMs' | 'cause' | 'reason'>;

function skip(cause: string, reason: string): SkipFields {
  return { outcome: 'skipped_untrusted', durationMs: 0, cause, reason };
}
