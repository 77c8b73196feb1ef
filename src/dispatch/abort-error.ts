/**
 * [AD-ALL-1] What `decide(event, input, { signal })` rejects with when the signal aborts, before or
 * during the decide. Our own class rather than a `DOMException`: it is a `HookwerkError` (code
 * `ABORTED`, so `isHookwerkError` holds) and carries the decide's run records, while its `name`
 * is `AbortError`, which is what abort-aware code tests (`err.name === 'AbortError'`).
 */
import { HookwerkError } from '../core/errors.ts';
import type { RunRecord } from '../records/run-record.ts';

export class AbortError extends HookwerkError {
  /**
   * The decide's run records as far as it got, in configuration order: those stopped have
   * `cause: "aborted"`; those that had ended keep their own. Empty when it was aborted before.
   */
  readonly runs: RunRecord[];

  constructor(event: string, reason: unknown, runs: RunRecord[] = []) {
    super('ABORTED', `decide ${event}: aborted`, { cause: reason });
    this.runs = runs;
  }
}
