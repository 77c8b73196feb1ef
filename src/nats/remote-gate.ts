import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { z } from 'zod';
import { errorMessage } from '../core/errno.ts';
import type { FailMode } from '../core/fail-mode.ts';
import type { Decision } from '../dispatch/gate-sequential.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { runRecordSchema } from '../records/run-record-schema.ts';
import { ABORTED } from '../runners/run-result.ts';
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
 *
 * [AD-ALL-1] When `signal` aborts, the answer is no longer awaited: one record with cause
 * `aborted` and no decision (the caller rejects). The worker is not told: NATS has no cancel for
 * a request, and its hooks run to their end there (the late answer is dropped here).
 */
export async function decideRemotely(
  link: NatsLink,
  event: string,
  context: Record<string, unknown>,
  canBlock: boolean,
  opts: RemoteGateOptions,
  record: (r: RunRecord) => void,
  signal?: AbortSignal,
): Promise<Decision> {
  const subject = `${DECIDE_SUBJECT_PREFIX}${event}`;
  const started = performance.now();
  let failure: { outcome: 'error' | 'timeout'; cause: string; reason: string };
  try {
    const asked = link.nc.request(subject, JSON.stringify({ event, context }), {
      timeout: opts.timeoutMs,
    });
    const reply = signal === undefined ? await asked : await untilAborted(asked, signal);
    if (reply === STOPPED) return abortedRun(subject, event, started, record);
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

const STOPPED = Symbol('aborted');

/** `asked`, or STOPPED once `signal` aborts (then a late answer or failure of `asked` is dropped). */
function untilAborted<T>(asked: Promise<T>, signal: AbortSignal): Promise<T | typeof STOPPED> {
  if (signal.aborted) {
    asked.catch(() => {});
    return Promise.resolve(STOPPED);
  }
  return new Promise<T | typeof STOPPED>((resolve, reject) => {
    const onAbort = (): void => resolve(STOPPED);
    signal.addEventListener('abort', onAbort, { once: true });
    asked.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The one record of a remote decide the caller aborted: no decision. */
function abortedRun(
  subject: string,
  event: string,
  started: number,
  record: (r: RunRecord) => void,
): Decision {
  const run: RunRecord = {
    hook: 'remote-gate',
    source: `nats:${subject}`,
    event,
    dialect: 'lurus',
    outcome: 'error',
    durationMs: performance.now() - started,
    at: isoNow(),
    cause: ABORTED,
    reason: "aborted by the caller; the gate worker's answer is not awaited",
  };
  record(run);
  return { decision: 'allow', blocked: false, runs: [run] };
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
