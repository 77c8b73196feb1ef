import type { ConsentCheck, HookConsent } from '../consent/project-consent.ts';
import { type ConsentRefusal, refusalAfter, refusalBefore } from '../consent/run-consent.ts';
import type { LurusEnvelope } from '../events/lurus-events.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { LurusGateEntry, LurusGateHook } from '../registry/hook-definition.ts';
import type { Runners } from '../runners/runners.ts';
import type { GateRunContext } from './gate-parallel.ts';
import { failedVerdict, type HookVerdict } from './hook-verdict.ts';

/** [L-ANS-4] What the agent gets back. */
export interface Decision {
  decision: 'allow' | 'deny';
  /** True only for a deny on an event that can block [L-EV-2]. */
  blocked: boolean;
  reason?: string;
  additionalContext?: string;
  runs: RunRecord[];
}

/** How the sequential gate runs one selected hook (the dialect's job); synchronous when the hook answered so. */
export type RunGateHook = (
  hook: LurusGateHook,
  envelope: LurusEnvelope,
  json: () => string,
  runners: Runners,
) => HookVerdict | Promise<HookVerdict>;

/** What the walk needs of the engine: made once, never per decide. */
export type SequentialGateContext = Pick<GateRunContext, 'runners' | 'record'>;

/**
 * [L-RUN-1] Runs the selected entries one after another; the first deny stops the rest. Folds
 * their verdicts into one Decision; every run (and every skip) leaves a record.
 *
 * Project hooks are checked against their approval right before they run [L-TRUST-6]: a pinned
 * file that changed means the hook cannot run as approved — a closed guard denies, others are
 * skipped — so no write by the guarded agent turns a closed guard into an allow.
 *
 * The walk stays synchronous while the verdicts are (in-process hooks answering at once): a
 * decision then costs one promise, not one per hook. `onSettled` runs before the promise settles.
 */
export function runSequentialGate(
  envelope: LurusEnvelope,
  canBlock: boolean,
  entries: readonly LurusGateEntry[],
  run: RunGateHook,
  ctx: SequentialGateContext,
  onSettled: () => void,
): Promise<Decision> {
  let walked: Decision | Promise<Decision>;
  try {
    walked = new GateWalk(envelope, canBlock, entries, run, ctx).from(0);
  } catch (err) {
    onSettled();
    return Promise.reject(err);
  }
  if (walked instanceof Promise) return walked.finally(onSettled);
  onSettled();
  return Promise.resolve(walked);
}

class GateWalk {
  readonly #runs: RunRecord[] = [];
  #json: string | undefined;
  #contexts: string[] | undefined;
  #deny: RunRecord | undefined;
  /** One consent check per project for the whole walk: later hooks are compared with its moment. */
  #checks: Map<HookConsent, ConsentCheck> | undefined;
  readonly #jsonOf = (): string => {
    this.#json ??= JSON.stringify(this.envelope);
    return this.#json;
  };

  constructor(
    readonly envelope: LurusEnvelope,
    readonly canBlock: boolean,
    readonly entries: readonly LurusGateEntry[],
    readonly run: RunGateHook,
    readonly ctx: SequentialGateContext,
  ) {}

  /** Walks from entry `i`; returns at once unless a hook answers later. */
  from(i: number): Decision | Promise<Decision> {
    for (; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      const at = isoNow();
      let verdict: HookVerdict | SkipFields | Promise<HookVerdict | SkipFields>;
      let pending = false;
      if (entry.kind === 'unapproved') {
        verdict = skip('untrusted', entry.reason);
      } else if (entry.consent === undefined) {
        verdict = this.run(entry, this.envelope, this.#jsonOf, this.ctx.runners);
      } else {
        // [L-TRUST-6, L-TRUST-9] Right before it runs, and [L-TRUST-8] right after.
        const consent = entry.consent;
        const check = consent.check(
          entry.kind === 'process' ? { command: entry.command, cwd: entry.cwd } : undefined,
          this.#checks?.get(consent),
        );
        if (check.watch !== undefined) {
          this.#checks ??= new Map();
          this.#checks.set(consent, check);
        }
        pending = check.pending.length > 0;
        const refusal = refusalBefore(consent, check);
        if (refusal !== undefined) verdict = refused(entry, refusal);
        else {
          const ran = this.run(entry, this.envelope, this.#jsonOf, this.ctx.runners);
          const after = (v: HookVerdict): HookVerdict | SkipFields => {
            const moved = refusalAfter(consent, check);
            return moved === undefined ? v : refused(entry, moved, v.durationMs);
          };
          verdict = ran instanceof Promise ? ran.then(after) : after(ran);
        }
      }
      if (verdict instanceof Promise) {
        const next = i + 1;
        return verdict.then((v) => (this.#take(entry, at, pending, v) ? this.#decision() : this.from(next)));
      }
      if (this.#take(entry, at, pending, verdict)) break;
    }
    return this.#decision();
  }

  /** Records one entry's verdict; true when it denies (the walk stops). */
  #take(entry: LurusGateEntry, at: string, pending: boolean, verdict: HookVerdict | SkipFields): boolean {
    const record: RunRecord = Object.assign(
      {
        hook: entry.name,
        source: entry.origin.source,
        event: this.envelope.event,
        dialect: entry.dialect,
        at,
      },
      verdict,
    );
    if (pending) record.consent = 'newer_version_pending';
    this.#runs.push(record);
    this.ctx.record(record);
    if (!('decision' in verdict)) return false;
    if (verdict.additionalContext !== undefined) {
      this.#contexts ??= [];
      this.#contexts.push(verdict.additionalContext);
    }
    if (verdict.decision !== 'deny') return false;
    this.#deny = record;
    return true;
  }

  #decision(): Decision {
    const deny = this.#deny;
    const decision: Decision = {
      decision: deny ? 'deny' : 'allow',
      blocked: deny !== undefined && this.canBlock,
      runs: this.#runs,
    };
    if (deny?.reason !== undefined) decision.reason = deny.reason;
    if (this.#contexts !== undefined) decision.additionalContext = this.#contexts.join('\n');
    return decision;
  }
}

type SkipFields = Pick<RunRecord, 'outcome' | 'durationMs' | 'cause' | 'reason'>;

/** A hook that may not run as approved, or whose answer was discarded: a closed guard denies, others are skipped. */
function refused(entry: LurusGateHook, refusal: ConsentRefusal, durationMs = 0): HookVerdict | SkipFields {
  return entry.failMode === 'closed'
    ? failedVerdict('closed', { outcome: 'deny', durationMs, cause: refusal.cause, reason: refusal.reason })
    : { ...skip(refusal.cause, refusal.reason), durationMs };
}

function skip(cause: string, reason: string): SkipFields {
  return { outcome: 'skipped_untrusted', durationMs: 0, cause, reason };
}
