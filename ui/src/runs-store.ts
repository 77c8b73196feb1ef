import type { DecisionNote, RunRecord } from './schemas.ts';

/** As many records as the server's run log keeps by default: the page shows what `/api/runs` can. */
export const MAX_RECORDS = 1000;
/** As many decisions as `/api/decisions` keeps. */
export const MAX_DECISIONS = 200;

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

function decisionKey(d: DecisionNote): string {
  return [d.at, d.dialect, d.event, d.decision, d.runs, d.durationMs].join('\u0000');
}

/** Milliseconds of an ISO time; an unreadable one sorts last. */
function timeOf(at: string): number {
  const t = Date.parse(at);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * A list kept newest first by `at`, whatever order items arrive in (parallel hooks are recorded
 * as they finish, gate engines' records come in after the main engine's), bounded, without
 * duplicates.
 */
class TimeOrdered<T extends { at: string }> {
  items: T[] = [];
  #keys = new Set<string>();
  readonly #key: (item: T) => string;
  readonly #max: number;

  constructor(key: (item: T) => string, max: number) {
    this.#key = key;
    this.#max = max;
  }

  reset(list: readonly T[]): void {
    // A stable sort: items of the same moment keep the order they were given in.
    this.items = list
      .map((item, i) => ({ item, i, t: timeOf(item.at) }))
      .sort((a, b) => b.t - a.t || a.i - b.i)
      .slice(0, this.#max)
      .map(({ item }) => item);
    this.#keys = new Set(this.items.map(this.#key));
  }

  /** Adds it in its place by time (before items of the same moment); false when already known. */
  add(item: T): boolean {
    const key = this.#key(item);
    if (this.#keys.has(key)) return false;
    const t = timeOf(item.at);
    // Most items are the newest: the search from the front ends at once.
    let i = 0;
    while (i < this.items.length && timeOf(this.items[i]?.at ?? '') > t) i++;
    if (i >= this.#max) return false;
    this.items.splice(i, 0, item);
    this.#keys.add(key);
    while (this.items.length > this.#max) {
      const old = this.items.pop();
      if (old !== undefined) this.#keys.delete(this.#key(old));
    }
    return true;
  }
}

/** The run records the page knows, newest first by time, bounded; and the decisions answered. */
export class RunsStore {
  readonly #records = new TimeOrdered<RunRecord>(recordKey, MAX_RECORDS);
  readonly #decisions = new TimeOrdered<DecisionNote>(decisionKey, MAX_DECISIONS);
  readonly #listeners = new Set<() => void>();

  get records(): readonly RunRecord[] {
    return this.#records.items;
  }

  /** (issue 23) The decisions `/api/decide` answered, newest first: one with no run is still one. */
  get decisions(): readonly DecisionNote[] {
    return this.#decisions.items;
  }

  /** Replaces everything with the answers of `/api/runs` and `/api/decisions`. */
  reset(records: readonly RunRecord[], decisions: readonly DecisionNote[] = []): void {
    this.#records.reset(records);
    this.#decisions.reset(decisions);
    this.#notify();
  }

  /** Adds a record that just happened, unless it is already known. */
  add(record: RunRecord): void {
    if (this.#records.add(record)) this.#notify();
  }

  addDecision(note: DecisionNote): void {
    if (this.#decisions.add(note)) this.#notify();
  }

  onChange(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  #notify(): void {
    for (const fn of this.#listeners) fn();
  }
}
