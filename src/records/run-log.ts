import { InvalidOptionError } from '../core/errors.ts';
import type { RunOutcome, RunRecord } from './run-record.ts';

/** The most recent run records, bounded (oldest overwritten). */
export class RunLog {
  readonly capacity: number;
  #items: Array<RunRecord | undefined>;
  #next = 0;
  #count = 0;

  constructor(capacity = 1000) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new InvalidOptionError('run log capacity must be ≥ 1');
    this.capacity = capacity;
    this.#items = new Array(capacity);
  }

  push(record: RunRecord): void {
    this.#items[this.#next] = record;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count++;
  }

  /** Newest first, optionally filtered by outcome, at most `limit`. */
  recent(opts: { limit?: number; outcome?: RunOutcome; event?: string } = {}): RunRecord[] {
    const limit = opts.limit ?? this.capacity;
    const out: RunRecord[] = [];
    for (let i = 1; i <= this.#count && out.length < limit; i++) {
      const r = this.#items[(this.#next - i + this.capacity) % this.capacity];
      if (r === undefined) continue;
      if (opts.outcome !== undefined && r.outcome !== opts.outcome) continue;
      if (opts.event !== undefined && r.event !== opts.event) continue;
      out.push(r);
    }
    return out;
  }

  get size(): number {
    return this.#count;
  }
}
