import { z } from 'zod';
import { RUN_OUTCOMES, type RunOutcome, type RunRecord } from './run-record.ts';

const [firstOutcome, ...moreOutcomes] = RUN_OUTCOMES;
const outcome = z.enum<[RunOutcome, ...RunOutcome[]]>([firstOutcome ?? 'ok', ...moreOutcomes]);

/** A run record that arrived from elsewhere (a gate worker over NATS), checked field by field. */
export const runRecordSchema = z.object({
  hook: z.string(),
  source: z.string(),
  event: z.string(),
  dialect: z.string().optional(),
  outcome,
  durationMs: z.number(),
  at: z.string(),
  sessionId: z.string().optional(),
  toolName: z.string().optional(),
  agent: z.string().optional(),
  depth: z.number().optional(),
  exitCode: z.number().optional(),
  signal: z.string().optional(),
  status: z.number().optional(),
  cause: z.string().optional(),
  reason: z.string().optional(),
  stderrTail: z.string().optional(),
  failed: z.enum(['open', 'closed']).optional(),
  decision: z.enum(['allow', 'deny']).optional(),
  permission: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
  additionalContext: z.string().optional(),
  worker: z.string().optional(),
  truncated: z.record(z.string(), z.number()).optional(),
  consent: z.literal('newer_version_pending').optional(),
}) satisfies z.ZodType<RunRecord>;
