/**
 * [N-WORK-1] Runs one event's observe hooks and resolves with their records once every one has
 * one (a worker acks an event after its runs are recorded). Every job ends in exactly one record
 * — run, dropped or closed — so the last record resolves.
 */
import type { PrxEventInstance } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { TraceScope } from '../records/run-trace.ts';
import type { ObserveHook } from '../registry/hook-definition.ts';
import { hookJob, type JobContext } from './hook-job.ts';
import type { ObserveScheduler } from './observe-scheduler.ts';

export function runAndCollect(
  hooks: readonly ObserveHook[],
  ev: PrxEventInstance,
  jobs: JobContext,
  scheduler: ObserveScheduler,
  worker: string | undefined,
  trace?: TraceScope,
): Promise<RunRecord[]> {
  if (hooks.length === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    const records: RunRecord[] = [];
    let left = hooks.length;
    const ctx: JobContext = {
      run: jobs.run,
      dropped: jobs.dropped,
      record: (record, depth) => {
        if (worker !== undefined) record.worker = worker;
        jobs.record(record, depth);
        records.push(record);
        if (--left === 0) resolve(records);
      },
    };
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i];
      if (hook !== undefined) scheduler.submit(hookJob(ctx, hook, ev, trace));
      else left--;
    }
    if (left === 0) resolve(records);
  });
}
