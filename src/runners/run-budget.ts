/**
 * [G-FAIL-4] A decide with a time budget (`decide(…, { timeoutMs })`, what `hookwerk hook` gives
 * the engine to answer before the agent's own timeout): each run gets its own timeout, cut to
 * what is left of the budget with room for its kill grace, so that even a process that ignores
 * SIGTERM has ended — as a timeout, which its `failMode` reads (a closed guard denies) — when the
 * budget is spent. A run whose timeout and full grace fit is left as it is.
 */
import { DEFAULT_KILL_GRACE_MS } from './process-types.ts';

/** After SIGKILL: the group's last poll, the pipes' close wait, and reading the answer. */
const SETTLE_MS = 100;
/** The least grace a cut run gets between SIGTERM and SIGKILL. */
const MIN_GRACE_MS = 20;

export interface RunBudget {
  timeoutMs: number;
  /** Set when the run was cut: SIGKILL this long after SIGTERM, not the default 5 s. */
  killGraceMs?: number;
}

/** `timeoutMs` within `deadline` (a `performance.now()` time; undefined: no budget). */
export function withinDeadline(
  timeoutMs: number,
  deadline: number | undefined,
  now: number = performance.now(),
): RunBudget {
  if (deadline === undefined) return { timeoutMs };
  const left = Math.max(0, deadline - now);
  if (timeoutMs + DEFAULT_KILL_GRACE_MS + SETTLE_MS <= left) return { timeoutMs };
  const killGraceMs = Math.min(DEFAULT_KILL_GRACE_MS, Math.max(MIN_GRACE_MS, Math.floor(left / 4)));
  return { timeoutMs: Math.min(timeoutMs, Math.max(0, left - killGraceMs - SETTLE_MS)), killGraceMs };
}
