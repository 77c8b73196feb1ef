/**
 * The Codex CLI dialect's entry in the table (issue 31): its name, label and tool vocabulary, read
 * without loading it; `load` imports the dialect (`gate.ts`) only when it runs.
 */
import type { AgentGateEntry } from '../agent/gate-dialect.ts';
import { CLAUDE_TOOLS } from '../agent/tool-vocabulary.ts';
import { codexDemo } from './demo.ts';

export const codexEntry: AgentGateEntry = {
  name: 'codex',
  label: 'Codex CLI',
  // Codex has no PostToolUseFailure and refuses events it does not have [A-CDX-1].
  tools: { ...CLAUDE_TOOLS, failure: undefined, claudeEvents: false },
  demo: codexDemo,
  load: async () => (await import('./gate.ts')).codexGate,
};
