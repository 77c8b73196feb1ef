/**
 * The one in-process runner, for observers and gate hooks alike: calls the function, bounds a
 * pending answer by its timeout (aborting its signal at the bound) and by the caller's signal
 * (abandoned, its signal aborted, [AD-ALL-1]), and says how it ended. A synchronous answer costs
 * no timer and no promise race: gate hooks are µs-scale.
 */
import { runAtDepth } from '../bus/depth.ts';
import { errorMessage } from '../core/errno.ts';
import type { InProcessResult } from './run-result.ts';

/** The second argument every in-process hook gets; its AbortSignal is made only if it asks. */
export class HookCallInfo {
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    this.#controller?.abort(reason);
  }
}

const TIMED_OUT = Symbol('timed out');
const ABORTED = Symbol('aborted');

/**
 * Runs `fn(arg, info)`. With `depth`, it runs (and everything it starts) at that event depth
 * [P-BUS-3], so emits made by the hook are one level deeper. A hook that answers synchronously
 * gets its result synchronously: no promise, no timer, no microtask (`await` works on both).
 * With `signal` (already aborted: the caller does not call; the gates check before) a pending
 * answer is abandoned when it aborts, and the hook's own signal is aborted with its reason.
 */
export function runInProcess<A, I extends HookCallInfo>(
  fn: (arg: A, info: I) => unknown,
  arg: A,
  info: I,
  timeoutMs: number,
  depth?: number,
  signal?: AbortSignal,
): InProcessResult | Promise<InProcessResult> {
  const start = performance.now();
  let returned: unknown;
  try {
    returned = depth === undefined ? fn(arg, info) : runAtDepth(depth, fn, arg, info);
  } catch (err) {
    return threw(err, start);
  }
  if (!isThenable(returned)) {
    return { kind: 'in-process', reason: 'returned', value: returned, durationMs: performance.now() - start };
  }
  return settle(returned, info, timeoutMs, start, signal);
}

/** A pending answer, bounded by the timeout (its signal aborted at the bound) and the caller's signal. */
async function settle(
  pending: PromiseLike<unknown>,
  info: HookCallInfo,
  timeoutMs: number,
  start: number,
  signal: AbortSignal | undefined,
): Promise<InProcessResult> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let value: unknown;
  try {
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
    });
    const racers: PromiseLike<unknown>[] = [pending, timedOut];
    if (signal !== undefined)
      racers.push(
        new Promise<typeof ABORTED>((resolve) => {
          onAbort = () => resolve(ABORTED);
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }),
      );
    value = await Promise.race(racers);
  } catch (err) {
    return threw(err, start);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
  if (value === ABORTED) {
    info.abort(signal?.reason);
    return {
      kind: 'in-process',
      reason: 'aborted',
      error: 'aborted by the caller; its answer is not awaited',
      durationMs: performance.now() - start,
    };
  }
  if (value === TIMED_OUT) {
    info.abort();
    return {
      kind: 'in-process',
      reason: 'timeout',
      error: `did not settle within ${timeoutMs} ms`,
      durationMs: performance.now() - start,
    };
  }
  return { kind: 'in-process', reason: 'returned', value, durationMs: performance.now() - start };
}

function threw(err: unknown, start: number): InProcessResult {
  return {
    kind: 'in-process',
    reason: 'threw',
    error: errorMessage(err),
    durationMs: performance.now() - start,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'then') === 'function';
}
