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
}
