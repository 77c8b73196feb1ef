import type { RunRecord } from './schemas.ts';

export interface HookLatency {
  hook: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
}

/**
 * Nearest-rank percentile of sorted values (`p` in 0…100): the smallest value with at least p %
 * of the values at or below it. It is always a duration that really happened.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}

/**
 * Per-hook p50 / p95 / max over the records given. Runs that never started (`dropped`,
 * `skipped_untrusted`) have no latency of their own and are left out.
 */
export function latencyByHook(records: readonly RunRecord[]): HookLatency[] {
  const byHook = new Map<string, number[]>();
  for (const r of records) {
    if (r.outcome === 'dropped' || r.outcome === 'skipped_untrusted') continue;
    const list = byHook.get(r.hook);
    if (list === undefined) byHook.set(r.hook, [r.durationMs]);
    else list.push(r.durationMs);
  }
  return [...byHook.entries()]
    .map(([hook, durations]) => {
      const sorted = durations.sort((a, b) => a - b);
      return {
        hook,
        runs: sorted.length,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        max: sorted[sorted.length - 1] ?? Number.NaN,
      };
    })
    .sort((a, b) => a.hook.localeCompare(b.hook));
}
