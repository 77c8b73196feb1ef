/**
 * [G-CEL-2] The bounds of a `rule` handler: its expression's size and nesting, checked when it is
 * compiled, and the cost of one evaluation — a step limit on comprehension iterations (the CEL
 * implementation has no cost limit of its own, so the compiler adds one, `cel-program.ts`) and a
 * 10 ms wall-clock budget (a run past it by time is run once more, `runners/rule-runner.ts`). A rule past a bound is a hook error that follows its `failMode`.
 */
import type { RuleBounds } from './rule-condition.ts';

/** The largest `when`, in bytes of UTF-8. */
export const MAX_WHEN_BYTES = 4096;
/** The deepest expression tree (CEL implementations' usual recursion limit). */
export const MAX_WHEN_DEPTH = 250;

export const RULE_BOUNDS: RuleBounds = {
  budgetMs: 10,
  // ~1 µs a step here: a step count the 10 ms budget usually stops first, on a fast machine too.
  maxSteps: 100_000,
  now: () => performance.now(),
};
