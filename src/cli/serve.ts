import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { GATE_DIALECTS } from '../dialects/gate-dialects.ts';
import { createHookEngine } from '../engine.ts';
import type { GateDialect, HookEngine, HookEngineOptions } from '../engine-api.ts';
import { createApp, type HookwerkApp } from '../server/app.ts';
import { ConnectionGuard, serverTimeouts } from '../server/connection-guard.ts';
import { CliError, resolveWorkspace } from './cli-error.ts';
import { describeLimits, parseConnectionLimits } from './serve-limits.ts';
import { resolveToken } from './serve-token.ts';
import { graceOption } from './shutdown.ts';

interface ServeCliOptions {
  workspace?: string;
  project?: string;
  /** (issue 23) What `/api/decide` speaks when the body names no dialect (default lurus). */
  dialect?: GateDialect;
  host?: string;
  port?: string;
  /** [X-PROC-3] How long running hooks get on SIGINT/SIGTERM before they are stopped. */
  shutdownGraceMs?: string;
  /** Issue 11: connection bounds (see serve-limits.ts). */
  maxConnections?: string;
  headersTimeoutMs?: string;
  requestTimeoutMs?: string;
}

interface ServeHooks {
  env?: NodeJS.ProcessEnv;
  /** Resolves when the server should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: Promise<string>;
}

/** After this long, connections still open at shutdown are cut. */
const CLOSE_GRACE_MS = 10_000;

/**
 * `hookwerk serve`: the engine (hot reload on) behind the HTTP management API [P-API-1..4].
 * Resolves with the exit code once a SIGINT/SIGTERM has shut everything down in order:
 * stop accepting, end event streams, let open requests finish, drain running hooks, close.
 */
export async function serveCommand(
  opts: ServeCliOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  hooks: ServeHooks = {},
): Promise<number> {
  const workspace = resolveWorkspace(opts.workspace);
  const port = parsePort(opts.port ?? '7070');
  const host = opts.host ?? '127.0.0.1';
  if (host.trim() === '') throw new CliError('--host must not be empty');
  const limits = parseConnectionLimits(opts);
  const token = resolveToken(workspace, hooks.env ?? process.env);

  // Listen for signals from the start: a SIGTERM during start-up still shuts down cleanly.
  const stop = hooks.stopSignal ?? firstSignal(err);

  // The gate engines of the other dialects are made with the same options (without the workspace).
  const engineOptions: HookEngineOptions = {
    ...graceOption(opts.shutdownGraceMs),
    projectDir: path.resolve(opts.project ?? '.'),
    ...(opts.dialect !== undefined ? { gateDialect: opts.dialect } : {}),
    watch: true,
  };
  const engine = await createHookEngine({ ...engineOptions, workspace });
  const app = createApp({ engine, token: token.token, workspace, engineOptions });
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: host,
    serverOptions: serverTimeouts(limits.limits),
  }) as Server;
  const guard = new ConnectionGuard(server, limits.limits, engine.metrics.registry);
  try {
    await listen(server, port, host);
  } catch (e) {
    await engine.close();
    throw e;
  }
  const url = urlOf(server.address() as AddressInfo, host);
  if (token.tightened) err(`hookwerk: warning: ${token.file} was readable by others; it is now 0600`);
  // One write: whoever reads the first line finds the rest with it.
  out(
    [
      `hookwerk serve: listening on ${url}`,
      token.file === undefined
        ? 'token: from HOOKWERK_TOKEN'
        : `token: ${token.file}${token.created ? ' (new)' : ''}`,
      `workspace: ${workspace} (hooks.json reloads on change)`,
      `gate: ${engine.gate.dialect} by default; /api/decide takes "dialect" (${Object.keys(GATE_DIALECTS).join(', ')})`,
      describeLimits(limits),
    ].join('\n'),
  );
  if (!isLoopback(host))
    err(`hookwerk: warning: ${host} is not a loopback address; the API is reachable from the network`);

  const signal = await stop;
  out(`hookwerk serve: ${signal}, shutting down (running hooks finish first)`);
  await shutdown(server, app, engine, guard);
  out('hookwerk serve: stopped');
  return 0;
}

async function shutdown(
  server: Server,
  app: HookwerkApp,
  engine: HookEngine,
  guard: ConnectionGuard,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  app.closeStreams();
  server.closeIdleConnections();
  // Connections that never sent a whole request count as busy to node: they have nothing to finish.
  guard.closeUnstarted();
  const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
  // Open requests (a decide, a queued hooks write) finish before the engine goes away.
  await closed;
  clearTimeout(grace);
  // Running hooks get the engine's shutdown grace, then are stopped [X-PROC-3]; the gate engines too.
  await Promise.all([app.closeEngines(), engine.close()]);
}

function firstSignal(err: (line: string) => void): Promise<string> {
  return new Promise((resolve) => {
    let seen = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (seen) {
        // A second Ctrl-C means now: running hooks are abandoned.
        err(`hookwerk: ${signal} again, exiting without waiting for running hooks`);
        process.exit(1);
      }
      seen = true;
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (e.code === 'EADDRINUSE')
        reject(new CliError(`${host}:${port} is in use; pick another --port (0: any free one)`));
      else if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
        reject(new CliError(`cannot bind to --host ${host}: ${e.message}`));
      else if (e.code === 'EACCES') reject(new CliError(`not allowed to listen on port ${port}`));
      else reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535))
    throw new CliError(`--port must be a number from 0 to 65535, got "${text}"`);
  return port;
}

function urlOf(address: AddressInfo, host: string): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${address.port}`;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
