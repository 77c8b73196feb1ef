import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Recursion depth of the event being handled ([P-BUS-3], [P-BUS-4]).
 *
 * A top-level emit has depth 1; anything emitted while a handler for an event of depth d runs
 * (including in that handler's async continuations) has depth d + 1. The depth travels in an
 * AsyncLocalStorage, so nobody has to pass it around by hand.
 */

/** Highest depth that is still published; an emit at depth MAX_DEPTH + 1 is dropped. */
export const MAX_DEPTH = 8;

const storage = new AsyncLocalStorage<number>();

/** Depth of the event whose handler is running now; 0 outside any handler. */
export function currentDepth(): number {
  return storage.getStore() ?? 0;
}

/**
 * Runs `fn(...args)` with the current depth set to `depth`, for its synchronous part and every
 * async continuation it starts. Extra arguments avoid allocating a closure on hot paths.
 */
export function runAtDepth<T, A extends unknown[] = []>(depth: number, fn: (...args: A) => T, ...args: A): T {
  return storage.run(depth, fn, ...args);
}
