/**
 * The policy dialect [R-POL-1]: Claude Code's dialect in every rule (input, matchers, answers,
 * merge) over hookwerk's own policy files. `hookwerk hook` runs it for every agent.
 */
import { agentGate } from '../agent/gate.ts';
import { claudeSpec } from '../claude/gate.ts';
import type { AgentGatePlugin } from '../gate-dialect.ts';
import { loadPolicyConfig, type PolicyOptions } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    policy: true;
  }
}

declare module '../gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'policy'`: the agent asking, and the options of included Claude Code files. */
    policy?: PolicyOptions;
  }
}

// Claude Code's rules without its demo (the policy has none of its own).
const { demo: _claudeDemo, ...claudeRules } = claudeSpec;

export const policyGate: AgentGatePlugin = agentGate({
  ...claudeRules,
  name: 'policy',
  label: 'hookwerk policy',
  load: (base, options) => loadPolicyConfig(base, options.policy ?? {}),
  cliOptions: (flags) => ({ policy: { claude: { plugins: [...flags.pluginDirs] } } }),
});
