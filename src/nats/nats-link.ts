import { type JetStreamClient, jetstream } from '@nats-io/jetstream';
import { connect, headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { errorMessage } from '../files/errno.ts';
import type { Logger } from '../records/logger.ts';

/** [N-BUS-1] The depth of a message travels in this header. */
export const DEPTH_HEADER = 'Hookwerk-Depth';
/** How long a reconnect attempt waits before the next (the client then retries forever). */
const RECONNECT_WAIT_MS = 250;

export interface LinkOptions {
  servers: string[];
  connectTimeoutMs: number;
  /** Client name the server shows (`hookwerk:<name>`). */
  name: string;
  logger: Logger;
}

/**
 * One NATS connection and its state [N-CONN-1]: opened within `connectTimeoutMs` (else a
 * rejection naming the URLs), then reconnecting forever. `noEcho`: this connection never
 * receives what it published itself, so a bridged message cannot come back to its sender.
 */
export class NatsLink {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly #logger: Logger;
  readonly #servers: string;
  #connected = true;
  #closing = false;
  readonly #onReconnect: Array<() => void> = [];

  private constructor(nc: NatsConnection, opts: LinkOptions) {
    this.nc = nc;
    this.js = jetstream(nc);
    this.#logger = opts.logger;
    this.#servers = opts.servers.join(', ');
    void this.#watchStatus();
  }

  static async open(opts: LinkOptions): Promise<NatsLink> {
    const deadline = Date.now() + opts.connectTimeoutMs;
    let last: unknown;
    // A refused connection fails at once; a server that is starting answers a moment later.
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      try {
        const nc = await connect({
          servers: opts.servers,
          timeout: left,
          name: `hookwerk:${opts.name}`,
          noEcho: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: RECONNECT_WAIT_MS,
        });
        return new NatsLink(nc, opts);
      } catch (err) {
        last = err;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))),
        );
      }
    }
    throw new NatsUnreachableError(opts.servers, opts.connectTimeoutMs, last);
  }

  /** False between a disconnect and the next reconnect. */
  get connected(): boolean {
    return this.#connected && !this.#closing;
  }

  get servers(): string {
    return this.#servers;
  }

  /** Called after each reconnect (durable publishes waiting for the server go out then). */
  onReconnect(fn: () => void): void {
    this.#onReconnect.push(fn);
  }

  /** Core publish with the depth header; false (nothing sent) while disconnected or on error. */
  publish(subject: string, data: string, depth: number): boolean {
    if (!this.connected) return false;
    try {
      this.nc.publish(subject, data, { headers: depthHeaders(depth) });
      return true;
    } catch (err) {
      this.#logger.warn(`nats: publish to ${subject} failed: ${errorMessage(err)}`);
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    try {
      await this.nc.drain();
    } catch {
      // Already closed, or the server is gone: nothing left to flush.
      await this.nc.close().catch(() => {});
    }
  }

  async #watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect') {
        this.#connected = false;
        if (!this.#closing) this.#logger.warn(`nats: disconnected from ${this.#servers}; reconnecting`);
      } else if (s.type === 'reconnect') {
        this.#connected = true;
        this.#logger.info(`nats: reconnected to ${this.#servers}`);
        for (const fn of this.#onReconnect) fn();
      }
    }
  }
}

export function depthHeaders(depth: number): MsgHdrs {
  const h = headers();
  h.set(DEPTH_HEADER, String(depth));
  return h;
}

/** The depth a message carries; 1 when the header is missing or not a depth. */
export function depthOf(h: MsgHdrs | undefined, max: number): number {
  const text = h?.get(DEPTH_HEADER);
  const n = text === undefined || text === '' ? 1 : Number(text);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : 1;
}

/** [N-CONN-1] No server answered within the connect timeout. */
export class NatsUnreachableError extends Error {
  constructor(servers: readonly string[], timeoutMs: number, cause: unknown) {
    super(
      `cannot reach NATS at ${servers.join(', ')} within ${timeoutMs} ms${cause === undefined ? '' : `: ${errorMessage(cause)}`}`,
    );
    this.name = 'NatsUnreachableError';
  }
}
