/**
 * The GitHub Copilot CLI dialect's entry in the table (issue 31): its name, label and tool vocabulary, read
 * without loading it; `load` imports the dialect (`gate.ts`) only when it runs.
 */
import type { AgentGateEntry } from '../agent/gate-dialect.ts';
import { CLAUDE_TOOLS } from '../agent/tool-vocabulary.ts';
import { copilotDemo } from './demo.ts';

export const copilotEntry: AgentGateEntry = {
  name: 'copilot',
  label: 'GitHub Copilot CLI',
  // Copilot takes Claude's PascalCase events with the snake_case (VS Code) input [A-COP-1].
  tools: { ...CLAUDE_TOOLS, claudeEvents: false },
  demo: copilotDemo,
  load: async () => (await import('./gate.ts')).copilotGate,
};
