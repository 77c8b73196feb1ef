// [P-API-4] hook_run_duration_seconds is counted in plain arrays; what a scrape shows must be what
// prom-client's own histogram shows for the same observations.
import * as prom from 'prom-client';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DurationSeries, durationHistogram } from '../src/records/duration-histogram.ts';

const BUCKETS = [0.001, 0.005, 0.01, 0.5, 1];
const OBSERVED: Array<[string, number]> = [
  ['tool_call', 0.0004],
  ['tool_call', 0.001], // on a bound: counted in that bucket (le is "≤")
  ['tool_call', 0.0050001],
  ['tool_call', 0.7],
  ['tool_call', 42], // above every bound: only in +Inf
  ['error', 0.002],
];

function both() {
  const ours = new Registry();
  const theirs = new Registry();
  const h = new DurationSeries(BUCKETS);
  durationHistogram(prom, h, { name: 'd_seconds', help: 'h', registers: [ours] });
  const ref = new Histogram({
    name: 'd_seconds',
    help: 'h',
    labelNames: ['event'],
    buckets: BUCKETS,
    registers: [theirs],
  });
  for (const [event, s] of OBSERVED) {
    h.observeEvent(event, s);
    ref.labels(event).observe(s);
  }
  return { ours, theirs };
}

describe('[P-API-4] the duration histogram', () => {
  it('formats exactly as prom-client does for the same observations (text)', async () => {
    const { ours, theirs } = both();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toMatch(/^d_seconds_bucket\{le="0.001",event="tool_call"\} 2$/m);
    expect(text).toMatch(/^d_seconds_bucket\{le="1",event="tool_call"\} 4$/m);
    expect(text).toMatch(/^d_seconds_bucket\{le="\+Inf",event="tool_call"\} 5$/m);
    expect(text).toMatch(/^d_seconds_count\{event="error"\} 1$/m);
  });

  it('and as JSON', async () => {
    const { ours, theirs } = both();
    // prom-client adds an (empty) exemplar slot per value; the rest must be the same.
    const plain = async (r: Registry) =>
      (await r.getMetricsAsJSON()).map((m) => ({
        ...m,
        values: m.values.map((v) => ({
          labels: v.labels,
          value: v.value,
          name: Reflect.get(v, 'metricName'),
        })),
      }));
    expect(await plain(ours)).toEqual(await plain(theirs));
  });

  it('shows nothing before the first observation', async () => {
    const reg = new Registry();
    durationHistogram(prom, new DurationSeries(BUCKETS), { name: 'e_seconds', help: 'h', registers: [reg] });
    expect(await reg.metrics()).toBe('# HELP e_seconds h\n# TYPE e_seconds histogram\n');
  });
});
