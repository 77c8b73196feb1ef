/**
 * What the gate decided about each call of a gated agent's tools, by call id, for the parts of
 * the SDK's run that come after the guardrail: the arguments a hook rewrote (the tool's `invoke`
 * runs with them, PostToolUse is told them) and the calls it refused (their lifecycle events are
 * not observe events: the tool never started). Entries live from the guardrail to the call's end.
 */
export class CallLedger {
  readonly #rewrites = new Map<string, string>();
  readonly #refused = new Set<string>();

  rewrite(callId: string, argumentsJson: string): void {
    this.#rewrites.set(callId, argumentsJson);
  }

  /** The arguments a hook gave this call, as the JSON text the tool's `invoke` takes. */
  rewritten(callId: string | undefined): string | undefined {
    return callId === undefined ? undefined : this.#rewrites.get(callId);
  }

  refuse(callId: string): void {
    this.#refused.add(callId);
  }

  refused(callId: string): boolean {
    return this.#refused.has(callId);
  }

  /** The call is over: forget it. */
  end(callId: string): void {
    this.#rewrites.delete(callId);
    this.#refused.delete(callId);
  }
}
