import { runPrxAction } from '../dialects/prx-dialect.ts';
import type { PrxEventInstance } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { type InProcessAction, runObserver } from '../runners/in-process-runner.ts';
import type { PrxAction } from '../sources/prx-source.ts';
import type { ObserveJob } from './observe-scheduler.ts';

/** What every job of one engine shares: where payload files go, and where records go. */
export interface JobContext {
  tmpDir: string;
  record(record: RunRecord, depth: number): void;
  dropped(reason: 'queue_full' | 'closed'): void;
}

const DROP_REASON = {
  queue_full: 'the run queue was full',
  closed: 'the engine was closed before the run started',
} as const;

/**
 * One queued run of one action for one event. A class rather than closures: `emit()` creates
 * one per action on the caller's time, so it allocates a single small object.
 */
export class PrxJob implements ObserveJob {
  constructor(
    readonly ctx: JobContext,
    readonly action: PrxAction | InProcessAction,
    readonly ev: PrxEventInstance,
  ) {}

  async run(): Promise<void> {
    const { action, ev } = this;
    const result =
      'kind' in action ? await runObserver(action, ev) : await runPrxAction(action, ev, this.ctx.tmpDir);
    // Object.assign, not spread: on Node 20 a spread that adds properties costs µs per call.
    this.ctx.record(Object.assign(this.#base(), result), ev.depth);
  }

  drop(reason: 'queue_full' | 'closed'): void {
    this.ctx.dropped(reason);
    const { action, ev } = this;
    this.ctx.record(
      {
        hook: action.name,
        source: action.source,
        event: action.event,
        outcome: 'dropped',
        durationMs: 0,
        at: ev.envelope.timestamp,
        sessionId: ev.envelope.session_id,
        depth: ev.depth,
        cause: reason,
        reason: DROP_REASON[reason],
      },
      ev.depth,
    );
  }

  #base(): Omit<RunRecord, 'outcome' | 'durationMs'> & Partial<RunRecord> {
    const { action, ev } = this;
    return {
      hook: action.name,
      source: action.source,
      event: action.event,
      at: ev.envelope.timestamp,
      sessionId: ev.envelope.session_id,
      depth: ev.depth,
    };
  }
}
