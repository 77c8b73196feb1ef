/**
 * [R-HOOK-4] The warm path's server: a Unix socket (mode 0600, in a 0700 folder) that answers one
 * `hookwerk hook` call per connection (`daemon-wire.ts`), each through `handle`.
 *
 * Bounded: `maxConnections` at once — one more is accepted and closed at once with no reply, so
 * its client decides in its own process (never waits behind a busy daemon); a request over its
 * field limits, malformed, or not complete within `requestTimeoutMs` is closed without a reply.
 * A reply is sent only for a call that ran to its end: stopping drops the rest unanswered, and
 * their clients fall back — a lost daemon costs a cold call, never a cut-short answer.
 *
 * The same socket takes the control messages of `hookwerk daemon status|stop` [G-WARM-1]: only the
 * socket's owner can connect (0600 in a 0700 folder), and hook calls already run the policy.
 */
import { chmodSync, lstatSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { errorCode, errorMessage } from '../core/errno.ts';
import { HookwerkError } from '../core/errors.ts';
import type { HookReply } from '../dialects/agent/hook-agent.ts';
import { MAX_SOCKET_PATH } from './daemon-socket.ts';
import {
  type ControlCommand,
  encodeReply,
  incomingReader,
  type WireReply,
  type WireRequest,
} from './daemon-wire.ts';

export const DEFAULT_MAX_CONNECTIONS = 64;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** The socket cannot be served (one line, for the CLI to print). */
export class DaemonSocketError extends HookwerkError {
  constructor(message: string) {
    super('CLI', message);
  }
}

export interface DaemonServerOptions {
  socket: string;
  handle(request: WireRequest): Promise<HookReply>;
  /** Answers a control message [G-WARM-1]; without it, one is closed unanswered. */
  control?(command: ControlCommand): WireReply;
  maxConnections?: number;
  requestTimeoutMs?: number;
  /** The socket's folder is hookwerk's own (`<home>/.hookwerk`): kept at 0700. */
  ownFolder?: boolean;
  /** Told of each request closed unanswered as malformed (for the daemon's stderr). */
  onMalformed?(why: string): void;
}

export interface DaemonServer {
  readonly socket: string;
  /** Calls being answered now. */
  readonly running: number;
  /**
   * Stops accepting and removes the socket, closes connections still sending, gives running
   * calls `graceMs` to finish (their replies are sent), then closes what is left unanswered.
   */
  stop(graceMs: number): Promise<void>;
}

/** Creates the socket's folder (0700) when missing; refuses one that others could write to. */
function prepareFolder(dir: string, own: boolean): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new DaemonSocketError(`cannot create ${dir}: ${errorMessage(e)}`);
  }
  const s = statSync(dir);
  if (!s.isDirectory()) throw new DaemonSocketError(`${dir} is not a folder`);
  const uid = process.geteuid?.();
  if (own) {
    // hookwerk's own folder: only its account may reach the socket in it.
    if (uid !== undefined && s.uid !== uid) throw new DaemonSocketError(`${dir} belongs to another account`);
    if ((s.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return;
  }
  // A folder others may write to (without the sticky bit) lets them swap the socket for theirs.
  if ((s.mode & 0o022) !== 0 && (s.mode & 0o1000) === 0)
    throw new DaemonSocketError(`${dir} is writable by other accounts; put the socket in a private folder`);
}

/** Something answers on `socket`. */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function listenOn(server: Server, socket: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    // The socket is made 0600 from the start (umask), not chmod-ed after a window.
    const umask = process.umask(0o177);
    try {
      server.listen(socket);
    } finally {
      process.umask(umask);
    }
  });
}

/**
 * Listens on `socket`: a live daemon there is refused, a stale socket file (nothing listening)
 * replaced, anything that is not a socket left alone and refused.
 */
async function bind(server: Server, socket: string): Promise<void> {
  try {
    await listenOn(server, socket);
    return;
  } catch (e) {
    if (errorCode(e) !== 'EADDRINUSE')
      throw new DaemonSocketError(`cannot listen on ${socket}: ${errorMessage(e)}`);
  }
  if (!lstatSync(socket).isSocket()) throw new DaemonSocketError(`${socket} exists and is not a socket`);
  if (await answers(socket)) throw new DaemonSocketError(`a daemon is already running on ${socket}`);
  unlinkSync(socket);
  try {
    await listenOn(server, socket);
  } catch (e) {
    throw new DaemonSocketError(`cannot listen on ${socket}: ${errorMessage(e)}`);
  }
}

/** [T-MGD-3] A caller as the kernel names it (SO_PEERCRED), for connections handed over by the system daemon's door. */
export interface Peer {
  uid: number;
  gid: number;
  pid: number;
}

/** How each connection is answered, whoever accepted it. */
export interface ConnectionOptions {
  handle(request: WireRequest, peer: Peer | undefined): Promise<HookReply & { final?: boolean }>;
  control?(command: ControlCommand, peer: Peer | undefined): WireReply;
  maxConnections?: number;
  requestTimeoutMs?: number;
  onMalformed?(why: string): void;
}

