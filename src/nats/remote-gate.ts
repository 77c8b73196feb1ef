import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { z } from 'zod';
import { errorMessage } from '../core/errno.ts';
import type { FailMode } from '../core/fail-mode.ts';
import type { Decision } from '../dispatch/gate-sequential.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { runRecordSchema } from '../records/run-record-schema.ts';
import type { NatsLink } from './nats-link.ts';

/** [N-GATE-1] Gate requests go to `hookwerk.decide.<event>`. */
export const DECIDE_SUBJECT_PREFIX = 'hookwerk.decide.';

/** What a gate worker is asked. */
export const decideRequestSchema = z.object({
  event: z.string().min(1),
  context: z.record(z.string(), z.unknown()),
});

/** What a gate worker answers: a decision, or why it could not make one. */
const decideReplySchema = z.union([
  z.object({
    decision: z.enum(['allow', 'deny']),
    blocked: z.boolean(),
    reason: z.string().optional(),
    additionalContext: z.string().optional(),
    runs: z.array(runRecordSchema),
  }),
  z.object({ error: z.string() }),
]);

interface RemoteGateOptions {
  timeoutMs: number;
  failMode: FailMode;
}

/**
 * [N-GATE-1] decide() through a gate worker. No worker listening (known at once) or no answer in
 * time: the fail mode decides, with one run record saying which (`no_responder`, `timeout`).
 * The worker's own run records come back inside the decision.
 */
export async function decideRemotely(
  link: NatsLink,
  event: string,
  context: Record<string, unknown>,
  canBlock: boolean,
  opts: RemoteGateOptions,
  record: (r: RunRecord) => void,
): Promise<Decision> {
  const subject = `${DECIDE_SUBJECT_PREFIX}${event}`;
  const started = performance.now();
  let failure: { outcome: 'error' | 'timeout'; cause: string; reason: string };
  try {
    const reply = await link.nc.request(subject, JSON.stringify({ event, context }), {
      timeout: opts.timeoutMs,
    });
    const parsed = decideReplySchema.safeParse(parseJson(reply.string()));
    if (parsed.success && 'decision' in parsed.data) return parsed.data;
    const reason =
      parsed.success && 'error' in parsed.data
        ? parsed.data.error
        : 'the gate worker answered something that is not a decision';
    failure = { outcome: 'error', cause: 'remote_error', reason };
  } catch (err) {
    failure = requestFailure(err, subject, opts.timeoutMs);
  }
  const decision = opts.failMode === 'closed' ? 'deny' : 'allow';
  const run: RunRecord = {
    hook: 'remote-gate',
    source: `nats:${subject}`,
    event,
    dialect: 'lurus',
    outcome: failure.outcome,
    durationMs: performance.now() - started,
    at: isoNow(),
    cause: failure.cause,
    reason: failure.reason,
    failed: opts.failMode,
    decision,
  };
  record(run);
  if (decision === 'allow') return { decision, blocked: false, runs: [run] };
  return {
    decision,
    blocked: canBlock,
    reason: `remote gate: ${failure.reason} (failMode closed)`,
    runs: [run],
  };
}

function requestFailure(
  err: unknown,
  subject: string,
  timeoutMs: number,
): { outcome: 'error' | 'timeout'; cause: string; reason: string } {
  const cause = err instanceof Error ? err.cause : undefined;
  if (
    err instanceof NoRespondersError ||
    cause instanceof NoRespondersError ||
    (err instanceof RequestError && err.isNoResponders())
  ) {
    return { outcome: 'error', cause: 'no_responder', reason: `no gate worker answers ${subject}` };
  }
  if (err instanceof TimeoutError || cause instanceof TimeoutError) {
    return { outcome: 'timeout', cause: 'timeout', reason: `no answer on ${subject} within ${timeoutMs} ms` };
  }
  return { outcome: 'error', cause: 'remote_error', reason: errorMessage(err) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
