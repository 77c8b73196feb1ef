import { createRequire } from 'node:module';
import type * as Prom from 'prom-client';
import type { Counter, Registry } from 'prom-client';
import type { BusDropReason } from '../bus/memory-bus.ts';
import { DurationSeries, durationHistogram } from './duration-histogram.ts';
import type { LockWaitCounts } from './journal-lock-counts.ts';
import type { RunRecord } from './run-record.ts';

/**
 * Counts kept in plain maps on the hot path (an increment is a map update, not a prom-client
 * label hash) and copied into prom-client counters when the registry is scraped.
 */
class LabelledCount {
  readonly #counts = new Map<string, number>();
  readonly #labels = new Map<string, Record<string, string>>();
  readonly #nested = new Map<string, Map<string, string>>();

  inc(key: string, labels: () => Record<string, string>): void {
    const n = this.#counts.get(key);
    if (n === undefined) {
      this.#counts.set(key, 1);
      this.#labels.set(key, labels());
    } else {
      this.#counts.set(key, n + 1);
    }
  }

  /** Two-part key without building a string per call (the hot path: one record per run). */
  inc2(a: string, b: string, labels: () => Record<string, string>): void {
    let inner = this.#nested.get(a);
    if (inner === undefined) {
      inner = new Map();
      this.#nested.set(a, inner);
    }
    const key = inner.get(b);
    if (key !== undefined) {
      this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
      return;
    }
    const joined = `${a}\0${b}`;
    inner.set(b, joined);
    this.inc(joined, labels);
  }

  get(key: string): number {
    return this.#counts.get(key) ?? 0;
  }

  /** Writes the counts into a prom-client counter (called at scrape time). */
  copyInto(counter: Counter<string>): void {
    counter.reset();
    for (const [key, n] of this.#counts) counter.inc(this.#labels.get(key) ?? {}, n);
  }
}

/** An event-stream hub (serve's SSE), as the metrics see it. */
export interface StreamSource {
  readonly clients: number;
  /** Clients disconnected for falling behind their byte buffer. */
  readonly droppedSlow: number;
  /** Stream requests refused at the client limit. */
  readonly droppedLimit: number;
}

let prom: typeof Prom | undefined;

/**
 * [G-PERF-1] prom-client (~40 module files with the OpenTelemetry API it loads) only once a
 * registry is asked for (serve's /metrics, a worker's): an engine that only counts, as every
 * `hookwerk hook` call's does, never loads it. Its CommonJS build, since `registry` is a property
 * read synchronously; the bundles leave it out.
 */
function promClient(): typeof Prom {
  if (prom === undefined) {
    const loaded: typeof Prom = createRequire(import.meta.url)('prom-client');
    prom = loaded;
  }
  return prom;
}

/** The duration histogram's bounds, in seconds. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Engine metrics in a registry of its own, so two engines in one process never share counters.
 * The counts are kept here; the registry, made on first use, reads them at each scrape.
 */
export class EngineMetrics {
  #registry: Registry | undefined;
  readonly #probe: { queued(): number; running(): number };
  readonly #runs = new LabelledCount();
  readonly #timeouts = new LabelledCount();
  readonly #emitted = new LabelledCount();
  readonly #dropped = new LabelledCount();
  /** Event streams (serve's SSE hubs) whose clients and drops are reported here. */
  readonly #streams = new Set<StreamSource>();
  /** [T-SELF-3] The journal's lock counts, read at scrape time (serve sets it). */
  #journalLock: (() => LockWaitCounts) | undefined;
  #reloads = 0;
  #reloadErrors = 0;
  readonly #duration = new DurationSeries(DURATION_BUCKETS);

  constructor(probe: { queued(): number; running(): number }) {
    this.#probe = probe;
  }

  /** The prom-client registry of these metrics (made, and prom-client loaded, on first use). */
  get registry(): Registry {
    this.#registry ??= this.#makeRegistry();
    return this.#registry;
  }

