import { errorMessage } from '../core/errno.ts';
import type { Logger } from '../records/logger.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { NatsLink } from './nats-link.ts';
import { DECIDE_SUBJECT_PREFIX, decideRequestSchema } from './remote-gate.ts';

/** What a gate worker needs of its engine: deciding, nothing else. */
interface GateDecider {
  decide(event: string, context: unknown): Promise<{ runs: RunRecord[] }>;
}

/**
 * [N-GATE-1] A gate worker: answers `hookwerk.decide.<event>` in a queue group with the decision
 * of its own gate sources, runs stamped with its name. A bad request gets `{ error }`, which the
 * asking engine treats by its fail mode.
 */
export async function answerGate(
  link: NatsLink,
  engine: GateDecider,
  opts: { queue: string; name: string; logger: Logger },
): Promise<{ stop(): Promise<void> }> {
  const pending = new Set<Promise<void>>();
  const sub = link.nc.subscribe(`${DECIDE_SUBJECT_PREFIX}>`, {
    queue: opts.queue,
    callback: (err, m) => {
      if (err !== null) return;
      let request: unknown;
      try {
        request = JSON.parse(m.string());
      } catch {
        m.respond(JSON.stringify({ error: 'the request is not JSON' }));
        return;
      }
      const parsed = decideRequestSchema.safeParse(request);
      if (!parsed.success) {
        m.respond(
          JSON.stringify({ error: `bad gate request: ${parsed.error.issues[0]?.message ?? 'invalid'}` }),
        );
        return;
      }
      const answered = engine.decide(parsed.data.event, parsed.data.context).then(
        (decision) => {
          for (const run of decision.runs) run.worker = opts.name;
          m.respond(JSON.stringify(decision));
        },
        (e: unknown) => {
          opts.logger.warn(`gate worker: ${m.subject}: ${errorMessage(e)}`);
          m.respond(JSON.stringify({ error: errorMessage(e) }));
        },
      );
      pending.add(answered);
      void answered.finally(() => pending.delete(answered));
    },
  });
  // Subscribed at the server (a round trip) before the worker says it is ready.
  await link.nc.flush();
  return {
    async stop() {
      sub.unsubscribe();
      await Promise.all(pending);
    },
  };
}