export interface Connections {
  /** Serves one connected socket (`peer`: the caller as the kernel named it, when known). */
  accept(conn: Socket, peer?: Peer): void;
  readonly running: number;
  /** Closes connections still sending, gives running calls `graceMs`, then closes what is left. */
  drain(graceMs: number): Promise<void>;
}

/**
 * The per-connection part of the daemon: one request (or control message) read within its bounds,
 * answered once. Shared by the user daemon's server and the system daemon, whose connections come
 * from its door (native/hookwerk-accept.c) with the caller's credentials [T-MGD-3].
 */
export function connectionHandler(opts: ConnectionOptions): Connections {
  const maxConnections = opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const sending = new Set<Socket>();
  const calls = new Set<{ conn: Socket; done: Promise<void> }>();
  let open = 0;
  let draining = false;

  /** A control message is answered at once; it is no call (stopping does not wait for it). */
  const answerControl = (conn: Socket, command: ControlCommand, peer: Peer | undefined): void => {
    if (opts.control === undefined) {
      conn.destroy();
      opts.onMalformed?.('a control message, and this daemon takes none');
      return;
    }
    const reply = opts.control(command, peer);
    conn.end(encodeReply(reply), () => conn.destroy());
  };

  const run = async (conn: Socket, request: WireRequest, peer: Peer | undefined): Promise<void> => {
    let reply: HookReply & { final?: boolean };
    try {
      reply = await opts.handle(request, peer);
    } catch {
      // `handle` never rejects (answerHookCall catches); if it did, the client decides itself.
      conn.destroy();
      return;
    }
    if (conn.destroyed) return;
    const bytes = encodeReply({
      exitCode: reply.exitCode,
      stdout: Buffer.from(reply.stdout, 'utf8'),
      stderr: Buffer.from(reply.stderr, 'utf8'),
      ...(reply.final !== undefined ? { final: reply.final } : {}),
    });
    // Closed once the reply is with the kernel (the client still reads it): a client that never
    // closes its side holds no place among the connections.
    conn.end(bytes, () => conn.destroy());
  };

  const accept = (conn: Socket, peer?: Peer): void => {
    // Over the bound (or stopping): closed at once, unanswered; its client decides itself.
    if (draining || open >= maxConnections) {
      conn.destroy();
      return;
    }
    open++;
    sending.add(conn);
    const reader = incomingReader();
    let received = 0;
    const timer = setTimeout(() => drop('the request did not arrive in time'), timeoutMs);
    const drop = (why: string) => {
      clearTimeout(timer);
      sending.delete(conn);
      conn.destroy();
      // A connection that sent nothing is a probe (another daemon looking for a live one).
      if (received > 0) opts.onMalformed?.(why);
    };
    conn.on('error', () => conn.destroy());
    conn.on('close', () => {
      open--;
      clearTimeout(timer);
      sending.delete(conn);
    });
    conn.on('end', () => {
      if (sending.has(conn)) drop('the client closed before its request was complete');
    });
    let started = false;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      const state = reader.push(chunk);
      // Bytes after a whole request, even once its call runs: a confused client gets no reply.
      if (state.kind === 'error') return drop(state.why);
      if (state.kind === 'more' || started) return;
      started = true;
      clearTimeout(timer);
      sending.delete(conn);
      if (state.value.kind === 'control') return answerControl(conn, state.value.command, peer);
      const done = run(conn, state.value.request, peer);
      const call = { conn, done };
      calls.add(call);
      void done.finally(() => calls.delete(call));
    };
    conn.on('data', onData);
  };

  return {
    accept,
    get running() {
      return calls.size;
    },
    async drain(graceMs) {
      draining = true;
      for (const conn of sending) conn.destroy();
      sending.clear();
      const pending = [...calls].map((c) => c.done);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all(pending), late]);
      clearTimeout(timer);
      // Calls still running get no reply: their clients decide themselves.
      for (const call of calls) call.conn.destroy();
    },
  };
}

export async function startDaemonServer(opts: DaemonServerOptions): Promise<DaemonServer> {
  const socket = path.resolve(opts.socket);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH)
    throw new DaemonSocketError(`the socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes`);
  prepareFolder(path.dirname(socket), opts.ownFolder === true);
  const maxConnections = opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const control = opts.control;
  const connections = connectionHandler({
    handle: (request) => opts.handle(request),
    ...(control !== undefined ? { control: (command: ControlCommand) => control(command) } : {}),
    maxConnections,
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.onMalformed !== undefined ? { onMalformed: opts.onMalformed } : {}),
  });
  const server = createServer({ allowHalfOpen: true }, (conn) => connections.accept(conn));
  server.maxConnections = maxConnections;

  await bind(server, socket);
  try {
    chmodSync(socket, 0o600);
  } catch {
    // Made 0600 by the umask already; the chmod only makes sure.
  }
  const ino = lstatSync(socket).ino;

  return {
    socket,
    get running() {
      return connections.running;
    },
    async stop(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      removeIfOurs(socket, ino);
      await connections.drain(graceMs);
      await closed;
    },
  };
}

/** Removes the socket file unless another daemon's has replaced it since. */
function removeIfOurs(socket: string, ino: number): void {
  try {
    if (lstatSync(socket).ino === ino) unlinkSync(socket);
  } catch {
    // Already gone.
  }
}
