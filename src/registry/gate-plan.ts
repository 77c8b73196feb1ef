/**
 * What one decide of a Claude-style gate does with each entry its matchers selected, in run
 * order [C-RUN-1, C-RUN-2, G-FAIL-5]: run it, hand it to the background (`async`), leave it out
 * because its `if` rule does not admit the call, or fold it into an identical handler that runs
 * for both (the first in configuration order, by `dedupeKey`: registry/handler-identity.ts).
 * `decide` (dispatch/gate-parallel.ts) follows this plan and `explain` shows it: one function,
 * so the two cannot disagree.
 */
import type { AgentHook, GateEntry } from './hook-definition.ts';

/** The call `if` rules are asked about: the input's `tool_name` and `tool_input` [C-RUN-1]. */
export interface PlannedCall {
  readonly toolName: string | undefined;
  readonly toolInput: unknown;
}

export type PlanStep =
  /** Runs and is merged in this order (an unapproved entry is recorded as skipped [L-TRUST-3]). */
  | { readonly kind: 'runs'; readonly entry: GateEntry }
  /** [C-RUN-1] `async: true`: runs in the background, recorded, never merged. */
  | { readonly kind: 'background'; readonly entry: AgentHook }
  /** [C-RUN-1] Its `if` rule does not admit this call: not run, not recorded. */
  | { readonly kind: 'if'; readonly entry: AgentHook }
  /** [C-RUN-2] The same handler as `of`, which runs once for both: not run, not recorded. */
  | { readonly kind: 'duplicate'; readonly entry: AgentHook; readonly of: AgentHook };

/**
 * The plan for `entries` (selected, in run order). `call` undefined: `if` rules are not asked
 * (`explain` without a tool), every handler is planned as if its rule admitted the call.
 */
export function planGate(entries: readonly GateEntry[], call: PlannedCall | undefined): PlanStep[] {
  const winners = new Map<string, AgentHook>();
  const out: PlanStep[] = [];
  for (const entry of entries) {
    if (entry.kind === 'unapproved' || entry.dialect === 'lurus') {
      out.push({ kind: 'runs', entry });
      continue;
    }
    if (
      call !== undefined &&
      entry.ifRule !== undefined &&
      !entry.ifRule.admits(call.toolName, call.toolInput)
    ) {
      out.push({ kind: 'if', entry });
      continue;
    }
    const winner = winners.get(entry.dedupeKey);
    if (winner !== undefined) {
      out.push({ kind: 'duplicate', entry, of: winner });
      continue;
    }
    winners.set(entry.dedupeKey, entry);
    out.push(entry.async ? { kind: 'background', entry } : { kind: 'runs', entry });
  }
  return out;
}

/** [C-RUN-1] The call an input object makes: its `tool_name` (when a string) and `tool_input`. */
export function plannedCallOf(input: Readonly<Record<string, unknown>>): PlannedCall {
  return {
    toolName: typeof input.tool_name === 'string' ? input.tool_name : undefined,
    toolInput: input.tool_input,
  };
}
