/**
 * The Cursor dialect's entry in the table (issue 31): its name, label and tool vocabulary, read
 * without loading it; `load` imports the dialect (`gate.ts`) only when it runs.
 */
import type { AgentGateEntry } from '../agent/gate-dialect.ts';
import { CLAUDE_TOOLS } from '../agent/tool-vocabulary.ts';
import { cursorDemo } from './demo.ts';

export const cursorEntry: AgentGateEntry = {
  name: 'cursor',
  label: 'Cursor',
  tools: {
    ...CLAUDE_TOOLS,
    pre: 'preToolUse',
    post: 'postToolUse',
    failure: 'postToolUseFailure',
    output: 'tool_output',
    error: 'error_message',
    outputAsText: true,
    claudeEvents: false,
  },
  demo: cursorDemo,
  load: async () => (await import('./gate.ts')).cursorGate,
};
