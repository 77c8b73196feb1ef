/**
 * (SPEC §14.4) A `rule` handler in a policy file: `{"type": "rule", "when": "<CEL>", "decision":
 * "deny"|"ask"|"allow", "reason": "…"}`, or a context-only rule (`additionalContext`, no
 * decision), with the `if`, `failMode` (or `onFailure`) and optional `name` every policy handler
 * may carry. Only policy files have rules: the agents' own files are Claude Code's format, where
 * `rule` stays an unknown handler type (skipped with a warning, C-SRC-3).
 * - `ruleProblems`: what makes a rule an error of its file [G-CEL-3, G-FAIL-1] — a `when` that
 *   does not compile (over 4 KiB, a syntax error, an unknown name…), a missing decision and
 *   context, a deny or ask without a reason — and the warning for a decision the event cannot
 *   act on.
 * - `policyRuleHook`: the rule as a hook of the model, its condition compiled (the first compile
 *   loads CEL; the text's compile is cached, so the strict check and the load compile once).
 */
import { z } from 'zod';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { handlerIdentity } from '../../registry/handler-identity.ts';
import type { AgentRuleHook } from '../../registry/hook-definition.ts';
import { compileWhen } from '../../rules/cel-program.ts';
import { RULE_BOUNDS } from '../../rules/rule-bounds.ts';
import { ruleName } from '../../rules/rule-name.ts';
import { ruleDecisionProblem } from '../../rules/rule-output.ts';
import type { RawHandler } from '../../sources/agent-settings.ts';
import { claudeCanBlock } from '../agent/claude-events.ts';

export const RULE_HANDLER = z.strictObject({
  type: z.literal('rule'),
  when: z.string('a rule needs "when": its CEL condition, as a string'),
  decision: z.enum(['deny', 'ask', 'allow'], 'decision must be "deny", "ask" or "allow"').optional(),
  reason: z.string().optional(),
  additionalContext: z.string().optional(),
  /** How records, `explain` and reasons name it (default: `rule: ` and its condition). */
  name: z.string().min(1, 'name must not be empty').max(200, 'name is at most 200 characters').optional(),
  if: z.string().optional(),
  failMode: z.enum(['open', 'closed']).optional(),
  onFailure: z.enum(['continue', 'block']).optional(),
});

type RuleHandler = z.output<typeof RULE_HANDLER>;

/** [G-CEL-3] The problems of a rule that parsed as a handler; errors make its file unusable. */
export function ruleProblems(
  file: string,
  event: string,
  rule: RuleHandler,
  at: PropertyKey[],
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  const compiled = compileWhen(rule.when);
  if ('error' in compiled) out.push({ file, path: jsonPath([...at, 'when']), message: compiled.error });
  if (rule.decision === undefined) {
    if (rule.additionalContext === undefined)
      out.push({
        file,
        path: jsonPath(at),
        message: 'a rule needs a "decision" ("deny", "ask" or "allow") or an "additionalContext"',
      });
    return out;
  }
  if ((rule.decision === 'deny' || rule.decision === 'ask') && (rule.reason ?? '').trim() === '')
    out.push({
      file,
      path: jsonPath([...at, 'reason']),
      message: `a "${rule.decision}" rule needs a reason: it is what the agent and its user are told`,
    });
  const meaningless = ruleDecisionProblem(event, rule.decision, claudeCanBlock);
  if (meaningless !== undefined)
    out.push({ file, path: jsonPath([...at, 'decision']), message: meaningless, level: 'warning' });
  return out;
}

/** What the loader has already worked out for every handler of the file. */
type HandlerCommon = Pick<
  AgentRuleHook,
  'event' | 'dialect' | 'origin' | 'matcher' | 'enabled' | 'order' | 'consent' | 'ifRule'
>;

/**
 * The rule as a hook, or undefined (with a warning) when it is not one: the strict check
 * (`strict.ts`) has then made its whole file an error already, so nothing of it runs.
 */
export function policyRuleHook(
  raw: RawHandler,
  common: HandlerCommon,
  file: string,
  warnings: ConfigIssue[],
): AgentRuleHook | undefined {
  const parsed = RULE_HANDLER.safeParse(raw.handler);
  if (!parsed.success) {
    warnings.push({ file, path: jsonPath(raw.at), message: 'this rule is not valid; it is skipped' });
    return undefined;
  }
  const rule = parsed.data;
  const compiled = compileWhen(rule.when);
  if ('error' in compiled) {
    warnings.push({
      file,
      path: jsonPath([...raw.at, 'when']),
      message: `${compiled.error}; this rule is skipped`,
    });
    return undefined;
  }
  const failMode = rule.failMode ?? (rule.onFailure === 'block' ? 'closed' : 'open');
  const hook: AgentRuleHook = {
    ...common,
    kind: 'rule',
    name: ruleName(rule.name, rule.when),
    condition: compiled.condition,
    timeoutMs: RULE_BOUNDS.budgetMs,
    failMode,
    async: false,
    // [C-RUN-2] The same rule (condition and answer) in two policy files runs once.
    dedupeKey: handlerIdentity({
      type: 'rule',
      runs: [rule.when, rule.decision ?? null, rule.reason ?? null, rule.additionalContext ?? null],
      ifRule: rule.if,
      matcher: common.matcher.source,
      failMode,
    }),
  };
  if (rule.decision !== undefined) hook.decision = rule.decision;
  if (rule.reason !== undefined) hook.reason = rule.reason;
  if (rule.additionalContext !== undefined) hook.additionalContext = rule.additionalContext;
  return hook;
}
