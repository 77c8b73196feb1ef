import type { Msg } from '@nats-io/transport-node';
import { z } from 'zod';
import { MAX_DEPTH } from '../bus/depth.ts';
import type { PrxEnvelope } from '../events/prx-events.ts';
import { depthOf } from './nats-link.ts';

/** [P-EV-2] An event envelope as it arrives over NATS, checked before anything runs. */
const envelopeSchema = z.object({
  event: z.string().min(1),
  timestamp: z.string(),
  session_id: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

export type ReceivedEvent =
  | { ok: true; envelope: PrxEnvelope; depth: number }
  | { ok: false; reason: string };

/** The envelope and depth of a message on `prx.lifecycle.<event>`, or why it is not one. */
export function readReceivedEvent(m: Pick<Msg, 'string' | 'headers'>): ReceivedEvent {
  let value: unknown;
  try {
    value = JSON.parse(m.string());
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, reason: parsed.error.issues[0]?.message ?? 'not an event envelope' };
  return { ok: true, envelope: parsed.data, depth: depthOf(m.headers, MAX_DEPTH) };
}
