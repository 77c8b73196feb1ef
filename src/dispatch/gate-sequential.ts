import type { Span } from '@opentelemetry/api';
import { type ConsentRefusal, refusalAfter, refusalBefore } from '../consent/run-consent.ts';
import type { LurusEnvelope } from '../events/lurus-events.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { LurusGateEntry, LurusGateHook } from '../registry/hook-definition.ts';
import { ABORTED } from '../runners/run-result.ts';
import type { Runners } from '../runners/runners.ts';
import type { DecideCall } from './decide-call.ts';
import type { GateRunContext } from './gate-parallel.ts';
import { failedVerdict, type HookVerdict } from './hook-verdict.ts';
import { sessionOf, toolOf } from './run-subject.ts';

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
 * How the sequential gate runs one selected hook (the dialect's job); synchronous when the hook
 * answered so. `signal` stops it (the caller's, [AD-ALL-1]).
 */
type RunGateHook = (
  hook: LurusGateHook,
  envelope: LurusEnvelope,
  json: () => string,
  runners: Runners,
  signal: AbortSignal | undefined,
  deadline: number | undefined,
) => HookVerdict | Promise<HookVerdict>;

/** What the walk needs of the engine: made once, never per decide. */
type SequentialGateContext = Pick<GateRunContext, 'runners' | 'record' | 'sessionId' | 'home'>;

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
 *
 * [AD-ALL-1] Once `call.signal` aborts, the running hook is stopped (recorded with cause
 * `aborted`) and no later one starts; the decision as far as it got is returned (the caller
 * rejects). Every record names the session and tool of the context (the session: else the
 * engine's) and the agent the caller named.
 */
export function runSequentialGate(
  envelope: LurusEnvelope,
  canBlock: boolean,
  entries: readonly LurusGateEntry[],
  run: RunGateHook,
  ctx: SequentialGateContext,
  onSettled: () => void,
  call: DecideCall | undefined,
): Promise<Decision> {
  let walked: Decision | Promise<Decision>;
  try {
    walked = new GateWalk(envelope, canBlock, entries, run, ctx, call).from(0);
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
  /** What every record names (fields, not an object: a decide with an in-process hook is sub-µs). */
  readonly #sessionId: string;
  readonly #toolName: string | undefined;
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
    readonly call: DecideCall | undefined,
  ) {
    // Lurus names them in camelCase [L-MATCH-1]; a context in another spelling still counts.
    const c = envelope.context;
    this.#sessionId = typeof c.sessionId === 'string' ? c.sessionId : sessionOf(c, ctx.sessionId);
    this.#toolName = typeof c.toolName === 'string' ? c.toolName : toolOf(c);
  }

  /** Walks from entry `i`; returns at once unless a hook answers later. */
  from(i: number): Decision | Promise<Decision> {
    const call = this.call;
    for (; i < this.entries.length; i++) {
      // [AD-ALL-1] Aborted: no later hook starts.
      if (call?.signal?.aborted === true) break;
      const entry = this.entries[i]!;
      const at = isoNow();
      const span = call?.trace?.startRun(entry.name);
      let verdict: HookVerdict | SkipFields | Promise<HookVerdict | SkipFields>;
      let pending = false;
      if (entry.kind === 'unapproved') {
        verdict = skip('untrusted', entry.reason);
      } else if (entry.consent === undefined) {
        verdict = this.#run(entry, span);
      } else {
        // [L-TRUST-6, L-TRUST-9] Right before it runs, and [L-TRUST-8] right after: each hook is
        // watched from its own check on (what an earlier hook wrote is no change during this run).
        const consent = entry.consent;
        const check = consent.check(
          entry.kind === 'process' ? { command: entry.command, cwd: entry.cwd } : undefined,
        );
        pending = check.pending.length > 0;
        const refusal = refusalBefore(consent, check, this.ctx.home());
        if (refusal !== undefined) verdict = refused(entry, refusal);
        else {
          const ran = this.#run(entry, span);
          const after = (v: HookVerdict): HookVerdict | SkipFields => {
            const moved = refusalAfter(consent, check, this.ctx.home());
            return moved === undefined ? v : refused(entry, moved, v.durationMs, v.decision === 'deny');
          };
          verdict = ran instanceof Promise ? ran.then(after) : after(ran);
        }
      }
      if (verdict instanceof Promise) {
        const next = i + 1;
        return verdict.then((v) =>
          this.#take(entry, at, pending, v, span) ? this.#decision() : this.from(next),
        );
      }
      if (this.#take(entry, at, pending, verdict, span)) break;
    }
    return this.#decision();
  }

  /** Runs one hook, inside its span when it has one (its own spans nest under it). */
  #run(entry: LurusGateHook, span: Span | undefined): HookVerdict | Promise<HookVerdict> {
    const signal = this.call?.signal;
    const deadline = this.call?.deadline;
    const trace = this.call?.trace;
    if (span === undefined || trace === undefined)
      return this.run(entry, this.envelope, this.#jsonOf, this.ctx.runners, signal, deadline);
    return trace.within(span, () =>
      this.run(entry, this.envelope, this.#jsonOf, this.ctx.runners, signal, deadline),
    );
  }

  /** Records one entry's verdict; true when it denies or was aborted (the walk stops). */
  #take(
    entry: LurusGateEntry,
    at: string,
    pending: boolean,
    verdict: HookVerdict | SkipFields,
    span: Span | undefined,
  ): boolean {
    const record: RunRecord = Object.assign(
      {
        hook: entry.name,
        source: entry.origin.source,
        event: this.envelope.event,
        dialect: entry.dialect,
        at,
        sessionId: this.#sessionId,
      },
      verdict,
    );
    if (this.#toolName !== undefined) record.toolName = this.#toolName;
    const agent = this.call?.agent;
    if (agent !== undefined) record.agent = agent;
    if (pending) record.consent = 'newer_version_pending';
    const aborted = verdict.cause === ABORTED;
    if (aborted) {
      // Stopped, it decided nothing, whatever its failMode (the decide rejects) [AD-ALL-1].
      record.outcome = 'error';
      delete record.decision;
      delete record.failed;
    }
    this.#runs.push(record);
    this.ctx.record(record);
    if (span !== undefined) this.call?.trace?.endRun(span, record);
    if (aborted) return true;
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

/**
 * A hook that may not run as approved, or whose answer was discarded: a closed guard denies, others
 * are skipped — but a discarded answer that denied (`denied`) still denies, with the refusal's
 * reason: no change during a run may open what the run closed [L-TRUST-8].
 */
function refused(
  entry: LurusGateHook,
  refusal: ConsentRefusal,
  durationMs = 0,
  denied = false,
): HookVerdict | SkipFields {
  const ending = { outcome: 'deny' as const, durationMs, cause: refusal.cause, reason: refusal.reason };
  if (entry.failMode === 'closed') return failedVerdict('closed', ending);
  return denied
    ? Object.assign(ending, { decision: 'deny' as const })
    : { ...skip(refusal.cause, refusal.reason), durationMs };
}

function skip(cause: string, reason: string): SkipFields {
  return { outcome: 'skipped_untrusted', durationMs: 0, cause, reason };
}
