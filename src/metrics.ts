import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RunRecord } from './records.ts';

/** Engine metrics in a registry of its own, so two engines in one process never share counters. */
export class EngineMetrics {
  readonly registry = new Registry();
  readonly runs = new Counter({
    name: 'hook_runs_total',
    help: 'Hook runs by event and outcome (ok, deny, error, timeout, spawn_error, skipped_untrusted, dropped).',
    labelNames: ['event', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'hook_run_duration_seconds',
    help: 'Wall time of hook runs.',
    labelNames: ['event'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly timeouts = new Counter({
    name: 'hook_timeouts_total',
    help: 'Hook runs stopped at their timeout.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  readonly emitted = new Counter({
    name: 'events_emitted_total',
    help: 'Events accepted by emit().',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  /** [P-FF-3, P-BUS-3] Work not done because a bound was reached. */
  readonly dropped = new Counter({
    name: 'events_dropped_total',
    help: 'Hook runs or bus messages dropped at a bound, by reason (queue_full, depth, oversize, invalid, closed).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly queueDepth: Gauge<string>;
  readonly running: Gauge<string>;
  readonly reloads = new Counter({
    name: 'config_reloads_total',
    help: 'Configuration reloads that took effect.',
    registers: [this.registry],
  });
  readonly reloadErrors = new Counter({
    name: 'config_reload_errors_total',
    help: 'Configuration reloads rejected because the new file was invalid (the last good one stayed).',
    registers: [this.registry],
  });

  constructor(probe: { queued(): number; running(): number }) {
    this.queueDepth = new Gauge({
      name: 'hook_queue_depth',
      help: 'Hook runs waiting for a free slot.',
      registers: [this.registry],
      collect() {
        this.set(probe.queued());
      },
    });
    this.running = new Gauge({
      name: 'hook_runs_in_flight',
      help: 'Hook runs executing now.',
      registers: [this.registry],
      collect() {
        this.set(probe.running());
      },
    });
  }

  record(r: RunRecord): void {
    this.runs.inc({ event: r.event, outcome: r.outcome });
    if (r.outcome === 'dropped') return;
    this.duration.observe({ event: r.event }, r.durationMs / 1000);
    if (r.outcome === 'timeout') this.timeouts.inc({ event: r.event });
  }
}
