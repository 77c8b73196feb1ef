/**
 * Where every run record goes, of every hook kind and dialect: bounded [issue 11], kept in the
 * run log, counted, and published as `hookwerk.run.<outcome>` at the depth it happened at.
 */
import type { MemoryBus } from '../bus/memory-bus.ts';
import type { EngineMetrics } from './metrics.ts';
import type { RunLog } from './run-log.ts';
import type { RunOutcome, RunRecord } from './run-record.ts';
import { truncateRecord } from './truncate-record.ts';

/** Constant topic strings: their hash is computed once, not per record. */
const RUN_TOPIC: Readonly<Record<RunOutcome, string>> = {
  ok: 'hookwerk.run.ok',
  deny: 'hookwerk.run.deny',
  error: 'hookwerk.run.error',
  timeout: 'hookwerk.run.timeout',
  spawn_error: 'hookwerk.run.spawn_error',
  skipped_untrusted: 'hookwerk.run.skipped_untrusted',
  dropped: 'hookwerk.run.dropped',
  policy_error: 'hookwerk.run.policy_error',
};

export class RecordSink {
  constructor(
    readonly log: RunLog,
    readonly metrics: EngineMetrics,
    readonly bus: MemoryBus,
  ) {}

  record(given: RunRecord, depth: number): void {
    // What is kept and published has bounded text fields; the caller keeps its own.
    const record = truncateRecord(given);
    this.log.push(record);
    this.metrics.record(record);
    this.bus.publish(RUN_TOPIC[record.outcome], record, { depth });
  }
}
