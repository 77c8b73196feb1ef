/** The Claude Code dialect [§5] as one object: its sources, input, matchers, answers and merge. */
import { claudeRules } from '../agent/claude-rules.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../agent/gate-dialect.ts';
import { type ClaudeOptions, loadClaudeConfig } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    claude: true;
  }
}

declare module '../agent/gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'claude'`: plugin folders, managed settings, environment [§5]. */
    claude?: ClaudeOptions;
  }
}

export const claudeGate: AgentGatePlugin = agentGate({
  ...claudeRules,
  name: 'claude',
  label: 'Claude Code',
  load: (base, options) =>
    loadClaudeConfig({ ...base, ...(options.claude !== undefined ? { claude: options.claude } : {}) }),
  cliOptions: (flags) => ({ claude: { plugins: [...flags.pluginDirs] } }),
});
