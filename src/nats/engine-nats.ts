import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { MemoryBus } from '../bus/memory-bus.ts';
import type { Decision } from '../dispatch/gate-sequential.ts';
import { LURUS_EVENTS, type LurusEventName } from '../events/lurus-events.ts';
import type { PrxEventInstance } from '../events/prx-events.ts';
import type { Logger } from '../records/logger.ts';
import type { RunRecord } from '../records/run-record.ts';
import { BusBridge } from './bus-bridge.ts';
import { DurablePublisher } from './durable-publisher.ts';
import { ensureEventStream, type StreamLimits } from './event-stream.ts';
import { NatsLink } from './nats-link.ts';
import { type NatsOptions, parseNatsOptions, serverList } from './nats-options.ts';
import { decideRemotely } from './remote-gate.ts';

interface EngineNatsDeps {
  bus: MemoryBus;
  logger: Logger;
  /** Counts an event or message that could not go to NATS (`events_dropped_total{reason}`). */
  dropped(reason: string): void;
  /** [N-CONN-1] Durable emits waiting for the server, at most. */
  maxQueue: number;
  /** Deliver NATS messages to the local bus (off for workers, whose bus has no subscribers). */
  inbound: boolean;
}

/** [N-SEC-3] The stream limits the options give (undefined where they give none). */
function streamLimits(options: NatsOptions): StreamLimits {
  return { maxBytes: options.streamMaxBytes, maxAgeMs: options.streamMaxAgeMs };
}

/** The default worker / client name: `<hostname>:<pid>`. */
export function defaultNatsName(): string {
  return `${hostname()}:${process.pid}`;
}

/** The NATS side of each engine that has one: for the worker wiring in nats/, not the public face. */
const ATTACHED = new WeakMap<object, EngineNats>();

/** The NATS side of `engine` (the worker's consumers subscribe on its link), if it has one. */
export function natsOf(engine: object): EngineNats | undefined {
  return ATTACHED.get(engine);
}

/**
 * An engine's side of NATS [N-BUS-1, N-CONN-1, N-DUR-1, N-GATE-1]: the connection, the bus
 * bridge, durable publishing and the remote gate. The engine calls it; it never calls hooks.
 */
export class EngineNats {
  readonly options: NatsOptions;
  readonly name: string;
  readonly link: NatsLink;
  readonly #bridge: BusBridge;
  readonly #durable: DurablePublisher | undefined;
  readonly #deps: EngineNatsDeps;

  private constructor(options: NatsOptions, link: NatsLink, deps: EngineNatsDeps) {
    this.options = options;
    this.name = options.name ?? defaultNatsName();
    this.link = link;
    this.#deps = deps;
    this.#bridge = new BusBridge(deps.bus, link, { inbound: deps.inbound, onDrop: (r) => deps.dropped(r) });
    this.#durable = options.durable ? new DurablePublisher(link, deps.maxQueue, deps.logger) : undefined;
  }

  /** Connects (rejecting, with the URL named, when no server answers in time) and starts bridging. */
  /** The `nats` options of `createHookEngine`, validated (a TypeError naming the first bad field). */
  static parse(input: unknown): NatsOptions {
    return parseNatsOptions(input);
  }

  /** Connects for `engine`, which then reaches it through `natsOf` (the engine's public face shows only a status). */
  static async open(engine: object, options: NatsOptions, deps: EngineNatsDeps): Promise<EngineNats> {
    const link = await NatsLink.open({
      servers: serverList(options.servers),
      connectTimeoutMs: options.connectTimeoutMs,
      name: options.name ?? defaultNatsName(),
      logger: deps.logger,
      security: options,
      // [N-SEC-1] What the server refused (these credentials lack the permission) is dropped.
      onDenied: () => deps.dropped('nats_denied'),
    });
    try {
      if (options.durable) await ensureEventStream(link.nc, streamLimits(options), deps.logger);
    } catch (err) {
      await link.close();
      throw err;
    }
    const nats = new EngineNats(options, link, deps);
    // A round trip: the server has the bridge's subscriptions before anyone publishes to us.
    await link.nc.flush();
    ATTACHED.set(engine, nats);
    return nats;
  }

  get runsLocally(): boolean {
    return this.options.runLocally;
  }

  /**
   * emit(): the event goes to NATS at once — core (dropped and counted while disconnected) or
   * durable (queued until the stream acknowledged it, `Nats-Msg-Id` = `eventId`).
   */
  sendEvent(topic: string, ev: PrxEventInstance, eventId: string | undefined): void {
    this.#bridge.sentAlready(ev.envelope);
    if (this.#durable !== undefined) {
      if (!this.#durable.publish(topic, ev.json, ev.depth, eventId ?? randomUUID()))
        this.#deps.dropped('nats_queue_full');
    } else if (!this.link.publish(topic, ev.json, ev.depth)) {
      this.#deps.dropped('nats_disconnected');
    }
  }

  /** [N-GATE-1] decide() by a gate worker (the remote gate speaks Lurus); `signal` stops the wait. */
  decide(
    event: LurusEventName,
    context: object,
    record: (r: RunRecord) => void,
    signal?: AbortSignal,
  ): Promise<Decision> {
    return decideRemotely(
      this.link,
      event,
      Object.fromEntries(Object.entries(context)),
      LURUS_EVENTS[event].canBlock,
      { timeoutMs: this.options.decideTimeoutMs, failMode: this.options.failMode },
      record,
      signal,
    );
  }

  /** Durable emits still waiting get up to `graceMs` to reach the stream; then the connection closes. */
  async close(graceMs: number): Promise<void> {
    if (this.#durable !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.#durable.flushed(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      const left = this.#durable.stop();
      if (left > 0) {
        this.#deps.logger.warn(`nats: ${left} durable event(s) not acknowledged by the stream before close`);
        for (let i = 0; i < left; i++) this.#deps.dropped('closed');
      }
    }
    this.#bridge.stop();
    await this.link.close();
  }
}
