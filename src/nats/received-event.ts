import type { Msg } from '@nats-io/transport-node';
import { z } from 'zod';
import { MAX_DEPTH } from '../bus/depth.ts';
import type { PrxEnvelope } from '../events/prx-events.ts';
import { depthOf } from './depth-header.ts';

/** [P-EV-2] An event envelope as it arrives over NATS, checked before anything runs. */
const envelopeSchema = z.object({
  event: z.string().min(1),
  timestamp: z.string(),
  session_id: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

/** Why a received message is not run: `events_dropped_total{reason}`. */
export type ReceivedDrop = 'depth' | 'invalid';

type ReceivedEvent =
  | { ok: true; envelope: PrxEnvelope; depth: number }
  | { ok: false; drop: ReceivedDrop; reason: string };

/**
 * The envelope and depth of a message on `prx.lifecycle.<event>`, or why it is not run.
 * [N-SEC-2] The depth is checked first, whatever the header says: a loop through NATS ends at
 * depth 8 (and costs no parsing past it).
 */
export function readReceivedEvent(m: Pick<Msg, 'string' | 'headers'>): ReceivedEvent {
  const depth = depthOf(m.headers);
  if (depth > MAX_DEPTH) return { ok: false, drop: 'depth', reason: `depth ${depth} is over ${MAX_DEPTH}` };
  let value: unknown;
  try {
    value = JSON.parse(m.string());
  } catch {
    return { ok: false, drop: 'invalid', reason: 'not JSON' };
  }
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, drop: 'invalid', reason: parsed.error.issues[0]?.message ?? 'not an event envelope' };
  return { ok: true, envelope: parsed.data, depth };
}
