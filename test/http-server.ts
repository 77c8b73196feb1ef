import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 on a free port; returns the port. */
export async function listenLocal(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Drops every open connection, then closes the server. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** One request a test server received, body complete. */
export interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  port: number;
  hits: Hit[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Closes the server (and its connections); a second call does nothing. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** `server.keepAliveTimeout` in ms (node's default when absent). */
  keepAliveTimeout?: number;
  /** Ignore errors on responses and from clients (hooks that hang up mid-request). */
  ignoreSocketErrors?: boolean;
}

const servers: TestServer[] = [];

/**
 * A real node:http server on 127.0.0.1; `respond` runs once the request body has arrived.
 * Close it yourself or with `closeHttpServers`.
 */
export async function startHttpServer(
  respond: (req: http.IncomingMessage, res: http.ServerResponse, hit: Hit) => void,
  opts: TestServerOptions = {},
): Promise<TestServer> {
  const hits: Hit[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    if (opts.ignoreSocketErrors) res.on('error', () => {});
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit: Hit = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      hits.push(hit);
      respond(req, res, hit);
    });
  });
  server.on('connection', () => {
    connections++;
  });
  if (opts.ignoreSocketErrors) server.on('clientError', () => {});
  if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
  const port = await listenLocal(server);
  let closed: Promise<void> | undefined;
  const handle: TestServer = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    hits,
    connections: () => connections,
    close: () => {
      closed ??= closeServer(server);
      return closed;
    },
  };
  servers.push(handle);
  return handle;
}

/** Closes every server `startHttpServer` started and not yet closed here, one after the other. */
export async function closeHttpServers(): Promise<void> {
  for (const s of servers.splice(0)) await s.close();
}

/** Answers with `body` (JSON-encoded unless a string) as application/json, with a content-length. */
export function replyJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A port nothing listens on: bind one, then close it. */
export async function deadPort(): Promise<number> {
  const server = http.createServer();
  const port = await listenLocal(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
