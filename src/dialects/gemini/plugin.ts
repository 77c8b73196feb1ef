/**
 * The Gemini CLI dialect's entry in the table (issue 31): its name, label and tool vocabulary, read
 * without loading it; `load` imports the dialect (`gate.ts`) only when it runs.
 */
import type { AgentGateEntry } from '../agent/gate-dialect.ts';
import { CLAUDE_TOOLS } from '../agent/tool-vocabulary.ts';

export const geminiEntry: AgentGateEntry = {
  name: 'gemini',
  label: 'Gemini CLI',
  tools: { ...CLAUDE_TOOLS, pre: 'BeforeTool', post: 'AfterTool', failure: undefined, claudeEvents: false },
  load: async () => (await import('./gate.ts')).geminiGate,
};
