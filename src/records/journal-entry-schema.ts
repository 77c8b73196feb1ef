import { z } from 'zod';
import type { JournalEntry } from './journal-entry.ts';
import { runRecordSchema } from './run-record-schema.ts';

/** A line read back from the journal, checked field by field: anything else is skipped and counted. */
export const journalEntrySchema = runRecordSchema.extend({
  agent: z.string(),
  toolName: z.string().optional(),
  truncated: z.record(z.string(), z.number()).optional(),
}) satisfies z.ZodType<JournalEntry>;
