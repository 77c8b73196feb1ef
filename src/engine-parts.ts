/**
 * The parts every engine has whatever its dialects: the runners, the observe scheduler, the bus,
 * metrics and the record sink. Made and closed here, so the façade only wires.
 */

import type { Tracer } from '@opentelemetry/api';
import { MAX_DEPTH } from './bus/depth.ts';
import { MemoryBus } from './bus/memory-bus.ts';
import { errorMessage } from './core/errno.ts';
import type { LazyPrivateTempDir } from './core/private-temp-dir.ts';
import { payloadFilesIn, runObserveHook } from './dialects/prx/run.ts';
import { hookJob, type JobContext } from './dispatch/hook-job.ts';
import { runAndCollect } from './dispatch/observe-receive.ts';
import { ObserveScheduler } from './dispatch/observe-scheduler.ts';
import type { HookEngineOptions } from './engine-api.ts';
import type { PrxEventInstance } from './events/prx-events.ts';
import type { Logger } from './records/logger.ts';
import { EngineMetrics } from './records/metrics.ts';
import { RecordSink } from './records/record-sink.ts';
import { RunLog } from './records/run-log.ts';
import type { RunRecord } from './records/run-record.ts';
import { activeTracer, TraceScope } from './records/run-trace.ts';
import type { ObserveHook } from './registry/hook-definition.ts';
import { Runners } from './runners/runners.ts';

export class EngineParts {
  readonly runners: Runners;
  readonly scheduler: ObserveScheduler;
  readonly metrics: EngineMetrics;
  readonly bus: MemoryBus;
  readonly records: RecordSink;
  /** How every observe run of this engine runs and records: what `emit()` queues jobs with. */
  readonly jobs: JobContext;

  constructor(opts: HookEngineOptions, logger: Logger, tmpDir: LazyPrivateTempDir) {
    this.runners = new Runners({
      ...(opts.launcher !== undefined ? { launcher: opts.launcher } : {}),
      ...(opts.containment !== undefined ? { containment: opts.containment } : {}),
      ...(opts.httpLookup !== undefined ? { httpLookup: opts.httpLookup } : {}),
      logger,
    });
    this.scheduler = new ObserveScheduler({
      ...(opts.maxConcurrent !== undefined ? { maxConcurrent: opts.maxConcurrent } : {}),
      ...(opts.maxQueue !== undefined ? { maxQueue: opts.maxQueue } : {}),
      ...(opts.maxQueueAgeMs !== undefined ? { maxQueueAgeMs: opts.maxQueueAgeMs } : {}),
    });
    const scheduler = this.scheduler;
    this.metrics = new EngineMetrics({ queued: () => scheduler.queued, running: () => scheduler.running });
    this.bus = new MemoryBus({
      onDrop: (reason) => this.metrics.busDropped(reason),
      onHandlerError: (err, topic) => logger.warn(`bus subscriber for ${topic} failed: ${errorMessage(err)}`),
    });
    this.records = new RecordSink(new RunLog(opts.runLogSize ?? 1000), this.metrics, this.bus);
    const runners = this.runners;
    const payloads = payloadFilesIn(tmpDir);
    this.jobs = {
      run: (hook, ev) => runObserveHook(hook, ev, runners, payloads),
      record: (record, depth) => this.records.record(record, depth),
      dropped: (reason) => this.metrics.dropped(reason),
    };
  }

  /**
   * [AD-OTEL-1] A traced emit's runs: the emit is a span that ends when the last of its runs has.
   * (An untraced emit queues its runs itself, see Engine.emit.)
   */
  submitTraced(tracer: Tracer, hooks: readonly ObserveHook[], ev: PrxEventInstance): void {
    const trace = observeTrace(tracer, 'emit', hooks, ev);
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i];
      if (hook !== undefined) this.scheduler.submit(hookJob(this.jobs, hook, ev, trace));
    }
  }

  /** [N-WORK-1] Runs them and resolves with their records (named by `worker`); traced as an emit is. */
  collect(
    hooks: readonly ObserveHook[],
    ev: PrxEventInstance,
    worker: string | undefined,
  ): Promise<RunRecord[]> {
    const tracer = hooks.length === 0 ? undefined : activeTracer();
    const trace = tracer === undefined ? undefined : observeTrace(tracer, 'receive', hooks, ev);
    return runAndCollect(hooks, ev, this.jobs, this.scheduler, worker, trace);
  }

  async drain(): Promise<void> {
    // Runs can publish records whose handlers emit again: settle until both are quiet.
    for (let i = 0; i < MAX_DEPTH + 2; i++) {
      await this.scheduler.drain();
      await this.bus.flush();
      if (this.scheduler.idle) return;
    }
  }

  /**
   * [X-PROC-3] Drops what is queued, gives running hooks (and decides in progress) `graceMs`,
   * then stops them; closes the HTTP pool.
   */
  close(graceMs: number, decidesIdle: Promise<void>): Promise<void> {
    const settled = Promise.all([this.scheduler.close(), decidesIdle]).then(() => {});
    return this.runners.close(graceMs, settled);
  }
}

/**
 * [AD-OTEL-1] An emit's (or a received event's) span: the parent of its runs' spans, ending when
 * the last of them ends. Chosen over a short span with links: the runs nest under the event in
 * every trace viewer, and its length is how long the event kept its hooks busy.
 */
function observeTrace(
  tracer: Tracer,
  what: 'emit' | 'receive',
  hooks: readonly ObserveHook[],
  ev: PrxEventInstance,
): TraceScope | undefined {
  const envelope = ev.envelope;
  const trace = TraceScope.open(tracer, `${what} ${envelope.event}`);
  if (trace === undefined) return undefined;
  trace.span.setAttributes({
    'hookwerk.event': envelope.event,
    'hookwerk.dialect': 'prx',
    'hookwerk.session_id': envelope.session_id,
    'hookwerk.depth': ev.depth,
    'hookwerk.runs': hooks.length,
  });
  trace.endAfter(hooks.length);
  return trace;
}
