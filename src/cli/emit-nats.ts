import { randomUUID } from 'node:crypto';
import { type PrxEnvelope, type PrxEventName, prxTopic } from '../events/prx-events.ts';
import { errorMessage } from '../files/errno.ts';
import { defaultNatsName } from '../nats/engine-nats.ts';
import { ensureEventStream } from '../nats/event-stream.ts';
import { depthHeaders, NatsLink } from '../nats/nats-link.ts';
import { silentLogger } from '../records/logger.ts';
import { CliError } from './cli-error.ts';

/** [N-WORK-1] How long `emit --nats` waits for a server, and for its acknowledgement. */
const EMIT_TIMEOUT_MS = 5000;

/**
 * `hookwerk emit EVENT --nats URL [--durable] [--event-id ID]`: runs no hooks; exits 0 once the
 * server has the message (durable: once the stream acknowledged it), 1 if it cannot within 5 s.
 */
export async function emitOverNats(
  envelope: PrxEnvelope & { event: PrxEventName },
  depth: number,
  opts: { nats: string; durable?: boolean; eventId?: string },
  out: (line: string) => void,
): Promise<number> {
  let link: NatsLink;
  try {
    link = await NatsLink.open({
      servers: [opts.nats],
      connectTimeoutMs: EMIT_TIMEOUT_MS,
      name: defaultNatsName(),
      logger: silentLogger,
    });
  } catch (e) {
    throw new CliError(errorMessage(e));
  }
  const subject = prxTopic(envelope.event);
  const data = JSON.stringify(envelope);
  try {
    if (opts.durable === true) {
      await ensureEventStream(link.nc);
      const msgID = opts.eventId ?? randomUUID();
      const ack = await link.js.publish(subject, data, {
        msgID,
        headers: depthHeaders(depth),
        timeout: EMIT_TIMEOUT_MS,
      });
      out(`${ack.duplicate ? 'duplicate' : 'stored'}: ${subject} seq ${ack.seq} id ${msgID}`);
    } else {
      link.nc.publish(subject, data, { headers: depthHeaders(depth) });
      await link.nc.flush();
      out(`published: ${subject}`);
    }
  } catch (e) {
    throw new CliError(`nats: ${errorMessage(e)}`);
  } finally {
    await link.close();
  }
  return 0;
}
