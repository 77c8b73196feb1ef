import { randomUUID } from 'node:crypto';
import { NoRespondersError, RequestError } from '@nats-io/transport-node';
import { errorMessage } from '../core/errno.ts';
import { type PrxEnvelope, type PrxEventName, prxTopic } from '../events/prx-events.ts';
import { depthHeaders } from '../nats/depth-header.ts';
import { defaultNatsName } from '../nats/engine-nats.ts';
import { EVENTS_STREAM, ensureEventStream } from '../nats/event-stream.ts';
import { NatsLink, permissionViolation, refusalText } from '../nats/nats-link.ts';
import type { NatsSecurity } from '../nats/nats-options.ts';
import { redactUrls } from '../nats/redact-url.ts';
import type { Logger } from '../records/logger.ts';
import { CliError } from './cli-error.ts';

/** [N-WORK-1] How long `emit --nats` waits for a server, and for its acknowledgement. */
const EMIT_TIMEOUT_MS = 5000;

/**
 * `hookwerk emit EVENT --nats URL [--durable] [--event-id ID]`: runs no hooks; exits 0 once the
 * server has the message (durable: once the stream acknowledged it), 1 if it cannot within 5 s,
 * or if the server refused it (these credentials may not publish events) [N-SEC-1].
 * [N-SEC-2] `depth` is the caller's: inside a hook, ZERO_HOOK_DEPTH + 1 — workers drop it
 * above 8, so a hook that emits again through NATS cannot loop for ever.
 */
export async function emitOverNats(
  envelope: PrxEnvelope & { event: PrxEventName },
  depth: number,
  opts: { nats: string; security: NatsSecurity; durable?: boolean; eventId?: string },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const logger: Logger = { info: () => {}, warn: (m) => err(`hookwerk emit: ${m}`), error: (m) => err(m) };
  let link: NatsLink;
  try {
    link = await NatsLink.open({
      servers: [opts.nats],
      connectTimeoutMs: EMIT_TIMEOUT_MS,
      name: defaultNatsName(),
      // Quiet: a refused publish is this command's error below, not an extra warning line.
      logger: { ...logger, warn: () => {} },
      security: opts.security,
    });
  } catch (e) {
    throw new CliError(redactUrls(errorMessage(e)));
  }
  const subject = prxTopic(envelope.event);
  const data = JSON.stringify(envelope);
  try {
    if (opts.durable === true) {
      await ensureEventStream(link.nc, {}, logger);
      const msgID = opts.eventId ?? randomUUID();
      const ack = await link.js.publish(subject, data, {
        msgID,
        headers: depthHeaders(depth),
        timeout: EMIT_TIMEOUT_MS,
      });
      out(`${ack.duplicate ? 'duplicate' : 'stored'}: ${subject} seq ${ack.seq} id ${msgID}`);
    } else {
      const denied = link.denials;
      link.nc.publish(subject, data, { headers: depthHeaders(depth) });
      // The server answers a refused publish before the flush's PONG; one turn of the event
      // loop lets the client hand that answer to the link.
      await link.nc.flush();
      await new Promise((resolve) => setImmediate(resolve));
      if (link.denials > denied) throw refused(subject);
      out(`published: ${subject}`);
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    // No stream listens: the publish had no responder (the client calls that "not enabled").
    if (opts.durable === true && noResponders(e))
      throw new CliError(
        `nats: no stream stores ${subject}: ${EVENTS_STREAM} does not exist yet (a durable worker creates it)`,
      );
    const violation = permissionViolation(e);
    if (violation !== undefined) throw new CliError(`nats: the server refused ${refusalText(violation)}`);
    throw new CliError(`nats: ${redactUrls(errorMessage(e))}`);
  } finally {
    await link.close();
  }
  return 0;
}

function refused(subject: string): CliError {
  return new CliError(
    `nats: the server refused the publish to ${subject}: these credentials may not publish events`,
  );
}

function noResponders(err: unknown): boolean {
  for (let e = err, i = 0; e instanceof Error && i < 5; e = e.cause, i++)
    if (e instanceof NoRespondersError || (e instanceof RequestError && e.isNoResponders())) return true;
  return false;
}
