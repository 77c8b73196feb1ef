/**
 * The in-process event bus ([P-BUS-1..3]).
 *
 * - `publish()` is synchronous, cheap and never throws for a valid topic: it checks the topic,
 *   the depth and the queue cap, then queues the message. No serialization happens here.
 * - Delivery is asynchronous: the first publish after an idle period schedules ONE drain with
 *   `queueMicrotask`. A microtask is the cheapest way to leave the publisher's call stack (no
 *   timer/immediate handle, no event-loop turn) and keeps latency minimal; handlers therefore
 *   run after the publisher's current synchronous code, before pending I/O. Starvation is bounded
 *   by the depth limit (republish chains stop at depth 8) and by the pending-queue cap. Do not
 *   rely on a particular number of awaits: use `flush()`.
 * - In the drain, subscribers are found through a token trie; a message nobody matches is
 *   dropped without being serialized. Otherwise the payload's UTF-8 JSON is measured (or the
 *   caller's `json`) and a message above `maxPayloadBytes` is dropped and counted.
 * - Handlers run inside `runAtDepth(msg.depth, …)`, so anything they publish (also after an
 *   `await`) gets depth + 1. A publish above `maxDepth` is dropped silently and counted. The
 *   context is entered once per run of same-depth messages in a drained batch, not once per
 *   handler: entering it costs more than calling a handler, and a 1 000-subscriber fan-out paid
 *   it 1 000 times per message. Handlers cannot leave it changed (`runAtDepth` restores), so
 *   sharing it is the same as entering it anew.
 * - `publishLazy()` takes a payload that is built only when some subscription matches (an
 *   event's envelope: most emits have no subscriber at all).
 * - At-most-once: one `subscribe()` is one subscription with one pattern and gets each message at
 *   most once. A subscription receives messages published after `subscribe()` returned and until
 *   its unsubscribe (queued messages included: an unsubscribed handler is never called again).
 * - Handler errors (throw or rejection) are isolated, counted and reported.
 */

import { HookInputError, InvalidOptionError } from '../core/errors.ts';
import { currentDepth, MAX_DEPTH, runAtDepth } from './depth.ts';
import { splitTopic, TopicTrie, type TrieEntry } from './topic-trie.ts';

/**
 * A delivered message. One frozen object is shared by every handler of a publish: do not mutate
 * it (nor its payload).
 */
export interface BusMessage {
  topic: string;
  payload: unknown;
  depth: number;
  /** The payload's JSON as measured by the bus (the publisher's `json` if given). */
  json?: string;
}

export type BusHandler = (msg: BusMessage) => void | Promise<void>;

export type BusDropReason = 'oversize' | 'depth' | 'invalid' | 'queue_full';

export interface BusStats {
  /** Messages accepted by `publish()` (valid topic, depth ≤ max, queue not full). */
  published: number;
  /** Handler invocations. */
  delivered: number;
  /** Matched messages whose UTF-8 JSON exceeded `maxPayloadBytes`. */
  droppedOversize: number;
  /** Publishes above `maxDepth`. */
  droppedDepth: number;
  /** Matched messages whose payload could not be serialized to JSON (cycle, BigInt, …). */
  droppedInvalid: number;
  /** Publishes refused because `maxPending` messages were already waiting. */
  droppedQueueFull: number;
  /** Handlers that threw or rejected. */
  handlerErrors: number;
}

export interface BusOptions {
  /** Largest payload delivered, in bytes of UTF-8 JSON. Default 65 536. */
  maxPayloadBytes?: number;
  /** Highest depth published. Default {@link MAX_DEPTH} (8). */
  maxDepth?: number;
  /** Most messages waiting for delivery; more are dropped. Default 10 000. */
  maxPending?: number;
  onDrop?: (reason: BusDropReason, topic: string) => void;
  onHandlerError?: (err: unknown, topic: string) => void;
}

