/**
 * The Claude Code dialect's entry in the table (issue 31): its name, label and tool vocabulary, read
 * without loading it; `load` imports the dialect (`gate.ts`) only when it runs.
 */
import type { AgentGateEntry } from '../agent/gate-dialect.ts';
import { CLAUDE_TOOLS } from '../agent/tool-vocabulary.ts';
import { claudeDemo } from './demo.ts';

export const claudeEntry: AgentGateEntry = {
  name: 'claude',
  label: 'Claude Code',
  tools: CLAUDE_TOOLS,
  demo: claudeDemo,
  load: async () => (await import('./gate.ts')).claudeGate,
};
