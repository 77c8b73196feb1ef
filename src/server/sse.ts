import type { BusMessage, MemoryBus } from '../bus/memory-bus.ts';
import { InvalidOptionError } from '../core/errors.ts';

export interface SseOptions {
  /**
   * Bytes one client may fall behind: frames queued for it plus the chunk its socket has not
   * taken yet. A client further behind is disconnected and counted. Default 1 MiB.
   */
  maxBufferedBytes?: number;
  /** Open streams at most; a request for one more is refused (503) and counted. Default 64. */
  maxClients?: number;
  /** Interval of `: keep-alive` comments, ms. Default 15 000. */
  heartbeatMs?: number;
}

/** How a stream is tied to its connection. */
interface SseOpenOptions {
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  /**
   * Cuts the connection now (the node:http response's `destroy`): a client that does not read
   * cannot be told anything, and its socket holds what was already written. Without it the
   * stream just ends at the client's next read.
   */
  disconnect?: () => void;
}

const DEFAULT_SSE_MAX_BUFFERED_BYTES = 1024 * 1024;
const DEFAULT_SSE_MAX_CLIENTS = 64;

const encoder = new TextEncoder();

/**
 * [P-API-4] Bus messages as Server-Sent Events. Each client has its own subscription and a queue
 * bounded in bytes (issue 11): the HTTP layer pulls from it as fast as the socket takes data, and
 * a client that falls more than `maxBufferedBytes` behind is disconnected (it can reconnect), so
 * clients that never read cost at most that much each. At most `maxClients` streams are open.
 * The subscription ends when the client disconnects or the hub closes.
 */
export class SseHub {
  readonly maxClients: number;
  readonly maxBufferedBytes: number;
  readonly #clients = new Set<SseClient>();
  readonly #heartbeatMs: number;
  #droppedSlow = 0;
  #droppedLimit = 0;
  // The bus hands one message to every subscriber in a row: its frame is built once and shared.
  #lastMessage: BusMessage | undefined;
  #lastFrame: Frame | undefined;

  constructor(opts: SseOptions = {}) {
    this.maxBufferedBytes = opts.maxBufferedBytes ?? DEFAULT_SSE_MAX_BUFFERED_BYTES;
    this.maxClients = opts.maxClients ?? DEFAULT_SSE_MAX_CLIENTS;
    this.#heartbeatMs = opts.heartbeatMs ?? 15_000;
    if (!Number.isInteger(this.maxBufferedBytes) || this.maxBufferedBytes < 1)
      throw new InvalidOptionError('sse.maxBufferedBytes must be an integer ≥ 1');
    if (!Number.isInteger(this.maxClients) || this.maxClients < 0)
      throw new InvalidOptionError('sse.maxClients must be an integer ≥ 0');
  }

  /** Open streams. */
  get clients(): number {
    return this.#clients.size;
  }

  /** Clients disconnected for falling more than `maxBufferedBytes` behind. */
  get droppedSlow(): number {
    return this.#droppedSlow;
  }

  /** Stream requests refused because `maxClients` streams were open. */
  get droppedLimit(): number {
    return this.#droppedLimit;
  }

  /** Bytes held for all clients now (queued, or handed to a socket that has not taken them). */
  get bufferedBytes(): number {
    let n = 0;
    for (const client of this.#clients) n += client.behind;
    return n;
  }

  /**
   * Subscribes to `pattern` and returns the streaming response, or `undefined` (counted) when
   * `maxClients` streams are open. Throws the bus's TypeError for an invalid pattern (before
   * anything is subscribed).
   */
  open(bus: MemoryBus, pattern: string, opts: SseOpenOptions = {}): Response | undefined {
    if (this.#clients.size >= this.maxClients) {
      this.#droppedLimit++;
      return undefined;
    }
    const client = new SseClient(this.maxBufferedBytes, () => {
      this.#droppedSlow++;
      opts.disconnect?.();
    });
    client.unsubscribe = bus.subscribe(pattern, (msg) => client.push(this.#frameOf(msg)));
    this.#clients.add(client);
    client.onClose = () => this.#clients.delete(client);
    client.heartbeat = setInterval(() => client.ping(), this.#heartbeatMs);
    client.heartbeat.unref();
    opts.signal?.addEventListener('abort', () => client.close(), { once: true });
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

  #frameOf(msg: BusMessage): Frame {
    if (msg !== this.#lastMessage || this.#lastFrame === undefined) {
      const text = frame(msg);
      this.#lastMessage = msg;
      this.#lastFrame = { text, bytes: Buffer.byteLength(text, 'utf8') };
    }
    return this.#lastFrame;
  }
}

interface Frame {
  readonly text: string;
  /** Its size in bytes of UTF-8. */
  readonly bytes: number;
}

class SseClient {
  unsubscribe: (() => void) | undefined;
  heartbeat: NodeJS.Timeout | undefined;
  onClose: (() => void) | undefined;
  #queue: string[] = [];
  #queuedBytes = 0;
  /** Bytes of the last chunk handed to the HTTP layer: held until it asks for the next one. */
  #inFlight = 0;
  #closed = false;
  #wake: (() => void) | undefined;
  readonly #max: number;
  readonly #onSlow: () => void;

  constructor(max: number, onSlow: () => void) {
    this.#max = max;
    this.#onSlow = onSlow;
  }

  /** How far behind this client is, in bytes. */
  get behind(): number {
    return this.#queuedBytes + this.#inFlight;
  }

  push(f: Frame): void {
    if (this.#closed) return;
    if (this.behind + f.bytes > this.#max) {
      // Too slow: what it missed can't be sent without holding it, so it goes; it may reconnect.
      this.#queue = [];
      this.#queuedBytes = 0;
      this.#inFlight = 0;
      this.close();
      this.#onSlow();
      return;
    }
    this.#queue.push(f.text);
    this.#queuedBytes += f.bytes;
    this.#signal();
  }

  /** Frames that are not bus messages (comments): counted, but never a reason to disconnect. */
  pushControl(text: string): void {
    if (this.#closed) return;
    this.#queue.push(text);
    this.#queuedBytes += Buffer.byteLength(text, 'utf8');
    this.#signal();
  }

  ping(): void {
    if (this.#queue.length === 0) this.pushControl(': keep-alive\n\n');
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    // A pull means the HTTP layer took the previous chunk (the socket drained).
    this.#inFlight = 0;
    while (this.#queue.length === 0 && !this.#closed) {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    if (this.#queue.length > 0) {
      // The whole backlog in one chunk: one socket write however many messages piled up.
      const text = this.#queue.join('');
      this.#queue = [];
      this.#inFlight = this.#queuedBytes;
      this.#queuedBytes = 0;
      controller.enqueue(encoder.encode(text));
      return;
    }
    try {
      controller.close();
    } catch {
      // Already cancelled by the HTTP layer (the connection went away meanwhile).
    }
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
