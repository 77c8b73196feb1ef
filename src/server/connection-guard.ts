/**
 * Bounds on the connections `serve` holds (issue 11). Clients that open a connection and never
 * finish a request must not use up the process's file descriptors: hooks need them to run.
 * - node's `headersTimeout` / `requestTimeout` close a request that is not fully received in time,
 *   and a timer per connection closes one that has not begun a request by then (a backstop);
 * - at most `maxConnections` are open; one more closes the oldest connection that has not
 *   completed a request (then the oldest idle one) instead of refusing the newcomer.
 */
import { readFileSync } from 'node:fs';
import type { Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Counter, Gauge, type Registry } from 'prom-client';
import { errorCode } from '../core/errno.ts';

/** Open connections at most, unless the open-file limit asks for fewer. */
export const DEFAULT_MAX_CONNECTIONS = 1024;
/**
 * File descriptors kept for everything but connections: hook processes (3 pipes each, the payload
 * file), HTTP hooks' sockets, file watchers, worker threads and node itself.
 */
export const FD_RESERVE = 512;
/** Below this many connections the server is not usable; a tiny open-file limit still gets them. */
const MIN_CONNECTIONS = 8;
export const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export interface ConnectionLimits {
  maxConnections: number;
  /** A connection's request headers must arrive within this long. */
  headersTimeoutMs: number;
  /** A whole request (headers and body) must arrive within this long; ≥ headersTimeoutMs. */
  requestTimeoutMs: number;
}

/** The soft `Max open files` of this process from /proc/self/limits; undefined when unlimited or unknown. */
export function openFileLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined; // not Linux: only the cap applies
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(text)?.[1];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}

/** The cap, lowered so that `FD_RESERVE` descriptors stay free under the open-file limit. */
export function connectionLimit(cap: number, fileLimit: number | undefined): number {
  if (fileLimit === undefined) return cap;
  return Math.min(cap, Math.max(MIN_CONNECTIONS, fileLimit - FD_RESERVE));
}

/** node http server options enforcing the timeouts; checked often enough to act on time. */
export function serverTimeouts(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // node checks the two timeouts every interval (default 30 s): keep it well below them.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

type CloseReason = 'limit' | 'timeout' | 'bad_request';

interface Connection {
  /** Requests begun (headers received) and not yet answered. */
  inFlight: number;
  /** The response being written, if any (an error answer must not be mixed into it). */
  response: ServerResponse | undefined;
  /** A response to a request on this connection has ended. */
  completed: boolean;
  /** Closes the connection if no request has begun in time. */
  timer: NodeJS.Timeout | undefined;
}

const ERROR_ANSWERS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

export class ConnectionGuard {
  /** Insertion order is age order: the first entry is the oldest connection. */
  readonly #open = new Map<Socket, Connection>();
  readonly #closed = new Map<CloseReason, number>();
  readonly #limits: ConnectionLimits;
  readonly #backstopMs: number;

  constructor(server: Server, limits: ConnectionLimits, registry?: Registry) {
    this.#limits = limits;
    // Past node's own deadline (plus one check): by then node should have closed it already.
    this.#backstopMs = limits.headersTimeoutMs + (serverTimeouts(limits).connectionsCheckingInterval ?? 0);
    server.on('connection', (socket: Socket) => this.#accept(socket));
    server.on('request', (req, res) => this.#begin(req.socket, res));
    server.on('clientError', (err: Error, socket: Socket) => this.#clientError(err, socket));
    if (registry !== undefined) this.#register(registry);
  }

  get open(): number {
    return this.#open.size;
  }

  get maxConnections(): number {
    return this.#limits.maxConnections;
  }

  closedCount(reason: CloseReason): number {
    return this.#closed.get(reason) ?? 0;
  }

  /** Shutdown: connections with no request begun have nothing to finish. */
  closeUnstarted(): void {
    for (const [socket, c] of this.#open) if (c.inFlight === 0 && !c.completed) socket.destroy();
  }

  #accept(socket: Socket): void {
    const c: Connection = { inFlight: 0, response: undefined, completed: false, timer: undefined };
    c.timer = setTimeout(() => {
      if (c.inFlight === 0 && !socket.destroyed) this.#close(socket, 'timeout');
    }, this.#backstopMs);
    c.timer.unref();
    this.#open.set(socket, c);
    socket.once('close', () => {
      clearTimeout(c.timer);
      this.#open.delete(socket);
    });
    if (this.#open.size > this.#limits.maxConnections) this.#close(this.#victim(socket), 'limit');
  }

  /** The oldest connection that never completed a request, else the oldest idle one, else the newcomer. */
  #victim(newcomer: Socket): Socket {
    let idle: Socket | undefined;
    for (const [socket, c] of this.#open) {
      if (socket === newcomer || c.inFlight > 0) continue;
      if (!c.completed) return socket;
      idle ??= socket;
    }
    // Every other connection is busy with a request: clients past the token (others get a 401 at once).
    return idle ?? newcomer;
  }

  #begin(socket: Socket, res: ServerResponse): void {
    const c = this.#open.get(socket);
    if (c === undefined) return;
    clearTimeout(c.timer);
    c.timer = undefined;
    c.inFlight++;
    c.response = res;
    res.once('close', () => {
      c.inFlight--;
      c.completed = true;
      if (c.response === res) c.response = undefined;
    });
  }

  /** node's default answer (408 / 431 / 400, then close), plus a count; we replace it to count. */
  #clientError(err: Error, socket: Socket): void {
    const code = errorCode(err) ?? '';
    // A parse error or a timeout gets an answer; a reset or other socket error just the close.
    const answer = ERROR_ANSWERS[code] ?? (code.startsWith('HPE_') ? BAD_REQUEST : undefined);
    const response = this.#open.get(socket)?.response;
    if (answer !== undefined && socket.writable && (response === undefined || !response.headersSent))
      socket.write(answer);
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT') this.#count('timeout');
    else if (code.startsWith('HPE_')) this.#count('bad_request');
    socket.destroy();
  }

  #close(socket: Socket, reason: CloseReason): void {
    this.#count(reason);
    socket.destroy();
  }

  #count(reason: CloseReason): void {
    this.#closed.set(reason, this.closedCount(reason) + 1);
  }

  /** Same pattern as EngineMetrics: plain counts, copied into prom-client at scrape time. */
  #register(registry: Registry): void {
    const closed = this.#closed;
    const open = this.#open;
    const max = this.#limits.maxConnections;
    new Counter({
      name: 'http_connections_closed_total',
      help: 'Connections serve closed itself, by reason (limit: oldest unfinished at the connection limit; timeout; bad_request).',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [reason, n] of closed) this.inc({ reason }, n);
      },
    });
    new Gauge({
      name: 'http_connections_open',
      help: 'Open HTTP connections (at most http_connections_max).',
      registers: [registry],
      collect() {
        this.set(open.size);
      },
    });
    new Gauge({
      name: 'http_connections_max',
      help: 'The connection limit: --max-connections, lowered to keep file descriptors for hooks.',
      registers: [registry],
      collect() {
        this.set(max);
      },
    });
  }
}