export interface PublishOptions {
  /** Depth of this message; default `currentDepth() + 1`. */
  depth?: number;
  /** The payload's JSON if the caller already has it (used for the size check and `msg.json`). */
  json?: string;
  /**
   * Produces the payload's JSON on demand; called at most once, in the drain, and only if some
   * subscription matches. Ignored when `json` is given. Throwing or not returning a string makes
   * the message invalid (dropped, counted).
   */
  lazyJson?: () => string;
}

/**
 * A payload built on demand: read at most once each, in the drain, and only when some
 * subscription matches. `value` is what handlers get as `msg.payload`, `json` its JSON (used for
 * the size check and `msg.json`). Throwing, or a `json` that is not a string, makes the message
 * invalid (dropped, counted).
 */
export interface LazyPayload {
  readonly value: unknown;
  readonly json: string;
}

const DEFAULT_MAX_PAYLOAD_BYTES = 65_536;
const DEFAULT_MAX_PENDING = 10_000;
/** Topics whose matching subscriptions are remembered. */
const MATCH_CACHE_LIMIT = 1024;

interface Subscription {
  readonly handler: BusHandler;
  /** Messages with a sequence number below this were published before the subscription. */
  readonly fromSeq: number;
  active: boolean;
}

interface Pending {
  readonly topic: string;
  readonly tokens: readonly string[];
  readonly payload: unknown;
  readonly depth: number;
  readonly json: string | undefined;
  readonly lazyJson: (() => string) | undefined;
  readonly lazy: LazyPayload | undefined;
  readonly seq: number;
}

/** The JSON of an eager payload: the publisher's `lazyJson`, else its serialization. */
function jsonOf(p: Pending): unknown {
  if (p.lazyJson !== undefined) return p.lazyJson();
  const json = JSON.stringify(p.payload);
  return json === undefined && p.payload === undefined ? 'null' : json;
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new InvalidOptionError(`invalid bus option ${name}: ${String(value)}`);
  }
  return value;
}

export class MemoryBus {
  private readonly trie = new TopicTrie<Subscription>();
  private readonly maxPayloadBytes: number;
  private readonly maxDepth: number;
  private readonly maxPending: number;
  private readonly onDrop: BusOptions['onDrop'];
  private readonly onHandlerError: BusOptions['onHandlerError'];

  private readonly counters: BusStats = {
    published: 0,
    delivered: 0,
    droppedOversize: 0,
    droppedDepth: 0,
    droppedInvalid: 0,
    droppedQueueFull: 0,
    handlerErrors: 0,
  };

  /** Sequence number of the next accepted message. */
  private seq = 0;
  /** Swap buffers: publishers push to `queue`; the drain takes it and hands over `spare`. */
  private queue: Pending[] = [];
  private spare: Pending[] = [];
  /** Messages queued and not yet dispatched. */
  private pending = 0;
  /** A drain is scheduled or running. */
  private draining = false;
  /** Async handler results not settled yet. */
  private inflight = 0;
  private waiters: Array<() => void> = [];
  /**
   * Subscriptions matching each recently published topic, in trie order. Emptied by every
   * subscribe and unsubscribe, so an entry is never stale; its arrays are replaced, never
   * mutated, so a fan-out in progress keeps its own. It spares each message the trie walk and
   * copying the matched subscriptions one by one: with 1 000 subscribers that copy cost as much as
   * the calls themselves.
   */
  private readonly matches = new Map<string, readonly Subscription[]>();

  private readonly drainBound = (): void => this.drain();
  private readonly dispatchRunBound = (batch: readonly Pending[], start: number, end: number): void =>
    this.dispatchRun(batch, start, end);
  private readonly settleBound = (): void => this.settle();

