import { availableParallelism } from 'node:os';
import { InvalidOptionError } from '../core/errors.ts';

/** Why a queued run did not run: the queue was full, it waited too long, or the scheduler closed. */
export type ObserveDropReason = 'queue_full' | 'stale' | 'closed';

const RESOLVED = Promise.resolve();

/** One queued run. `run` never rejects: it resolves with whatever the runner reported. */
export interface ObserveJob {
  run(): Promise<void>;
  /**
   * Called instead of `run` when the job is dropped (queue full, waited past `maxQueueAgeMs`, or
   * closed before it started); `waitedMs` is how long it waited (stale drops).
   */
  drop(reason: ObserveDropReason, waitedMs?: number): void;
}

interface ObserveSchedulerOptions {
  /** [P-FF-3] Default `2 × cores`, at least 4. */
  maxConcurrent?: number;
  /** [P-FF-3] Default 10 000 runs waiting. */
  maxQueue?: number;
  /**
   * (issue 11) A run that waited longer than this for a slot is dropped (`stale`) when it would
   * start. Default 10 minutes; `Infinity` turns it off.
   */
  maxQueueAgeMs?: number;
}

/** (issue 11) Default `maxQueueAgeMs`: 10 minutes. */
export const DEFAULT_MAX_QUEUE_AGE_MS = 600_000;

export function defaultMaxConcurrent(): number {
  return Math.max(4, 2 * availableParallelism());
}

/**
 * [P-FF-1..3] Fire-and-forget with bounds: `submit` is synchronous and O(1); at most
 * `maxConcurrent` jobs run at once; at most `maxQueue` wait; more are dropped, never buffered.
 */
export class ObserveScheduler {
  readonly maxConcurrent: number;
  readonly maxQueue: number;
  readonly maxQueueAgeMs: number;
  // Ring buffer: O(1) push and shift whatever the backlog.
  #ring: Array<ObserveJob | undefined>;
  /** When each ring slot's job was queued (performance.now() ms); absent when there is no age limit. */
  #queuedAt: Float64Array | undefined;
  /**
   * The clock as read by the first submit since the last pump: one read per event-loop turn, not
   * one per run (emit() queues a run per hook on the caller's time). Runs queued in one turn share
   * it, off by at most that turn's length.
   */
  #turnClock: number | undefined;
  #head = 0;
  #size = 0;
  #running = 0;
  #pumpScheduled = false;
  #closed = false;
  #idleWaiters: Array<() => void> = [];

  constructor(opts: ObserveSchedulerOptions = {}) {
    this.maxConcurrent = opts.maxConcurrent ?? defaultMaxConcurrent();
    this.maxQueue = opts.maxQueue ?? 10_000;
    if (!Number.isInteger(this.maxConcurrent) || this.maxConcurrent < 1)
      throw new InvalidOptionError('maxConcurrent must be ≥ 1');
    if (!Number.isInteger(this.maxQueue) || this.maxQueue < 0)
      throw new InvalidOptionError('maxQueue must be ≥ 0');
    this.maxQueueAgeMs = opts.maxQueueAgeMs ?? DEFAULT_MAX_QUEUE_AGE_MS;
    if (typeof this.maxQueueAgeMs !== 'number' || !(this.maxQueueAgeMs > 0))
      throw new InvalidOptionError('maxQueueAgeMs must be a number > 0 (Infinity: no limit)');
    this.#ring = new Array(this.maxQueue + this.maxConcurrent);
    if (this.maxQueueAgeMs !== Number.POSITIVE_INFINITY) this.#queuedAt = new Float64Array(this.#ring.length);
  }

  /** Runs waiting for a slot (not counting those about to start on the next pump). */
  get queued(): number {
    return Math.max(0, this.#size - Math.max(0, this.maxConcurrent - this.#running));
  }

  /** Nothing queued and nothing running. */
  get idle(): boolean {
    return this.#size === 0 && this.#running === 0;
  }

  get running(): number {
    return this.#running;
  }

  /** Queues a job; returns false (and drops it) when the queue is full or the scheduler is closed. */
  submit(job: ObserveJob): boolean {
    if (this.#closed) {
      job.drop('closed');
      return false;
    }
    // Jobs start on the next pump, so until then free slots hold some of #size: those are not "waiting".
    if (this.#size >= this.maxQueue + Math.max(0, this.maxConcurrent - this.#running)) {
      job.drop('queue_full');
      return false;
    }
    const slot = (this.#head + this.#size) % this.#ring.length;
    this.#ring[slot] = job;
    if (this.#queuedAt !== undefined) this.#queuedAt[slot] = this.#turnClock ??= performance.now();
    this.#size++;
    if (!this.#pumpScheduled) {
      this.#pumpScheduled = true;
      // After the caller's synchronous code (never inside emit()), as a microtask of a resolved
      // promise: setImmediate costs ~40 % of an emit() made when caches are cold (its Immediate
      // object and async id, and a call into C++ to ref the loop), the agent's usual rhythm.
      RESOLVED.then(this.#pump);
    }
    return true;
  }

  /** When the job at the head was queued (0 without an age limit). */
  #headQueuedAt(): number {
    return this.#queuedAt?.[this.#head] ?? 0;
  }

  #shift(): ObserveJob | undefined {
    if (this.#size === 0) return undefined;
    const job = this.#ring[this.#head];
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#ring.length;
    this.#size--;
    return job;
  }

  #pump = (): void => {
    this.#pumpScheduled = false;
    this.#turnClock = undefined;
    let now: number | undefined;
    while (this.#running < this.maxConcurrent) {
      const queuedAt = this.#headQueuedAt();
      const job = this.#shift();
      if (job === undefined) break;
      if (this.#queuedAt !== undefined) {
        now ??= performance.now();
        // (issue 11) Too late to be useful: dropped (and recorded) instead of started.
        if (now - queuedAt > this.maxQueueAgeMs) {
          job.drop('stale', Math.round(now - queuedAt));
          continue;
        }
      }
      this.#running++;
      job.run().then(this.#finished, this.#finished);
    }
    this.#checkIdle();
  };

  #finished = (): void => {
    this.#running--;
    if (this.#size > 0) this.#pump();
    else this.#checkIdle();
  };

  #checkIdle(): void {
    if (this.#running === 0 && this.#size === 0 && this.#idleWaiters.length > 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Resolves once everything queued so far (and anything queued meanwhile) has finished. */
  drain(): Promise<void> {
    if (this.#running === 0 && this.#size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Stops accepting work, drops what is still waiting, and waits for the running jobs. */
  async close(): Promise<void> {
    this.#closed = true;
    for (let job = this.#shift(); job !== undefined; job = this.#shift()) job.drop('closed');
    await this.drain();
  }
}
