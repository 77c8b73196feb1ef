import type { Msg, Subscription } from '@nats-io/transport-node';
import type { BusMessage, MemoryBus } from '../bus/memory-bus.ts';
import { depthOf } from './depth-header.ts';
import type { NatsLink } from './nats-link.ts';

/** [N-BUS-1] What crosses between the bus and NATS, in the bus's words and in NATS's. */
const BRIDGED = [
  { bus: 'prx.lifecycle.*', nats: 'prx.lifecycle.>' },
  { bus: 'hookwerk.run.*', nats: 'hookwerk.run.>' },
  { bus: 'hookwerk.dead.*', nats: 'hookwerk.dead.>' },
] as const;

interface BridgeOptions {
  /** Deliver messages from NATS to this bus's subscribers (workers that have none say no). */
  inbound: boolean;
  onDrop(reason: 'nats_disconnected' | 'invalid'): void;
}

/**
 * [N-BUS-1] Bridges the in-process bus and NATS under the same subjects. Each message reaches
 * each local subscriber once: messages that came from NATS (and events emit() sent itself) are
 * remembered by payload object and not sent back out; the connection's `noEcho` keeps our own
 * publishes from coming back in. Only object payloads cross (envelopes and records are objects),
 * which is what makes "remembered by object" complete.
 */
export class BusBridge {
  readonly #bus: MemoryBus;
  readonly #link: NatsLink;
  readonly #opts: BridgeOptions;
  /** Payloads not to send out: they came from NATS, or were sent already. */
  readonly #skip = new WeakSet<object>();
  #offs: Array<() => void> = [];
  #subs: Subscription[] = [];

  constructor(bus: MemoryBus, link: NatsLink, opts: BridgeOptions) {
    this.#bus = bus;
    this.#link = link;
    this.#opts = opts;
    for (const { bus: pattern, nats } of BRIDGED) {
      this.#offs.push(bus.subscribe(pattern, this.#outbound));
      if (opts.inbound) this.#subs.push(link.nc.subscribe(nats, { callback: this.#inbound }));
    }
  }

  /** emit() published this event's envelope to NATS itself. */
  sentAlready(payload: object): void {
    this.#skip.add(payload);
  }

  stop(): void {
    for (const off of this.#offs.splice(0)) off();
    for (const sub of this.#subs.splice(0)) sub.unsubscribe();
  }

  readonly #outbound = (msg: BusMessage): void => {
    const payload = msg.payload;
    if (typeof payload !== 'object' || payload === null || this.#skip.has(payload)) return;
    const json = msg.json ?? JSON.stringify(payload);
    if (!this.#link.publish(msg.topic, json, msg.depth)) this.#opts.onDrop('nats_disconnected');
  };

  readonly #inbound = (err: Error | null, m: Msg): void => {
    if (err !== null) return;
    const json = m.string();
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      this.#opts.onDrop('invalid');
      return;
    }
    if (typeof value !== 'object' || value === null) {
      this.#opts.onDrop('invalid');
      return;
    }
    this.#skip.add(value);
    // [N-SEC-2] Above depth 8 the bus drops it (and counts it): the depth is not reset.
    this.#bus.publish(m.subject, value, { depth: depthOf(m.headers), json });
  };
}
