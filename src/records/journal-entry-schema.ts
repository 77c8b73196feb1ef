import { z } from 'zod';
import type { JournalEntry } from './journal-entry.ts';
import { runRecordSchema } from './run-record-schema.ts';

/** [G-TEST-1] The call a first run carries; a line whose call is not this shape is skipped like any other. */
const recordedCallSchema = z.object({
  event: z.string(),
  input: z.record(z.string(), z.unknown()).optional(),
  inputBytes: z.number().optional(),
  answer: z.enum(['deny', 'ask', 'allow', 'none']),
  runs: z.number().int().positive(),
});

/** A line read back from the journal, checked field by field: anything else is skipped and counted. */
export const journalEntrySchema = runRecordSchema.extend({
  agent: z.string(),
  toolName: z.string().optional(),
  call: recordedCallSchema.optional(),
  uid: z.number().int().nonnegative().optional(),
  user: z.string().optional(),
  pid: z.number().int().positive().optional(),
  truncated: z.record(z.string(), z.number()).optional(),
}) satisfies z.ZodType<JournalEntry>;
