/**
 * How a tool call is put to the engine's gate, in the words of its gate dialect: the one place the
 * adapters look at which dialect an engine speaks [AD-AI-1, AD-OAI-1]. Each dialect's vocabulary
 * is a member of its entry in the table (`dialects/<name>/plugin.ts`, issue 31).
 */
import type { ToolVocabulary } from '../dialects/agent/tool-vocabulary.ts';
import { GATE_DIALECTS, type GateDialect } from '../dialects/gate-dialects.ts';

/** The vocabulary of an engine's gate dialect. */
export function toolVocabulary(dialect: GateDialect): ToolVocabulary {
  return GATE_DIALECTS[dialect].tools;
}
