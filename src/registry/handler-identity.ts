/**
 * When two handlers are "the same handler" [C-RUN-2, G-FAIL-5]: the one identity the loaders put
 * into `dedupeKey`, which `decide`'s plan and `explain` both read (registry/gate-plan.ts), so the
 * two can never disagree about what runs once. Same type, same command and arguments (or URL, or
 * a `rule`'s CEL `when`), same `if` rule and same matcher; a plugin copy stays apart (its folder
 * is part of it). Two handlers that only share a command are two handlers: each runs when its own
 * matcher and `if` admit the call.
 */

export interface HandlerIdentity {
  readonly type: 'command' | 'http' | 'rule';
  /** What runs: `[command, args]`, `[url]`, or `[when]`; compared as written. */
  readonly runs: readonly unknown[];
  /** The folder a copy lives in that must stay apart (a plugin's) [C-RUN-2]; none for settings files. */
  readonly place?: string | undefined;
  /** [C-RUN-1] The `if` rule as written; none when the handler has no `if`. */
  readonly ifRule?: string | undefined;
  /**
   * The matcher in force as written (undefined when the event ignores matchers, C-MATCH-1). `""`,
   * `"*"` and none are one matcher: every value (C-MATCH-2, L-MATCH-1).
   */
  readonly matcher?: string | undefined;
  /**
   * A copy that fails closed is another handler than an open one: the open copy coming first in
   * configuration order must never make the guard run open (issue 28).
   */
  readonly failMode?: 'open' | 'closed' | undefined;
}

/** The `dedupeKey` of a handler: equal keys run once, the first in configuration order wins. */
export function handlerIdentity(id: HandlerIdentity): string {
  const matcher = id.matcher === undefined || id.matcher === '' || id.matcher === '*' ? null : id.matcher;
  // JSON, not a separator: no text a file can hold makes two different identities one key.
  const identity = [id.type, id.place ?? null, id.runs, id.ifRule ?? null, matcher];
  // Open is the default: the identity of an open handler is what it was before failMode counted.
  return JSON.stringify(id.failMode === 'closed' ? [...identity, 'closed'] : identity);
}
