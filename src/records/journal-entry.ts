import { z } from 'zod';
import type { RunRecord, TruncatableField } from './run-record.ts';
import { runRecordSchema } from './run-record-schema.ts';
import { cut, MAX_RECORD_FIELD_BYTES, truncateRecord } from './truncate-record.ts';

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

/** A line read back from the journal: anything else is skipped and counted, never trusted. */
export const journalEntrySchema = runRecordSchema.extend({
  agent: z.string(),
  toolName: z.string().optional(),
  truncated: z.record(z.string(), z.number()).optional(),
}) satisfies z.ZodType<JournalEntry>;

/**
 * The entry as stored: the run record's text fields cut as the run log cuts them
 * (`truncateRecord`), and so are `agent`, `toolName` and `event`, which come from the agent's
 * input. Returns the entry itself when nothing is cut (the usual case).
 */
export function truncateEntry(entry: JournalEntry, maxBytes = MAX_RECORD_FIELD_BYTES): JournalEntry {
  const { agent, toolName, ...run } = entry;
  const record = truncateRecord(run, maxBytes);
  let sizes: Partial<Record<JournalField, number>> | undefined;
  const name = (field: 'agent' | 'toolName' | 'event', value: string): string => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter strings fit without being measured.
    if (value.length * 3 <= maxBytes) return value;
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes <= maxBytes) return value;
    sizes ??= { ...record.truncated };
    sizes[field] = bytes;
    return cut(value, maxBytes);
  };
  const kept = {
    ...record,
    event: name('event', record.event),
    agent: name('agent', agent),
    ...(toolName !== undefined ? { toolName: name('toolName', toolName) } : {}),
  };
  if (sizes !== undefined) return { ...kept, truncated: sizes };
  return record === run ? entry : kept;
}