  constructor(opts: BusOptions = {}) {
    this.maxPayloadBytes = limit(opts.maxPayloadBytes, DEFAULT_MAX_PAYLOAD_BYTES, 'maxPayloadBytes');
    this.maxDepth = limit(opts.maxDepth, MAX_DEPTH, 'maxDepth');
    this.maxPending = limit(opts.maxPending, DEFAULT_MAX_PENDING, 'maxPending');
    this.onDrop = opts.onDrop;
    this.onHandlerError = opts.onHandlerError;
  }

  /**
   * Subscribes `handler` to `pattern` (exact, `a.b.*`, or `*`; TypeError on a bad pattern).
   * Returns its own idempotent unsubscribe.
   */
  subscribe(pattern: string, handler: BusHandler): () => void {
    if (typeof handler !== 'function')
      throw new HookInputError('handler', 'subscribe: handler must be a function');
    const sub: Subscription = { handler, fromSeq: this.seq, active: true };
    let entry: TrieEntry<Subscription> | undefined = this.trie.add(pattern, sub);
    this.matches.clear();
    return () => {
      if (entry === undefined) return;
      sub.active = false;
      this.trie.remove(entry);
      this.matches.clear();
      entry = undefined;
    };
  }

  /**
   * Queues a message for asynchronous delivery. Throws a TypeError only for an invalid topic;
   * drops (and counts) a message above the depth limit or beyond the queue cap.
   */
  publish(topic: string, payload: unknown, opts?: PublishOptions): void {
    this.enqueue(topic, payload, undefined, opts?.depth, opts?.json, opts?.lazyJson);
  }

  /**
   * Like {@link publish}, with a payload built only if some subscription matches: the publisher
   * allocates nothing for a message nobody receives. `depth` as in {@link PublishOptions}.
   */
  publishLazy(topic: string, payload: LazyPayload, depth?: number): void {
    this.enqueue(topic, undefined, payload, depth, undefined, undefined);
  }

  private enqueue(
    topic: string,
    payload: unknown,
    lazy: LazyPayload | undefined,
    given: number | undefined,
    json: string | undefined,
    lazyJson: (() => string) | undefined,
  ): void {
    const tokens = splitTopic(topic);
    let depth: number;
    if (given === undefined) depth = currentDepth() + 1;
    else depth = given >= 1 ? Math.floor(given) : 1;
    if (!(depth <= this.maxDepth)) {
      this.counters.droppedDepth++;
      this.dropped('depth', topic);
      return;
    }
    if (this.pending >= this.maxPending) {
      this.counters.droppedQueueFull++;
      this.dropped('queue_full', topic);
      return;
    }
    this.counters.published++;
    const seq = this.seq++;
    // Nobody subscribed at all: no one can ever receive it (later subscriptions only get later
    // messages), so skip the queue entirely.
    if (this.trie.size === 0) return;
    this.queue.push({ topic, tokens, payload, depth, json, lazyJson, lazy, seq });
    this.pending++;
    if (!this.draining) {
      this.draining = true;
      queueMicrotask(this.drainBound);
    }
  }

  /** A snapshot of the counters. */
  stats(): BusStats {
    return { ...this.counters };
  }

  /** Number of active subscriptions. */
  subscriptionCount(): number {
    return this.trie.size;
  }

