/**
 * Run timeouts without a Node timer per run. A `setTimeout` per hook run, cleared a millisecond
 * later, costs the agent's event loop ~9 µs a run on Node 20 (the timer list of each duration is
 * created and deleted in a dictionary-mode map every time); here a run costs a heap insert, and
 * one timer, unref'd, is armed for the earliest deadline.
 *
 * Cancelling is lazy (the entry is marked); the heap is rebuilt without the cancelled entries
 * when they outnumber the live ones, so it never holds more than about twice the runs in flight.
 * The timer is not cleared when its entry is cancelled: it fires (harmlessly) and re-arms for the
 * earliest live deadline, so runs that come one after another arm about one timer per timeout.
 */

export interface Deadline {
  cancel(): void;
}

class Entry implements Deadline {
  cancelled = false;
  constructor(
    readonly at: number,
    readonly fire: () => void,
    readonly owner: Deadlines,
  ) {}

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.owner.cancelled();
  }
}

/** Rebuild the heap once this many cancelled entries are in it (and they outnumber the live ones). */
const MIN_COMPACT = 64;

export class Deadlines {
  readonly #heap: Entry[] = [];
  #dead = 0;
  #timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (performance.now() ms). */
  #armedAt = Number.POSITIVE_INFINITY;
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Entries in the heap, cancelled ones included (for tests). */
  get size(): number {
    return this.#heap.length;
  }

  /** Calls `fire` `ms` from now, unless cancelled first. */
  add(ms: number, fire: () => void): Deadline {
    const entry = new Entry(this.#now() + ms, fire, this);
    this.#push(entry);
    if (entry.at < this.#armedAt) this.#arm(entry.at);
    return entry;
  }

  /** Called by an entry when it is cancelled. */
  cancelled(): void {
    this.#dead++;
    if (this.#dead >= MIN_COMPACT && this.#dead * 2 > this.#heap.length) this.#compact();
    // All cancelled: forget them. The timer stays armed (unref'd, it holds nothing open): when
    // runs come one after another, the next one's deadline is later and needs no new timer.
    if (this.#heap.length === this.#dead) {
      this.#heap.length = 0;
      this.#dead = 0;
    }
  }

  /** Fires every live deadline that is due, in order, and re-arms the timer (the timer calls this). */
  fireDue(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = this.#now();
    const due: Entry[] = [];
    for (
      let top = this.#heap[0];
      top !== undefined && (top.cancelled || top.at <= now);
      top = this.#heap[0]
    ) {
      this.#pop();
      if (top.cancelled) this.#dead--;
      else due.push(top);
    }
    const next = this.#firstLive();
    if (next !== undefined) this.#arm(next.at);
    for (const entry of due) {
      entry.cancelled = true; // fired: a later cancel() is a no-op
      entry.fire();
    }
  }

  #onTimer = (): void => {
    this.#timer = undefined;
    this.fireDue();
  };

  #firstLive(): Entry | undefined {
    for (let top = this.#heap[0]; top !== undefined; top = this.#heap[0]) {
      if (!top.cancelled) return top;
      this.#pop();
      this.#dead--;
    }
    return undefined;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(this.#onTimer, Math.max(0, at - this.#now()));
    // Runs in flight hold the event loop open through their pipes; the timer itself must not.
    this.#timer.unref();
  }

  #compact(): void {
    const live = this.#heap.filter((e) => !e.cancelled);
    this.#heap.length = 0;
    this.#dead = 0;
    for (const e of live) this.#push(e);
  }

  #push(entry: Entry): void {
    const heap = this.#heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (p === undefined || p.at <= entry.at) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const left = heap[l];
      const right = heap[r];
      if (left === undefined) break;
      const c = right !== undefined && right.at < left.at ? right : left;
      const ci = c === left ? l : r;
      if (c.at >= last.at) break;
      heap[i] = c;
      i = ci;
    }
    heap[i] = last;
  }
}
