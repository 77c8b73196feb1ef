import type { TraceScope } from '../records/run-trace.ts';

/**
 * What one decide carries besides its event and input [AD-ALL-1, AD-OTEL-1]. Made only when there
 * is something to carry: a decide without a signal, an agent or a tracer gets none.
 */
export interface DecideCall {
  /** Aborting stops the decide's running hooks, and no more are started. */
  readonly signal: AbortSignal | undefined;
  /** The decide's span, when a tracer records it: its runs' spans are its children. */
  readonly trace: TraceScope | undefined;
  /** The agent the caller named: on every run record. */
  readonly agent: string | undefined;
  /** [G-FAIL-4] When the decide's budget ends (`performance.now()` ms): every run ends by then. */
  readonly deadline?: number | undefined;
}

/** `decide(event, input, opts)`: what a caller may add [AD-ALL-1]. */
export interface DecideOptions {
  /**
   * Aborting it, before or during the decide, stops the decide's running hooks (process groups
   * killed as at a timeout, HTTP requests cancelled, in-process hooks' own signal aborted), starts
   * no more, records each stopped run with cause `aborted`, and rejects with an `AbortError`.
   */
  signal?: AbortSignal;
  /** The agent that asks (`claude`, `mcp`, `ai-sdk`…): on every run record (`agent`) and span. */
  agent?: string;
  /**
   * [G-FAIL-4] A budget for the whole decide, in ms from the call: every hook run is given at most
   * what is left of it, its kill grace included, so the decide settles within it. A run cut short
   * ends as a timeout, which its `failMode` reads as any timeout (a closed guard denies).
   */
  timeoutMs?: number;
}
