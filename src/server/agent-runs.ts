import { z } from 'zod';
import { homeFolder, NoHomeError } from '../core/home.ts';
import { journalDir } from '../records/journal-segments.ts';
import { RunJournal } from '../records/run-journal.ts';
import { parseSince, SINCE_FORMAT } from '../records/since-time.ts';
import { type FieldIssue, parseBody, summarize } from './bodies.ts';
import { runsResponseJson } from './runs-response.ts';

/** `GET /api/agent-runs` query [R-HOOK-3]: as `hookwerk runs`, `since` an ISO time or `10m`, `2h`, `1d`. */
export const agentRunsQuerySchema = z.strictObject({
  agent: z.string().max(256, 'agent must be at most 256 characters').optional(),
  since: z
    .string()
    .transform((text, ctx) => {
      const since = parseSince(text);
      if (since === undefined) ctx.addIssue({ code: 'custom', message: `since must be ${SINCE_FORMAT}` });
      return since ?? new Date(0);
    })
    .optional(),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be at least 1').max(1000, 'limit must be at most 1000'))
    .optional(),
});

export type AgentRunsAnswer =
  | { status: 200; json: string }
  | { status: 400; body: { error: string; issues: FieldIssue[] } }
  | { status: 503; body: { error: string } };

/**
 * The journal of `home` (default: the account's, from HOME) as `{runs, skipped, droppedSegments,
 * unreadFiles, omitted?}`, newest first: the runs of agents' hooks that `hookwerk serve` shows
 * beside its own. Empty values in the query mean "not given", as for `/api/runs`. A journal file
 * that was not read is one `warn` line.
 */
export function agentRunsAnswer(
  query: Record<string, string>,
  home: string | undefined,
  warn: (line: string) => void = () => {},
): AgentRunsAnswer {
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const parsed = parseBody(agentRunsQuerySchema, given);
  if (!parsed.ok) return { status: 400, body: { error: summarize(parsed.issues), issues: parsed.issues } };
  let dir: string;
  try {
    dir = journalDir(homeFolder(home));
  } catch (err) {
    if (err instanceof NoHomeError) return { status: 503, body: { error: err.message } };
    throw err;
  }
  const { agent, since, limit } = parsed.value;
  const read = new RunJournal(dir).read({
    limit: limit ?? 100,
    ...(agent !== undefined ? { agent } : {}),
    ...(since !== undefined ? { since } : {}),
  });
  // [T-SELF-3] A journal file that is not a regular file was skipped unopened: logged, and counted.
  for (const line of read.refused) warn(line);
  return {
    status: 200,
    json: runsResponseJson(read.entries, undefined, {
      skipped: read.skipped,
      droppedSegments: read.droppedSegments,
      unreadFiles: read.refused.length,
    }),
  };
}
