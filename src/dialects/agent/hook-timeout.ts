/**
 * [G-FAIL-4] How long an agent waits for the `hookwerk hook` entry `install` writes, and how long
 * `hookwerk hook` may take to answer within it. Each agent's numbers (its default and the most it
 * accepts, per event, and the unit of its `timeout` field) are in its own `install.ts`; the rules
 * that use them are here, shared by `install` (which writes the entry) and `hook` (which answers
 * within it), so both compute the same number.
 */
import type { AgentHook, GateEntry } from '../../registry/hook-definition.ts';

/** One agent's documented timeouts (research/*.md), in seconds whatever the agent's own unit. */
export interface AgentTimeouts {
  /** The unit of the entry's timeout field: seconds, or milliseconds (Gemini CLI). */
  readonly unit: 's' | 'ms';
  /** The agent's own timeout for an entry of `event` that names none. */
  defaultS(event: string): number;
  /** The most the agent accepts for `event`: a longer timeout is cut to it (or refused). */
  maxS(event: string): number;
}

/** The policy's default timeout of a handler that names none: Claude Code's 600 s. */
export const POLICY_DEFAULT_TIMEOUT_S = 600;

/** What `install` adds to the longest handler's timeout: room to start, decide and answer. */
export const ENTRY_MARGIN_S = 5;

/** One policy handler of an event, as far as its timeout matters. */
export interface TimedHandler {
  readonly timeoutMs: number;
  readonly failMode: 'open' | 'closed';
}

/** The handlers of `event` that run and may decide: approved, enabled, of the agent's shape. */
export function handlersOf(entries: readonly GateEntry[], event: string): AgentHook[] {
  return entries.filter(
    (e): e is AgentHook => e.kind !== 'unapproved' && e.dialect !== 'lurus' && e.enabled && e.event === event,
  );
}

/**
 * [G-FAIL-4] The entry's timeout for `event` (seconds, whole): the longest of its handlers plus
 * 5 s, at most the agent's maximum; the agent's default when the policy has none for it.
 */
export function entryTimeoutS(
  timeouts: AgentTimeouts,
  event: string,
  handlers: readonly TimedHandler[],
): number {
  if (handlers.length === 0) return timeouts.defaultS(event);
  const longestMs = Math.max(...handlers.map((h) => h.timeoutMs));
  return Math.min(Math.ceil(longestMs / 1000) + ENTRY_MARGIN_S, timeouts.maxS(event));
}

/**
 * [G-FAIL-4] How long `hookwerk hook` has to answer when the agent kills it after `timeoutS`:
 * 2 s less, so the answer is out well before the kill; below 4 s (a SessionEnd entry of 1–3 s)
 * half of it, so a short entry still leaves time to decide.
 */
export function answerBudgetMs(timeoutS: number): number {
  return timeoutS >= 4 ? (timeoutS - 2) * 1000 : (timeoutS * 1000) / 2;
}

/** The value of the entry's timeout field in the agent's unit. */
export function timeoutField(timeouts: AgentTimeouts, seconds: number): number {
  return timeouts.unit === 'ms' ? seconds * 1000 : seconds;
}
