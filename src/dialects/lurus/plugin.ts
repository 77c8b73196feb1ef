/**
 * The Lurus dialect's entry in the table (issue 31): its name, label and tool vocabulary, read
 * without loading it; `load` imports the dialect (`gate.ts`) only when it runs.
 */
import type { GateDialectEntry } from '../agent/gate-dialect.ts';
import { CLAUDE_TOOLS } from '../agent/tool-vocabulary.ts';
import type { LurusConfig } from './source.ts';

export const lurusEntry: GateDialectEntry<LurusConfig> = {
  name: 'lurus',
  label: 'Lurus',
  tools: {
    ...CLAUDE_TOOLS,
    // [L-EV-1] Lurus's context is camelCase; it names no output field, so `toolOutput` is ours.
    name: 'toolName',
    input: 'toolInput',
    output: 'toolOutput',
    session: 'sessionId',
    callId: 'toolUseId',
    claudeEvents: false,
  },
  load: async () => (await import('./gate.ts')).lurusGate,
};
