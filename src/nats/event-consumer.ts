import { AckPolicy, type ConsumerMessages, type JsMsg, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { MemoryBus } from '../bus/memory-bus.ts';
import { errorMessage } from '../core/errno.ts';
import type { PrxEnvelope } from '../events/prx-events.ts';
import type { Logger } from '../records/logger.ts';
import type { RunRecord } from '../records/run-record.ts';
import { EVENT_SUBJECTS, EVENTS_STREAM, ensureEventStream, type StreamLimits } from './event-stream.ts';
import type { NatsLink } from './nats-link.ts';
import { type ReceivedDrop, readReceivedEvent } from './received-event.ts';

/** What a worker needs of its engine to run the events it takes: a narrow port, not the façade. */
interface EventRunner {
  readonly bus: Pick<MemoryBus, 'publish'>;
  receive(envelope: PrxEnvelope, depth: number): Promise<RunRecord[]>;
}

/** A worker's intake of events; `stop()` takes no more and resolves once those taken are settled. */
export interface EventConsumer {
  stop(): Promise<void>;
}

interface ConsumerOptions {
  /** Queue group: each event runs once per group. */
  queue: string;
  logger: Logger;
  /** Counts an event that could not be run (`events_dropped_total{reason}`). */
  dropped(reason: string): void;
}

/**
 * [N-WORK-1] Core mode (at most once): a queue-group subscription; the server hands each event
 * to one worker of the group. The engine's own queue bounds what waits (drops are recorded).
 */
export async function consumeCore(
  link: NatsLink,
  engine: EventRunner,
  opts: ConsumerOptions,
): Promise<EventConsumer> {
  const pending = new Set<Promise<unknown>>();
  const sub = link.nc.subscribe(EVENT_SUBJECTS, {
    queue: opts.queue,
    callback: (err, m) => {
      if (err !== null) return;
      const got = readReceivedEvent(m);
      if (!got.ok) {
        dropReceived(opts, m.subject, got, 'skipped');
        return;
      }
      const run = engine.receive(got.envelope, got.depth).catch((e: unknown) => {
        opts.dropped('invalid');
        opts.logger.warn(`worker: ${m.subject}: ${errorMessage(e)}`);
      });
      pending.add(run);
      void run.finally(() => pending.delete(run));
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

interface DurableOptions extends ConsumerOptions {
  ackWaitMs: number;
  maxDeliver: number;
  /** [N-DUR-1] Unacknowledged events this worker holds at most (maxConcurrent + maxQueue). */
  maxHeld: number;
  /** [N-SEC-3] The stream's limits, when this worker creates (or updates) it. */
  streamLimits: StreamLimits;
}

/**
 * [N-DUR-1] Durable mode (at least once): a durable JetStream consumer per queue group. An event
 * is acknowledged after its runs are recorded; a worker that dies holding it lets the server
 * deliver it again after `ackWaitMs`. Delivery number `maxDeliver + 1` is not run: it goes to
 * `hookwerk.dead.<event>` (the envelope plus `deliveries`).
 */
export async function consumeDurable(
  link: NatsLink,
  engine: EventRunner,
  opts: DurableOptions,
): Promise<EventConsumer> {
  await ensureEventStream(link.nc, opts.streamLimits, opts.logger);
  const durable = consumerName(opts.queue);
  const jsm = await jetstreamManager(link.nc);
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(opts.ackWaitMs),
    // One delivery more than the runs allowed: that one is turned into the dead letter.
    max_deliver: opts.maxDeliver + 1,
    filter_subject: EVENT_SUBJECTS,
  };
  try {
    await jsm.consumers.info(EVENTS_STREAM, durable);
    await jsm.consumers.update(EVENTS_STREAM, durable, {
      ack_wait: config.ack_wait,
      max_deliver: config.max_deliver,
    });
  } catch {
    await jsm.consumers.add(EVENTS_STREAM, config).catch(async (err: unknown) => {
      // Another worker of the group created it meanwhile.
      await jsm.consumers.info(EVENTS_STREAM, durable).catch(() => {
        throw err;
      });
    });
  }
  const consumer = await link.js.consumers.get(EVENTS_STREAM, durable);
  const messages: ConsumerMessages = await consumer.consume({
    max_messages: Math.max(1, Math.min(opts.maxHeld, 256)),
  });
  let stopping = false;
  let held = 0;
  let slotFreed: (() => void) | undefined;
  const pending = new Set<Promise<void>>();

  // `term()` without a reason: nats-server before 2.10 takes only a bare `+TERM` and ignores
  // `+TERM <reason>` (the event would be delivered again); the reason goes to our log instead.
  const handle = async (m: JsMsg): Promise<void> => {
    // Still buffered when stop() came: not run here (the engine is closing), and not removed
    // either: another worker gets it.
    if (stopping) {
      m.nak();
      return;
    }
    const got = readReceivedEvent(m);
    if (!got.ok) {
      // Not delivered again: it would be dropped again.
      dropReceived(opts, m.subject, got, 'removed from the stream');
      m.term();
      return;
    }
    const deliveries = m.info.deliveryCount - 1;
    if (deliveries >= opts.maxDeliver) {
      engine.bus.publish(
        `hookwerk.dead.${got.envelope.event}`,
        { ...got.envelope, deliveries },
        { depth: got.depth },
      );
      m.term();
      return;
    }
    // A run longer than the ack wait must not be handed to another worker meanwhile.
    const keepAlive = setInterval(() => m.working(), Math.max(100, Math.floor(opts.ackWaitMs / 2)));
    let records: RunRecord[];
    try {
      records = await engine.receive(got.envelope, got.depth);
    } catch (e) {
      clearInterval(keepAlive);
      opts.dropped('invalid');
      opts.logger.warn(`worker: ${m.subject}: ${errorMessage(e)}; removed from the stream`);
      m.term();
      return;
    }
    clearInterval(keepAlive);
    // Runs cut short by this worker's shutdown go to another worker at once; the rest are done.
    if (stopping && records.some(stoppedByShutdown)) m.nak();
    else m.ack();
  };

  const loop = (async () => {
    for await (const m of messages) {
      while (held >= opts.maxHeld) await new Promise<void>((resolve) => (slotFreed = resolve));
      held++;
      const p = handle(m).finally(() => {
        held--;
        pending.delete(p);
        slotFreed?.();
        slotFreed = undefined;
      });
      pending.add(p);
    }
  })();

  return {
    async stop() {
      stopping = true;
      await messages.close().catch(() => {});
      slotFreed?.();
      await loop.catch(() => {});
      await Promise.all(pending);
    },
  };
}

/**
 * Counts a message not run. Too deep is silent, as a local emit beyond depth 8 is [P-BUS-3]: a
 * loop would log a line per turn. Not an event is logged: someone sends something broken.
 */
function dropReceived(
  opts: ConsumerOptions,
  subject: string,
  got: { drop: ReceivedDrop; reason: string },
  what: string,
): void {
  opts.dropped(got.drop);
  if (got.drop === 'invalid') opts.logger.warn(`worker: ${subject}: not an event (${got.reason}); ${what}`);
}

function stoppedByShutdown(r: RunRecord): boolean {
  return r.cause === 'closed' || r.outcome === 'timeout';
}

/** A JetStream consumer name from a queue group name (no `.`, `*`, `>` or spaces allowed). */
function consumerName(queue: string): string {
  return `hookwerk_${queue.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
