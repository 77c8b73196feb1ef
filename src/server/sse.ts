import type { BusMessage, MemoryBus } from '../bus/memory-bus.ts';

export interface SseOptions {
  /** Frames waiting for a slow client; beyond this new messages are dropped and counted. Default 1000. */
  maxBuffered?: number;
  /** Interval of `: keep-alive` comments, ms. Default 15 000. */
  heartbeatMs?: number;
}

const encoder = new TextEncoder();

/**
 * [P-API-4] Bus messages as Server-Sent Events. Each client has its own subscription and a
 * bounded queue: the HTTP layer pulls from it as fast as the socket takes data, and when a
 * client falls `maxBuffered` messages behind, newer messages are dropped for that client only
 * (counted, and announced to it with a `hookwerk.sse.dropped` event once it catches up).
 * The subscription ends when the client disconnects or the hub closes.
 */
export class SseHub {
  readonly #clients = new Set<SseClient>();
  readonly #maxBuffered: number;
  readonly #heartbeatMs: number;
  #dropped = 0;

  constructor(opts: SseOptions = {}) {
    this.#maxBuffered = opts.maxBuffered ?? 1000;
    this.#heartbeatMs = opts.heartbeatMs ?? 15_000;
  }

  /** Open streams. */
  get clients(): number {
    return this.#clients.size;
  }

  /** Messages dropped for slow clients, all clients together. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Subscribes to `pattern` and returns the streaming response. Throws the bus's TypeError for
   * an invalid pattern (before anything is subscribed).
   */
  open(bus: MemoryBus, pattern: string, signal?: AbortSignal): Response {
    const client = new SseClient(this.#maxBuffered, () => this.#dropped++);
    client.unsubscribe = bus.subscribe(pattern, (msg) => client.push(frame(msg)));
    this.#clients.add(client);
    client.onClose = () => this.#clients.delete(client);
    client.heartbeat = setInterval(() => client.ping(), this.#heartbeatMs);
    client.heartbeat.unref();
    signal?.addEventListener('abort', () => client.close(), { once: true });
    client.pushControl(`: subscribed to ${pattern.replace(/[\r\n]/g, ' ')}\n\n`);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => client.pull(controller),
        cancel: () => client.close(),
      },
      { highWaterMark: 0 },
    );
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  }

  /** Ends every stream (queued frames are still sent) and unsubscribes them all. */
  closeAll(): void {
    for (const client of [...this.#clients]) client.close();
  }
}

class SseClient {
  unsubscribe: (() => void) | undefined;
  heartbeat: NodeJS.Timeout | undefined;
  onClose: (() => void) | undefined;
  #queue: string[] = [];
  /** Messages dropped since the last notice to this client. */
  #gap = 0;
  #closed = false;
  #wake: (() => void) | undefined;
  readonly #max: number;
  readonly #countDrop: () => void;

  constructor(max: number, countDrop: () => void) {
    this.#max = max;
    this.#countDrop = countDrop;
  }

  push(text: string): void {
    if (this.#closed) return;
    if (this.#queue.length >= this.#max) {
      this.#gap++;
      this.#countDrop();
      return;
    }
    if (this.#gap > 0) this.#queue.push(this.#takeGapNotice());
    this.#queue.push(text);
    this.#signal();
  }

  /** Frames that are not bus messages (comments): never counted against the bound. */
  pushControl(text: string): void {
    if (this.#closed) return;
    this.#queue.push(text);
    this.#signal();
  }

  ping(): void {
    if (this.#queue.length === 0) this.pushControl(': keep-alive\n\n');
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.#queue.length === 0 && this.#gap === 0 && !this.#closed) {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    if (this.#queue.length > 0 || this.#gap > 0) {
      // The whole backlog in one chunk: one socket write however many messages piled up.
      let text = this.#queue.join('');
      this.#queue = [];
      if (this.#gap > 0) text += this.#takeGapNotice();
      controller.enqueue(encoder.encode(text));
      return;
    }
    controller.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.onClose?.();
    this.#signal();
  }

  #takeGapNotice(): string {
    const n = this.#gap;
    this.#gap = 0;
    return `event: hookwerk.sse.dropped\ndata: {"dropped":${n}}\n\n`;
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** `event: <topic>` + `data: {"topic", "depth", "payload"}`; the payload JSON is the bus's own. */
export function frame(msg: BusMessage): string {
  const json = msg.json ?? JSON.stringify(msg.payload) ?? 'null';
  let data = `{"topic":${JSON.stringify(msg.topic)},"depth":${msg.depth},"payload":${json}}`;
  // Compact JSON has no raw line breaks; a publisher's own `json` might. SSE joins data lines with \n.
  if (/[\r\n]/.test(data)) data = data.replace(/\r\n|\r|\n/g, '\ndata: ');
  return `event: ${msg.topic}\ndata: ${data}\n\n`;
}
