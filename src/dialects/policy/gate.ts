/**
 * The policy dialect [R-POL-1]: Claude Code's dialect in every rule (input, matchers, answers,
 * merge) over hookwerk's own policy files. `hookwerk hook` runs it for every agent.
 */

import { claudeRules } from '../agent/claude-rules.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../agent/gate-dialect.ts';
import { loadPolicyConfig, type PolicyOptions } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    policy: true;
  }
}

declare module '../agent/gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'policy'`: the agent asking, and the options of included Claude Code files. */
    policy?: PolicyOptions;
  }
}

export const policyGate: AgentGatePlugin = agentGate({
  ...claudeRules,
  name: 'policy',
  label: 'hookwerk policy',
  load: (base, options) => loadPolicyConfig(base, options.policy ?? {}),
  cliOptions: (flags) => ({ policy: { claude: { plugins: [...flags.pluginDirs] } } }),
});
