import type { PrxEventInstance } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { TraceScope } from '../records/run-trace.ts';
import type { ObserveHook } from '../registry/hook-definition.ts';
import type { Ending } from '../runners/run-result.ts';
import type { ObserveDropReason, ObserveJob } from './observe-scheduler.ts';

/** What every job of one engine shares: how a hook runs, and where records go. */
export interface JobContext {
  run(hook: ObserveHook, ev: PrxEventInstance): Promise<Ending>;
  record(record: RunRecord, depth: number): void;
  dropped(reason: ObserveDropReason): void;
}

const DROP_REASON = {
  queue_full: 'the run queue was full',
  stale: 'the run waited for a slot longer than maxQueueAgeMs',
  closed: 'the engine was closed before the run started',
} as const;

/**
 * One queued run of one observe hook (shell, in-process or WASM) for one event. A class rather
 * than closures: `emit()` creates one per hook on the caller's time, so it allocates a single
 * small object. A traced emit's runs are {@link TracedHookJob}s: an untraced run carries nothing
 * for tracing.
 */
export class HookJob implements ObserveJob {
  constructor(
    readonly ctx: JobContext,
    readonly hook: ObserveHook,
    readonly ev: PrxEventInstance,
  ) {}

  /** The emit's scope when a tracer records it [AD-OTEL-1]. */
  get trace(): TraceScope | undefined {
    return undefined;
  }

  async run(): Promise<void> {
    const trace = this.trace;
    if (trace === undefined) {
      const ending = await this.ctx.run(this.hook, this.ev);
      // Object.assign, not spread: on Node 20 a spread that adds properties costs µs per call.
      this.ctx.record(Object.assign(this.#base(), ending), this.ev.depth);
      return;
    }
    const span = trace.startRun(this.hook.name);
    const ending = await trace.within(span, () => this.ctx.run(this.hook, this.ev));
    const record = Object.assign(this.#base(), ending);
    this.ctx.record(record, this.ev.depth);
    trace.endRun(span, record);
  }

  drop(reason: ObserveDropReason, waitedMs?: number): void {
    this.ctx.dropped(reason);
    const record = Object.assign(this.#base(), {
      outcome: 'dropped' as const,
      durationMs: 0,
      cause: reason,
      reason: waitedMs === undefined ? DROP_REASON[reason] : `${DROP_REASON[reason]} (waited ${waitedMs} ms)`,
    });
    this.ctx.record(record, this.ev.depth);
    this.trace?.endRun(this.trace.startRun(this.hook.name), record);
  }

  #base(): Omit<RunRecord, 'outcome' | 'durationMs'> {
    const { hook, ev } = this;
    return {
      hook: hook.name,
      source: hook.origin.source,
      event: hook.event,
      dialect: hook.dialect,
      at: ev.envelope.timestamp,
      sessionId: ev.envelope.session_id,
      depth: ev.depth,
    };
  }
}

/** A run of a traced emit: the run, or its drop, is a span under the emit's [AD-OTEL-1]. */
export class TracedHookJob extends HookJob {
  readonly #trace: TraceScope;

  constructor(ctx: JobContext, hook: ObserveHook, ev: PrxEventInstance, trace: TraceScope) {
    super(ctx, hook, ev);
    this.#trace = trace;
  }

  override get trace(): TraceScope {
    return this.#trace;
  }
}

/** The job of one run: traced when the event's scope is given. */
export function hookJob(
  ctx: JobContext,
  hook: ObserveHook,
  ev: PrxEventInstance,
  trace?: TraceScope,
): HookJob {
  return trace === undefined ? new HookJob(ctx, hook, ev) : new TracedHookJob(ctx, hook, ev, trace);
}
