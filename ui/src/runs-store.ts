import type { RunRecord } from './schemas.ts';

/** As many records as the server's run log keeps by default: the page shows what `/api/runs` can. */
export const MAX_RECORDS = 1000;

/**
 * A record's identity. Records carry no id; these fields together tell two runs apart (the
 * time is per millisecond, the duration a float), which is what merging the initial list with
 * records that arrived over the stream meanwhile needs.
 */
export function recordKey(r: RunRecord): string {
  return [r.at, r.hook, r.source, r.event, r.outcome, r.durationMs, r.sessionId ?? '', r.worker ?? ''].join(
    '\u0000',
  );
}

/** The run records the page knows, newest first, bounded. */
export class RunsStore {
  #records: RunRecord[] = [];
  #keys = new Set<string>();
  readonly #listeners = new Set<() => void>();

  get records(): readonly RunRecord[] {
    return this.#records;
  }

  /** Replaces everything with `newestFirst` (the answer of `/api/runs`). */
  reset(newestFirst: readonly RunRecord[]): void {
    this.#records = newestFirst.slice(0, MAX_RECORDS);
    this.#keys = new Set(this.#records.map(recordKey));
    this.#notify();
  }

  /** Adds a record that just happened, unless it is already known. */
  add(record: RunRecord): void {
    const key = recordKey(record);
    if (this.#keys.has(key)) return;
    this.#records.unshift(record);
    this.#keys.add(key);
    while (this.#records.length > MAX_RECORDS) {
      const old = this.#records.pop();
      if (old !== undefined) this.#keys.delete(recordKey(old));
    }
    this.#notify();
  }

  onChange(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  #notify(): void {
    for (const fn of this.#listeners) fn();
  }
}
