import { DiscardPolicy, jetstreamManager, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
import { errorMessage } from '../core/errno.ts';
import type { Logger } from '../records/logger.ts';
import { permissionViolation, refusalText } from './nats-link.ts';
import { DEFAULT_STREAM_MAX_AGE_MS, DEFAULT_STREAM_MAX_BYTES } from './nats-options.ts';

/** [N-DUR-1] The stream every durable event goes through. */
export const EVENTS_STREAM = 'HOOKWERK_EVENTS';
export const EVENT_SUBJECTS = 'prx.lifecycle.>';
/** [N-DUR-1] The same `Nats-Msg-Id` again within this window is stored (and run) once. */
const DUPLICATE_WINDOW_MS = 120_000;

/** [N-SEC-3] The limits this side was given (undefined: not given, the defaults apply). */
export interface StreamLimits {
  maxBytes?: number | undefined;
  maxAgeMs?: number | undefined;
}

/**
 * Creates the stream if it is missing, with limits [N-SEC-3] (default 1 GiB and 24 h, the
 * oldest events discarded first), so no client can fill the server's disk through it. Each side
 * (agent and worker) calls it, so whichever starts first makes it.
 *
 * An existing stream is updated only where it has no limit at all (one made before limits
 * existed gets the defaults), or where this side was given a limit explicitly and the stream has
 * another: a side running on defaults never undoes what an operator (or a worker's flags) set.
 *
 * Credentials that may not create or update the stream (an agent in a locked fleet) only get a
 * warning: the workers' credentials manage it, and durable emits wait until it exists.
 */
export async function ensureEventStream(
  nc: NatsConnection,
  limits: StreamLimits,
  logger: Logger,
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const maxBytes = limits.maxBytes ?? DEFAULT_STREAM_MAX_BYTES;
  const maxAge = nanos(limits.maxAgeMs ?? DEFAULT_STREAM_MAX_AGE_MS);
  let existing: StreamConfig | undefined;
  try {
    existing = (await jsm.streams.info(EVENTS_STREAM)).config;
  } catch {
    // Not there (yet): create it below.
  }
  if (existing === undefined) {
    try {
      await jsm.streams.add({
        name: EVENTS_STREAM,
        subjects: [EVENT_SUBJECTS],
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
        max_bytes: maxBytes,
        max_age: maxAge,
        discard: DiscardPolicy.Old,
      });
      return;
    } catch (err) {
      const refused = permissionViolation(err);
      if (refused !== undefined) {
        logger.warn(
          `nats: stream ${EVENTS_STREAM} is missing and these credentials cannot create it (the server refused ${refusalText(refused)}); durable events wait until a worker does`,
        );
        return;
      }
      // Another side created it meanwhile: fine if it is there now.
      existing = (
        await jsm.streams.info(EVENTS_STREAM).catch(() => {
          throw err;
        })
      ).config;
    }
  }
  const update: Partial<StreamConfig> = {};
  if (existing.max_bytes <= 0 || (limits.maxBytes !== undefined && existing.max_bytes !== maxBytes))
    update.max_bytes = maxBytes;
  if (existing.max_age <= 0 || (limits.maxAgeMs !== undefined && existing.max_age !== maxAge))
    update.max_age = maxAge;
  if (Object.keys(update).length === 0) return;
  // With a limit reached, "old" drops the oldest events; "new" would refuse every new one.
  update.discard = DiscardPolicy.Old;
  try {
    await jsm.streams.update(EVENTS_STREAM, update);
  } catch (err) {
    const refused = permissionViolation(err);
    const why =
      refused === undefined
        ? errorMessage(err)
        : `these credentials cannot update it: the server refused ${refusalText(refused)}`;
    logger.warn(`nats: stream ${EVENTS_STREAM} keeps its limits (${why})`);
  }
}
