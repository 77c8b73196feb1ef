/**
 * What the gate decided about each call of a gated agent's tools, by call id, for the parts of
 * the SDK's run that come after the guardrail: the calls it let through (only those start, so only
 * those are observe events; a host's own guardrail that refused first never lets ours see it) and
 * the arguments a hook rewrote (the tool's `invoke` runs with them, PostToolUse is told them).
 * Entries live from the guardrail to the call's end.
 */
export class CallLedger {
  readonly #allowed = new Set<string>();
  readonly #rewrites = new Map<string, string>();

  allow(callId: string): void {
    this.#allowed.add(callId);
  }

  allowed(callId: string): boolean {
    return this.#allowed.has(callId);
  }

  rewrite(callId: string, argumentsJson: string): void {
    this.#rewrites.set(callId, argumentsJson);
  }

  /** The arguments a hook gave this call, as the JSON text the tool's `invoke` takes. */
  rewritten(callId: string | undefined): string | undefined {
    return callId === undefined ? undefined : this.#rewrites.get(callId);
  }

  /** The call is over: forget it. */
  end(callId: string): void {
    this.#allowed.delete(callId);
    this.#rewrites.delete(callId);
  }
}
