/**
 * The runner of `rule` hooks (SPEC §14.4): evaluates a compiled condition over one call's
 * variables, in this process, synchronously, within its bounds [G-CEL-2], and says how it ended
 * in the in-process runner's terms — returned a bool, or failed with the cause its record names:
 * `rule_error` (a runtime error, a missing field, a result that is not a bool) or `rule_budget`
 * (the step limit, or the wall-clock budget twice in a row). It never spawns and never reaches the network.
 */
import { RULE_BOUNDS } from '../rules/rule-bounds.ts';
import type { RuleBounds, RuleCondition, RulePlaces, RuleVariables } from '../rules/rule-condition.ts';
import type { InProcessResult } from './run-result.ts';

export function runRule(
  condition: RuleCondition,
  vars: RuleVariables,
  places: RulePlaces,
  bounds: RuleBounds = RULE_BOUNDS,
): InProcessResult {
  const start = performance.now();
  let test = condition.test(vars, bounds, places);
  // A condition is pure: one that ran out of time (not steps) is run once more, so that a GC pause
  // or a busy machine descheduling this process does not fail it at random — an open rule would
  // then give no opinion by chance. A condition that really runs long runs out twice.
  if (test.kind === 'budget' && test.byTime) test = condition.test(vars, bounds, places);
  const durationMs = performance.now() - start;
  switch (test.kind) {
    case 'value':
      return { kind: 'in-process', reason: 'returned', value: test.value, durationMs };
    case 'error':
      return {
        kind: 'in-process',
        reason: 'threw',
        cause: 'rule_error',
        error: `rule error: ${test.message}`,
        durationMs,
      };
    case 'budget':
      return {
        kind: 'in-process',
        reason: 'timeout',
        cause: 'rule_budget',
        error: `rule ${test.message}`,
        durationMs,
      };
  }
}
