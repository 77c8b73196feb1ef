import { runAtDepth } from '../bus/depth.ts';
import type { PrxEnvelope, PrxEventInstance } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';

/** An in-process observer of a PRX event: fire-and-forget, its result is ignored. */
export type InProcessObserver = (
  envelope: PrxEnvelope,
  info: { signal: AbortSignal; depth: number },
) => unknown;

export interface InProcessAction {
  kind: 'in-process';
  name: string;
  source: 'in-process';
  event: string;
  fn: InProcessObserver;
  timeoutMs: number;
}

/** Runs an in-process observer with the same bounds as a shell hook: timeout (AbortSignal) and a record. */
export async function runObserver(
  action: InProcessAction,
  ev: PrxEventInstance,
): Promise<Pick<RunRecord, 'outcome' | 'durationMs' | 'cause' | 'reason'>> {
  const start = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), action.timeoutMs);
    });
    const result = await Promise.race([
      // Emits made by the observer are one level deeper than the event it handles [P-BUS-3].
      Promise.resolve().then(() =>
        runAtDepth(ev.depth, () => action.fn(ev.envelope, { signal: controller.signal, depth: ev.depth })),
      ),
      timedOut,
    ]);
    if (result === TIMED_OUT) {
      controller.abort();
      return {
        outcome: 'timeout',
        cause: 'timeout',
        reason: `did not settle within ${action.timeoutMs} ms`,
        durationMs: performance.now() - start,
      };
    }
    return { outcome: 'ok', durationMs: performance.now() - start };
  } catch (err) {
    return {
      outcome: 'error',
      cause: 'exception',
      reason: err instanceof Error ? err.message : String(err),
      durationMs: performance.now() - start,
    };
  } finally {
    clearTimeout(timer);
  }
}

const TIMED_OUT = Symbol('timed out');