  #makeRegistry(): Registry {
    const { Counter, Gauge, Registry } = promClient();
    const registry = new Registry();
    const probe = this.#probe;
    durationHistogram(promClient(), this.#duration, {
      name: 'hook_run_duration_seconds',
      help: 'Wall time of hook runs.',
      registers: [registry],
    });
    const counter = (
      name: string,
      help: string,
      labelNames: string[],
      source: () => LabelledCount | number,
    ) =>
      new Counter({
        name,
        help,
        labelNames,
        registers: [registry],
        collect() {
          const s = source();
          if (typeof s === 'number') {
            this.reset();
            this.inc(s);
          } else s.copyInto(this);
        },
      });
    counter(
      'hook_runs_total',
      'Hook runs by event and outcome (ok, deny, error, timeout, spawn_error, skipped_untrusted, dropped, policy_error).',
      ['event', 'outcome'],
      () => this.#runs,
    );
    counter('hook_timeouts_total', 'Hook runs stopped at their timeout.', ['event'], () => this.#timeouts);
    counter('events_emitted_total', 'Events accepted by emit().', ['event'], () => this.#emitted);
    counter(
      'events_dropped_total',
      'Hook runs or bus messages dropped at a bound, by reason: queue_full (hook run queue full), stale (run waited longer than maxQueueAgeMs), bus_queue_full (bus delivery queue full), depth (above 8, also an event received over NATS whatever its header says), oversize, invalid, closed, nats_disconnected, nats_queue_full, nats_denied (the NATS server refused a publish or subscription: permissions).',
      ['reason'],
      () => this.#dropped,
    );
    counter('config_reloads_total', 'Configuration reloads that took effect.', [], () => this.#reloads);
    counter(
      'config_reload_errors_total',
      'Configuration reloads rejected because the new file was invalid (the last good one stayed).',
      [],
      () => this.#reloadErrors,
    );
    const journalLock = () => this.#journalLock?.();
    new Counter({
      name: 'journal_lock_waits_total',
      help: 'Appends to the agents’ journal (every hookwerk process of this account) that found its lock held: waited (and then took it), gave_up (held past the wait bound: the runs were still written, without the lock, marked unlocked in the chain). Counted in files beside the journal; a count restarts at 0 past 1048576.',
      labelNames: ['result'],
      registers: [registry],
      collect() {
        this.reset();
        const counts = journalLock();
        if (counts === undefined) return;
        this.inc({ result: 'waited' }, counts.waited);
        this.inc({ result: 'gave_up' }, counts.gave_up);
      },
    });
    const streams = this.#streams;
    const sumOf = (f: (s: StreamSource) => number) => [...streams].reduce((n, s) => n + f(s), 0);
    new Gauge({
      name: 'sse_clients',
      help: 'Open /api/events/stream connections.',
      registers: [registry],
      collect() {
        this.set(sumOf((s) => s.clients));
      },
    });
    new Counter({
      name: 'sse_clients_dropped_total',
      help: 'Event-stream clients disconnected for falling more than their buffer behind (slow), or refused at the client limit (limit).',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        this.reset();
        const slow = sumOf((s) => s.droppedSlow);
        const limit = sumOf((s) => s.droppedLimit);
        this.inc({ reason: 'slow' }, slow);
        this.inc({ reason: 'limit' }, limit);
      },
    });
    new Gauge({
      name: 'hook_queue_depth',
      help: 'Hook runs waiting for a free slot.',
      registers: [registry],
      collect() {
        this.set(probe.queued());
      },
    });
    new Gauge({
      name: 'hook_runs_in_flight',
      help: 'Hook runs executing now.',
      registers: [registry],
      collect() {
        this.set(probe.running());
      },
    });
    return registry;
  }

  /** Reports an event-stream hub's clients and drops in this registry (serve). */
  addStreamSource(source: StreamSource): void {
    this.#streams.add(source);
  }

  /** [T-SELF-3] Reports the journal's lock counts (`journal_lock_waits_total`) from `read`, at scrape time. */
  setJournalLockSource(read: () => LockWaitCounts): void {
    this.#journalLock = read;
  }

  emitted(event: string): void {
    this.#emitted.inc(event, () => ({ event }));
  }

  dropped(reason: string): void {
    this.#dropped.inc(reason, () => ({ reason }));
  }

  /** A bus drop; a full bus queue has its own reason, apart from the hook run queue's `queue_full`. */
  busDropped(reason: BusDropReason): void {
    this.dropped(reason === 'queue_full' ? 'bus_queue_full' : reason);
  }

  reloaded(): void {
    this.#reloads++;
  }

  reloadFailed(): void {
    this.#reloadErrors++;
  }

  /** Current value of `events_dropped_total{reason}` (for callers that need it without a scrape). */
  droppedCount(reason: string): number {
    return this.#dropped.get(reason);
  }

  record(r: RunRecord): void {
    this.#runs.inc2(r.event, r.outcome, () => ({ event: r.event, outcome: r.outcome }));
    if (r.outcome === 'dropped' || r.outcome === 'skipped_untrusted' || r.outcome === 'policy_error') return;
    this.#duration.observeEvent(r.event, r.durationMs / 1000);
    if (r.outcome === 'timeout') this.#timeouts.inc(r.event, () => ({ event: r.event }));
  }
}
