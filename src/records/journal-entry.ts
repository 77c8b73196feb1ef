import type { RunRecord, TruncatableField } from './run-record.ts';

/** Text fields a journal entry caps in size: the run record's, and the names the agent's input gave. */
export type JournalField = TruncatableField | 'agent' | 'toolName' | 'event';

/**
 * [R-HOOK-3] One hook run of an agent's call, as the journal keeps it: the run record (with the
 * agent's `sessionId`), the agent that called (`claude`, `gemini`, `codex`, `copilot`, `cursor`,
 * `mcp`, …) and the Claude Code tool name of the call, if it had one.
 */
export type JournalEntry = Omit<RunRecord, 'truncated'> & {
  agent: string;
  toolName?: string;
  /** As RunRecord's, and also for `agent`, `toolName` and `event` (they come from the agent's input). */
  truncated?: Partial<Record<JournalField, number>>;
};
