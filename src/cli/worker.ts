import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { errorMessage } from '../core/errno.ts';
import { defaultMaxConcurrent } from '../dispatch/observe-scheduler.ts';
import { createHookEngine } from '../engine.ts';
import type { HookEngine } from '../engine-api.ts';
import { defaultNatsName, natsOf } from '../nats/engine-nats.ts';
import { consumeCore, consumeDurable, type EventConsumer } from '../nats/event-consumer.ts';
import { answerGate } from '../nats/gate-responder.ts';
import { NatsUnreachableError } from '../nats/nats-link.ts';
import { redactUrls } from '../nats/redact-url.ts';
import type { Logger } from '../records/logger.ts';
import { CliError, resolveWorkspace } from './cli-error.ts';
import { wholeNumberOption } from './int-option.ts';
import { type NatsSecurityFlags, natsSecurityFromFlags } from './nats-cli-options.ts';
import { graceOption } from './shutdown.ts';

interface WorkerCliOptions extends NatsSecurityFlags {
  nats: string;
  workspace?: string;
  queue: string;
  name?: string;
  maxConcurrent?: string;
  maxQueue?: string;
  durable?: boolean;
  ackWaitMs?: string;
  maxDeliver?: string;
  gate?: boolean;
  project?: string;
  metricsPort?: string;
  shutdownGraceMs?: string;
  streamMaxBytes?: string;
  streamMaxAgeMs?: string;
}

/** How long one connection attempt at start may take before the worker says so and tries again. */
const START_ATTEMPT_MS = 2000;
/** The engine's default run queue [P-FF-3]. */
const DEFAULT_MAX_QUEUE = 10_000;

/**
 * `hookwerk worker` [N-WORK-1, N-DUR-1, N-GATE-1, N-OPS-1]: runs a workspace's hooks for events
 * from NATS (and/or answers gate requests), prints `ready` once subscribed, and on SIGTERM/SIGINT
 * stops taking events, lets running hooks finish within the grace, acknowledges, exits 0.
 */
export async function workerCommand(
  opts: WorkerCliOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  if (opts.workspace === undefined && opts.gate !== true)
    throw new CliError(
      'worker: give --workspace DIR (hooks to run) or --gate (decisions to answer), or both',
    );
  if (opts.gate === true && opts.project === undefined)
    throw new CliError('worker --gate needs --project DIR');
  const workspace = opts.workspace === undefined ? undefined : resolveWorkspace(opts.workspace);
  const name = opts.name ?? defaultNatsName();
  const maxConcurrent = wholeNumberOption('--max-concurrent', opts.maxConcurrent);
  const maxQueue = wholeNumberOption('--max-queue', opts.maxQueue, 0);
  const ackWaitMs = wholeNumberOption('--ack-wait-ms', opts.ackWaitMs) ?? 30_000;
  const maxDeliver = wholeNumberOption('--max-deliver', opts.maxDeliver) ?? 5;
  const metricsPort = wholeNumberOption('--metrics-port', opts.metricsPort, 0);
  const streamMaxBytes = safeIntegerOption('--stream-max-bytes', opts.streamMaxBytes);
  const streamMaxAgeMs = safeIntegerOption('--stream-max-age-ms', opts.streamMaxAgeMs);
  // [N-SEC-1] Read once: a missing password file is an error now, not at the first reconnect.
  const security = natsSecurityFromFlags(opts);
  const logger: Logger = {
    info: (m) => err(`hookwerk worker: ${m}`),
    warn: (m) => err(`hookwerk worker: ${m}`),
    error: (m) => err(`hookwerk worker: ${m}`),
  };

  let stopRequested: NodeJS.Signals | undefined;
  let wake: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stopRequested = signal;
    wake?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const engine = await startEngine();
    if (engine === undefined) return 0; // stopped before it ever connected
    const consumers: Array<{ stop(): Promise<void> }> = [];
    let metrics: Server | undefined;
    try {
      engine.metrics.registry.setDefaultLabels({ worker: name });
      if (workspace !== undefined) consumers.push(await eventConsumer(engine));
      if (opts.gate === true) consumers.push(await gateConsumer(engine));
      if (metricsPort !== undefined) metrics = await serveMetrics(engine, metricsPort, err);
      out('ready');
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (stopRequested !== undefined) resolve();
      });
      err(`hookwerk worker: ${stopRequested ?? 'stop'}: taking no more events, letting running hooks finish`);
    } finally {
      await Promise.all([Promise.all(consumers.map((c) => c.stop())), engine.close()]);
      metrics?.close();
    }
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  /** Connects, retrying (and saying so) while no server answers, until connected or stopped. */
  async function startEngine(): Promise<HookEngine | undefined> {
    for (;;) {
      try {
        return await createHookEngine({
          ...(workspace !== undefined ? { workspace } : {}),
          ...(opts.project !== undefined ? { projectDir: path.resolve(opts.project) } : {}),
          ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
          ...(maxQueue !== undefined ? { maxQueue } : {}),
          ...graceOption(opts.shutdownGraceMs),
          logger,
          natsInbound: false,
          nats: {
            ...security,
            servers: opts.nats,
            name,
            connectTimeoutMs: START_ATTEMPT_MS,
            ...(streamMaxBytes !== undefined ? { streamMaxBytes } : {}),
            ...(streamMaxAgeMs !== undefined ? { streamMaxAgeMs } : {}),
          },
        });
      } catch (e) {
        // Refused credentials (NatsAuthError) or bad options: retrying would not change them.
        if (!(e instanceof NatsUnreachableError)) throw new CliError(redactUrls(errorMessage(e)));
        err(`hookwerk worker: ${e.message}; retrying`);
        if (stopRequested !== undefined) return undefined;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 500);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        if (stopRequested !== undefined) return undefined;
      }
    }
  }

  async function eventConsumer(engine: HookEngine): Promise<EventConsumer> {
    const link = engineLink(engine);
    const base = { queue: opts.queue, logger, dropped: (r: string) => engine.metrics.dropped(r) };
    if (opts.durable !== true) return consumeCore(link, engine, base);
    const held = (maxConcurrent ?? defaultMaxConcurrent()) + (maxQueue ?? DEFAULT_MAX_QUEUE);
    const streamLimits = { maxBytes: streamMaxBytes, maxAgeMs: streamMaxAgeMs };
    return consumeDurable(link, engine, { ...base, ackWaitMs, maxDeliver, maxHeld: held, streamLimits });
  }

  function gateConsumer(engine: HookEngine) {
    return answerGate(engineLink(engine), engine, { queue: opts.queue, name, logger });
  }
}

/** [N-SEC-3] A byte or millisecond limit: a whole number ≥ 1 (up to 2^53 - 1), or undefined. */
function safeIntegerOption(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,16}$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new CliError(`${flag} must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return n;
}

function engineLink(engine: HookEngine) {
  const link = natsOf(engine)?.link;
  if (link === undefined) throw new CliError('worker: the engine has no NATS connection');
  return link;
}

/** [N-OPS-1] `/metrics` of this worker (label `worker`), on 127.0.0.1. */
function serveMetrics(engine: HookEngine, port: number, err: (line: string) => void): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    engine.metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': engine.metrics.registry.contentType }).end(text),
      (e: unknown) => res.writeHead(500).end(errorMessage(e)),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e) => reject(new CliError(`--metrics-port ${port}: ${errorMessage(e)}`)));
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address();
      if (addr !== null && typeof addr === 'object')
        err(`hookwerk worker: metrics on http://127.0.0.1:${addr.port}/metrics`);
      resolve(server);
    });
  });
}
