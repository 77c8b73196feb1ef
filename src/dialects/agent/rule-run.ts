/**
 * Running one `rule` hook (SPEC §14.4) in a Claude-style gate: the call's variables built once per
 * call (the input object is the same for every hook of a decide) and shared by its rules
 * (SPEC §14.1), the condition run by the rule runner, and its answer — the JSON output the rule stands
 * for when the condition holds, none when it does not, a failure that follows `failMode` when it
 * errs or runs out [G-CEL-2] — read by the dialect's own answer reader, like any hook's.
 */
import { actionViewOf } from '../../action/action-view.ts';
import type { AgentAnswer } from '../../dispatch/agent-answer.ts';
import type { AgentRuleHook } from '../../registry/hook-definition.ts';
import { ruleActivation } from '../../rules/rule-activation.ts';
import type { RuleVariables } from '../../rules/rule-condition.ts';
import { ruleOutput } from '../../rules/rule-output.ts';
import { runRule } from '../../runners/rule-runner.ts';
import type { AgentProtocol } from './protocol.ts';

/** What the gate knows of the call besides its input: the agent asking, the project and home. */
export interface RuleRunFacts {
  readonly agent: string | undefined;
  readonly project: string;
  readonly home: string;
}

const variablesByInput = new WeakMap<Readonly<Record<string, unknown>>, RuleVariables>();

/**
 * The variables of the call whose input object is `input`: made by its first rule, reused by the
 * others, with the call's action view [G-ACT-1] — the one the permission rules and guards read.
 */
function variablesOf(
  input: Readonly<Record<string, unknown>>,
  event: string,
  facts: RuleRunFacts,
): RuleVariables {
  let vars = variablesByInput.get(input);
  if (vars === undefined) {
    vars = ruleActivation(
      input,
      { event, agent: facts.agent, project: facts.project },
      actionViewOf(input, { projectDir: facts.project, home: facts.home }),
    );
    variablesByInput.set(input, vars);
  }
  return vars;
}

export function runRuleAgentHook(
  hook: AgentRuleHook,
  event: string,
  input: Record<string, unknown>,
  facts: RuleRunFacts,
  protocol: Pick<AgentProtocol, 'readAnswer'>,
): AgentAnswer {
  const vars = variablesOf(input, event, facts);
  const result = runRule(hook.condition, vars, { home: facts.home, project: facts.project });
  if (result.reason === 'returned')
    result.value = result.value === true ? ruleOutput(event, hook) : undefined;
  return protocol.readAnswer(event, result, hook.failMode, { hook, input });
}
