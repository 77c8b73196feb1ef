/**
 * `hook_run_duration_seconds` by event, counted in plain arrays: one run's observation is a bucket
 * search over a dozen numbers and two additions, with no label hashing or validation (prom-client's
 * `observe` costs ~10× that, on the agent's time in `decide()`). prom-client still names, registers
 * and formats it at scrape. [G-PERF-1] The counts need no prom-client: it is given to
 * `durationHistogram` by whoever makes a registry (records/metrics.ts, when one is first asked for).
 */
import type * as Prom from 'prom-client';

/** The shape prom-client's registry formats (its typings name the type with an enum it does not have). */
interface HistogramSnapshot {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  /** `sharedLabels` as prom-client has them: its `get()` merges them into `labels`. */
  values: Array<{
    labels: Record<string, string | number>;
    sharedLabels: Record<string, string>;
    value: number;
    metricName: string;
  }>;
}

interface Series {
  /** Observations per bucket (not cumulative); the last slot is above the highest bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/** The observations by event. */
export class DurationSeries {
  readonly bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
  }

  /** Counts one run of `event` that took `seconds`. */
  observeEvent(event: string, seconds: number): void {
    let s = this.#series.get(event);
    if (s === undefined) {
      s = { counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.#series.set(event, s);
    }
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] ?? Number.POSITIVE_INFINITY)) i++;
    s.counts[i] = (s.counts[i] ?? 0) + 1;
    s.sum += seconds;
    s.count++;
  }

  /** What a registry formats for the histogram `name`. */
  snapshot(name: string, help: string): HistogramSnapshot {
    const values: HistogramSnapshot['values'] = [];
    const bucketName = `${name}_bucket`;
    for (const [event, s] of this.#series) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.counts[i] ?? 0;
        values.push({
          labels: { le: this.bounds[i] ?? '+Inf' },
          sharedLabels: { event },
          value: cumulative,
          metricName: bucketName,
        });
      }
      values.push({ labels: {}, sharedLabels: { event }, value: s.sum, metricName: `${name}_sum` });
      values.push({ labels: {}, sharedLabels: { event }, value: s.count, metricName: `${name}_count` });
    }
    return { name, help, type: 'histogram', values, aggregator: 'sum' };
  }
}

/**
 * prom-client's histogram `name` in `registers`, showing `series`: what the registry formats and
 * what prom-client's `get()` builds on (its own version reads an internal map that stays empty here).
 */
export function durationHistogram(
  prom: typeof Prom,
  series: DurationSeries,
  opts: { name: string; help: string; registers: Prom.Registry[] },
): Prom.Histogram<'event'> {
  class DurationHistogram extends prom.Histogram<'event'> {
    async getForPromString(): Promise<HistogramSnapshot> {
      return series.snapshot(opts.name, opts.help);
    }
  }
  return new DurationHistogram({
    name: opts.name,
    help: opts.help,
    labelNames: ['event'],
    buckets: [...series.bounds],
    registers: opts.registers,
  });
}
