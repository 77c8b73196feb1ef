import { errorMessage } from '../core/errno.ts';
import type { Logger } from '../records/logger.ts';
import { depthHeaders } from './depth-header.ts';
import type { NatsLink } from './nats-link.ts';
import { redactUrls } from './redact-url.ts';

interface Outgoing {
  readonly subject: string;
  readonly data: string;
  readonly depth: number;
  readonly msgId: string;
}

/** Publishes awaiting their stream acknowledgement at once (more wait in the queue). */
const MAX_IN_FLIGHT = 64;
/** Pause before retrying a publish that failed while the connection looked up. */
const RETRY_MS = 200;

/**
 * [N-CONN-1, N-DUR-1] Durable emits: queued (at most `maxQueue`), published to the JetStream
 * stream with `Nats-Msg-Id`, retried until the stream acknowledged them. While disconnected they
 * wait and go out on reconnect; a full queue drops the new one (counted by the caller).
 */
export class DurablePublisher {
  readonly #link: NatsLink;
  readonly #maxQueue: number;
  readonly #logger: Logger;
  #queue: Outgoing[] = [];
  #inFlight = 0;
  #retry: NodeJS.Timeout | undefined;
  #idle: Array<() => void> = [];
  /** The failure last logged: a retry that fails the same way says nothing (one line, not five a second). */
  #lastFailure: string | undefined;

  constructor(link: NatsLink, maxQueue: number, logger: Logger) {
    this.#link = link;
    this.#maxQueue = maxQueue;
    this.#logger = logger;
    link.onReconnect(() => this.#pump());
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Queues one event; false when `maxQueue` are already waiting. */
  publish(subject: string, data: string, depth: number, msgId: string): boolean {
    if (this.#queue.length >= this.#maxQueue) return false;
    this.#queue.push({ subject, data, depth, msgId });
    this.#pump();
    return true;
  }

  /** Resolves once every queued event was acknowledged by the stream. */
  flushed(): Promise<void> {
    if (this.#queue.length === 0 && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops retrying; what is still queued stays unsent (the caller reports it). */
  stop(): number {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    const left = this.#queue.length + this.#inFlight;
    this.#queue = [];
    for (const wake of this.#idle.splice(0)) wake();
    return left;
  }

  #pump(): void {
    while (this.#link.connected && this.#inFlight < MAX_IN_FLIGHT && this.#queue.length > 0) {
      const item = this.#queue.shift();
      if (item === undefined) break;
      this.#inFlight++;
      this.#link.js
        .publish(item.subject, item.data, { msgID: item.msgId, headers: depthHeaders(item.depth) })
        .then(
          () => {
            this.#lastFailure = undefined;
            this.#settled(true);
          },
          (err: unknown) => {
            // Not acknowledged: back to the front, sent again shortly or once the connection is back.
            this.#queue.unshift(item);
            if (this.#link.connected && this.#retry === undefined) {
              const failure = `nats: durable publish to ${item.subject} failed: ${redactUrls(errorMessage(err))}; retrying`;
              if (failure !== this.#lastFailure) this.#logger.warn(failure);
              this.#lastFailure = failure;
              this.#retry = setTimeout(() => {
                this.#retry = undefined;
                this.#pump();
              }, RETRY_MS);
            }
            this.#settled(false);
          },
        );
    }
  }

  #settled(ok: boolean): void {
    this.#inFlight--;
    if (ok && this.#retry === undefined) this.#pump();
    if (this.#queue.length === 0 && this.#inFlight === 0) for (const wake of this.#idle.splice(0)) wake();
  }
}
