/**
 * (SPEC §14.4) What the hook model knows of a `rule` handler's compiled condition, without the CEL
 * implementation behind it: the registry and the gate hold it, the rule runner asks it. A leaf of
 * types, so that nothing which only carries a rule has to load CEL [G-CEL-1].
 */

/** [G-CEL-2] The bounds of one evaluation; the defaults are `RULE_BOUNDS` (rules/rule-bounds.ts). */
export interface RuleBounds {
  /** Wall-clock budget, in ms. */
  readonly budgetMs: number;
  /** Comprehension steps (iterations of `all`, `exists`, `map`, `filter`…, nested ones counted). */
  readonly maxSteps: number;
  /** The clock (`performance.now()`; tests inject one). */
  readonly now: () => number;
}

/** How one evaluation ended: a bool, or why there is none (an error or the budget spent). */
export type RuleTest =
  | { readonly kind: 'value'; readonly value: boolean }
  | { readonly kind: 'error'; readonly message: string }
  /** `byTime`: the time budget ran out (not the step limit). */
  | { readonly kind: 'budget'; readonly message: string; readonly byTime: boolean };

/** The folders `~` and relative paths mean to the helpers `glob` and `inside`, for one call. */
export interface RulePlaces {
  readonly home: string;
  readonly project: string;
}

/** A value a condition reads: JSON-like data (numbers are doubles, as in JSON). */
export type RuleValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | Uint8Array
  | readonly RuleValue[]
  | { readonly [key: string]: RuleValue };

/** The variables of one call, by name (rules/rule-activation.ts). */
export type RuleVariables = Readonly<Record<string, RuleValue>>;

/** A compiled `when`: evaluates over one call's variables, within its bounds; never throws. */
export interface RuleCondition {
  /** The CEL text as written. */
  readonly when: string;
  test(vars: RuleVariables, bounds: RuleBounds, places: RulePlaces): RuleTest;
}