  /**
   * Resolves when the bus is idle: every message published so far (and any published by
   * handlers meanwhile) was dispatched, and every async handler has settled.
   */
  flush(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private idle(): boolean {
    return !this.draining && this.pending === 0 && this.inflight === 0;
  }

  private drain(): void {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = this.spare;
        this.dispatchBatch(batch);
        batch.length = 0;
        this.spare = batch;
      }
    } finally {
      this.draining = false;
      if (this.queue.length > 0) {
        // Only reached if something unexpected escaped dispatch: keep the bus alive.
        this.draining = true;
        queueMicrotask(this.drainBound);
      }
    }
    this.wake();
  }

  /**
   * [P-BUS-3] Enters the depth context once per run of consecutive messages of the same depth
   * (usually the whole batch). Messages published meanwhile go to the other buffer.
   */
  private dispatchBatch(batch: readonly Pending[]): void {
    let start = 0;
    while (start < batch.length) {
      const depth = batch[start]!.depth;
      let end = start + 1;
      while (end < batch.length && batch[end]!.depth === depth) end++;
      runAtDepth(depth, this.dispatchRunBound, batch, start, end);
      start = end;
    }
  }

  private dispatchRun(batch: readonly Pending[], start: number, end: number): void {
    for (let i = start; i < end; i++) {
      this.pending--;
      this.dispatch(batch[i]!);
    }
  }

  private dispatch(p: Pending): void {
    const matched = this.matchesOf(p);
    if (matched.length === 0) return;

    let payload = p.payload;
    let json: unknown = p.json;
    try {
      if (p.lazy !== undefined) {
        json = p.lazy.json;
        payload = p.lazy.value;
      } else if (json === undefined) json = jsonOf(p);
    } catch {
      json = undefined;
    }
    if (typeof json !== 'string') {
      this.counters.droppedInvalid++;
      this.dropped('invalid', p.topic);
      return;
    }
    // UTF-8 needs ≥ 1 byte per UTF-16 unit and ≤ 3: skip the exact count when the answer is sure.
    const max = this.maxPayloadBytes;
    if (json.length > max || (json.length * 3 > max && Buffer.byteLength(json, 'utf8') > max)) {
      this.counters.droppedOversize++;
      this.dropped('oversize', p.topic);
      return;
    }

    const message: BusMessage = Object.freeze({ topic: p.topic, payload, depth: p.depth, json });
    // Counted once per message, not per handler: the loop stays as lean as EventEmitter's.
    let delivered = 0;
    for (let i = 0; i < matched.length; i++) {
      const sub = matched[i]!;
      if (!sub.active || p.seq < sub.fromSeq) continue;
      delivered++;
      this.invoke(sub.handler, message);
    }
    this.counters.delivered += delivered;
  }

  /** The subscriptions matching a message's topic, from the cache or a trie walk. */
  private matchesOf(p: Pending): readonly Subscription[] {
    const cached = this.matches.get(p.topic);
    if (cached !== undefined) return cached;
    const found: Subscription[] = [];
    this.trie.match(p.tokens, found);
    // Bounded like splitTopic's cache: a stream of distinct topics starts it over.
    if (this.matches.size >= MATCH_CACHE_LIMIT) this.matches.clear();
    this.matches.set(p.topic, found);
    return found;
  }

  /** Calls one handler; the drain has already entered the message's depth context. */
  private invoke(handler: BusHandler, message: BusMessage): void {
    let result: unknown;
    try {
      result = handler(message);
    } catch (err) {
      this.handlerFailed(err, message.topic);
      return;
    }
    if (
      result !== null &&
      typeof result === 'object' &&
      typeof (result as PromiseLike<void>).then === 'function'
    ) {
      // Promise.resolve settles an odd thenable exactly once (and turns a throwing `then` into a rejection).
      this.inflight++;
      const topic = message.topic;
      Promise.resolve(result).then(this.settleBound, (err: unknown) => {
        this.handlerFailed(err, topic);
        this.settle();
      });
    }
  }

  private settle(): void {
    this.inflight--;
    this.wake();
  }

  private handlerFailed(err: unknown, topic: string): void {
    this.counters.handlerErrors++;
    if (this.onHandlerError === undefined) return;
    try {
      this.onHandlerError(err, topic);
    } catch {
      // A failing error reporter must not break delivery.
    }
  }

  private dropped(reason: BusDropReason, topic: string): void {
    if (this.onDrop === undefined) return;
    try {
      this.onDrop(reason, topic);
    } catch {
      // A failing drop reporter must not reach the publisher.
    }
  }

  private wake(): void {
    if (this.waiters.length === 0 || !this.idle()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
