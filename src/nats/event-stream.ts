import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';

/** [N-DUR-1] The stream every durable event goes through. */
export const EVENTS_STREAM = 'HOOKWERK_EVENTS';
export const EVENT_SUBJECTS = 'prx.lifecycle.>';
/** [N-DUR-1] The same `Nats-Msg-Id` again within this window is stored (and run) once. */
export const DUPLICATE_WINDOW_MS = 120_000;

/**
 * Creates the stream if it is missing. Each side (agent and worker) calls it, so whichever starts
 * first makes it; an existing stream is left as it is (an operator may have tuned it).
 */
export async function ensureEventStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(EVENTS_STREAM);
    return;
  } catch {
    // Not there (yet): create it below.
  }
  try {
    await jsm.streams.add({
      name: EVENTS_STREAM,
      subjects: [EVENT_SUBJECTS],
      storage: StorageType.File,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    });
  } catch (err) {
    // Another side created it meanwhile: fine if it is there now.
    await jsm.streams.info(EVENTS_STREAM).catch(() => {
      throw err;
    });
  }
}
