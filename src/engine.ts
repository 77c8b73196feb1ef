/**
 * The engine façade: wires sources → registry → runners → dispatchers, and owns every resource
 * it opens (runners, the gate, the workspace, NATS, temp files). It asks no dialect which one it
 * is: the gate holds one from the table, the workspace is PRX's. See docs/architecture.md
 * for the data path of one `emit` and one `decide`.
 */
import { randomBytes } from 'node:crypto';
import { currentDepth, MAX_DEPTH } from './bus/depth.ts';
import { EngineClosedError, HookInputError } from './core/errors.ts';
import { LazyPrivateTempDir } from './core/private-temp-dir.ts';
import type { GateDialectPlugin } from './dialects/agent/gate-dialect.ts';
import { type GateConfig, loadGateDialect } from './dialects/gate-dialects.ts';
import { GateHost } from './dialects/gate-host.ts';
import type { PrxWorkspace } from './dialects/prx/workspace.ts';
import { HookJob, type JobContext } from './dispatch/hook-job.ts';
import type { ObserveScheduler } from './dispatch/observe-scheduler.ts';
import type {
  DecideOptions,
  EmitOptions,
  Explanation,
  HookEngine,
  HookEngineOptions,
  MemoryBus,
  NatsStatus,
  PrxShellHook,
  RegistryEntry,
  ReloadResult,
  RunOutcome,
  RunRecord,
} from './engine-api.ts';
import { EngineParts } from './engine-parts.ts';
import { jsonPayloadProblem } from './events/json-payload-check.ts';
import {
  assertPrxPayload,
  isPrxEvent,
  type PrxEnvelope,
  PrxEventInstance,
  prxTopic,
} from './events/prx-events.ts';
import type { EngineNats } from './nats/engine-nats.ts';
import { stderrLogger } from './records/logger.ts';
import { activeTracer } from './records/run-trace.ts';
import { explainEvent } from './registry/explain.ts';
import { inProcessHookOf } from './registry/in-process-hooks.ts';
import { Registry } from './registry/registry.ts';

const DEFAULT_SHUTDOWN_GRACE_MS = 5000;

/** [G-PERF-1] The NATS client (~60 files) is loaded only by an engine that is given `nats`. */
const natsModule = () => import('./nats/engine-nats.ts');

export async function createHookEngine(options: HookEngineOptions = {}): Promise<HookEngine> {
  const nats = options.nats === undefined ? undefined : (await natsModule()).EngineNats.parse(options.nats);
  // [G-PERF-1] The PRX workspace (its sources, plugin scan, watcher, TOML) only for an engine given one.
  const workspace =
    options.workspace === undefined ? undefined : (await import('./dialects/prx/workspace.ts')).PrxWorkspace;
  // [G-PERF-1] The gate dialect is imported now, and only the one the engine speaks (issue 31).
  const plugin = await loadGateDialect(options.gateDialect ?? 'lurus');
  const engine = new Engine(options, plugin, workspace);
  if (nats !== undefined) {
    try {
      await engine.connectNats(nats);
    } catch (err) {
      await engine.close();
      throw err;
    }
  }
  return engine;
}

class Engine implements HookEngine {
  readonly workspace: string | undefined;
  readonly bus: MemoryBus;
  readonly gate: GateHost;
  readonly #opts: HookEngineOptions;
  readonly #side: EngineParts;
  /** The side's scheduler and job context, read by every emit() (see emit). */
  readonly #scheduler: ObserveScheduler;
  readonly #jobs: JobContext;
  readonly #sessionId: string;
  readonly #tmpDir: LazyPrivateTempDir;
  /** The one snapshot every dispatch reads; replaced whole, never mutated. */
  #registry = Registry.empty;
  readonly #prx: PrxWorkspace | undefined;
  #nats: EngineNats | undefined;
  #closed = false;
  #inProcessCount = 0;

  constructor(
    opts: HookEngineOptions,
    plugin: GateDialectPlugin<GateConfig>,
    Workspace: typeof PrxWorkspace | undefined,
  ) {
    this.#opts = opts;
    const logger = opts.logger ?? stderrLogger;
    this.#sessionId = opts.sessionId ?? `sess_${randomBytes(6).toString('hex')}`;
    if (this.#sessionId.includes('\0'))
      throw new HookInputError('sessionId', 'sessionId contains a NUL byte');
    // A private 0700 folder for payload and env files: no other user can pre-create or read them.
    this.#tmpDir = new LazyPrivateTempDir('hookwerk-');
    this.#side = new EngineParts(opts, logger, this.#tmpDir);
    this.bus = this.#side.bus;
    this.#scheduler = this.#side.scheduler;
    this.#jobs = this.#side.jobs;
    const records = this.#side.records;
    this.gate = new GateHost({
      dialect: opts.gateDialect ?? 'lurus',
      plugin,
      projectDir: opts.projectDir ?? process.cwd(),
      home: opts.home,
      env: opts.env,
      consent: opts.trust === undefined ? { kind: 'store' } : { kind: 'fixed', check: opts.trust },
      options: opts,
      runners: this.#side.runners,
      tmpDir: this.#tmpDir,
      sessionId: this.#sessionId,
      logger,
      select: (event, target) => this.#registry.select(event, target),
      setEntries: (entries) => {
        this.#registry = this.#registry.with({ gateFiles: entries });
      },
      record: (record) => records.record(record, currentDepth() + 1),
    });
    this.#prx =
      opts.workspace === undefined || Workspace === undefined
        ? undefined
        : new Workspace({
            dir: opts.workspace,
            logger,
            metrics: this.metrics,
            watch: opts.watch !== false,
            reloadDebounceMs: opts.reloadDebounceMs ?? 50,
            plugins: opts.plugins !== false,
            shell: () => this.#registry.parts.shell,
            setShell: (shell) => {
              this.#registry = this.#registry.with({ shell });
            },
            setPlugins: (plugins) => {
              this.#registry = this.#registry.with({ plugins });
            },
            onChange: () => this.reload(),
          });
    this.workspace = this.#prx?.dir;
  }

  get metrics() {
    return this.#side.metrics;
  }

  emit(event: string, payload: unknown, opts?: EmitOptions): void {
    assertPrxPayload(event, payload);
    if (!isPrxEvent(event)) return; // checked above; narrows the name for select()
    const sessionId = opts?.sessionId ?? this.#sessionId;
    if (typeof sessionId !== 'string') throw new HookInputError('sessionId', 'sessionId must be a string');
    // Issue 11: both become ZERO_HOOK_* variables; a NUL byte would fail every hook at spawn.
    if (sessionId !== this.#sessionId && sessionId.includes('\0'))
      throw new HookInputError('sessionId', 'sessionId contains a NUL byte');
    const timestamp = opts?.timestamp;
    if (timestamp !== undefined && (typeof timestamp !== 'string' || timestamp.includes('\0')))
      throw new HookInputError('timestamp', 'timestamp must be a string without NUL bytes');
    const depth = opts?.depth ?? currentDepth() + 1;
    if (!Number.isInteger(depth) || depth < 1)
      throw new HookInputError('depth', 'depth must be an integer ≥ 1');
    const metrics = this.#side.metrics;
    if (this.#closed) {
      metrics.dropped('closed');
      return;
    }
    // [P-BUS-3] Beyond depth 8 the whole emit is dropped silently, and counted.
    if (depth > MAX_DEPTH) {
      metrics.dropped('depth');
      return;
    }
    // The clock is read now; the ISO string and the envelope are built when first needed [P-EV-2].
    const ev = new PrxEventInstance(event, sessionId, payload, depth, timestamp);
    metrics.emitted(event);
    const topic = prxTopic(event);
    // [P-BUS-1] Published whether or not hooks are configured; the envelope only if someone listens.
    this.bus.publishLazy(topic, ev, depth);
    if (this.#nats !== undefined) {
      this.#nats.sendEvent(topic, ev, opts?.eventId);
      if (!this.#nats.runsLocally) return;
    }
    const hooks = this.#registry.select(event);
    if (hooks.length === 0) return;
    // [AD-OTEL-1] Only while a tracer provider is registered: the emit's span, its runs under it.
    const tracer = activeTracer();
    if (tracer !== undefined) {
      this.#side.submitTraced(tracer, hooks, ev);
      return;
    }
    // [P-FF-1] One small object per hook. The loop stays in emit() itself: V8 re-optimizes a
    // function by the bytecode it runs, and with the loop in a helper, emit() ran as baseline
    // code for hundreds of calls after the first hook runs had deoptimized it (~2× its cost
    // right after hooks ran, the agent's usual rhythm; issue 29).
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i];
      if (hook !== undefined) this.#scheduler.submit(new HookJob(this.#jobs, hook, ev));
    }
  }

  decide(event: string, context: unknown, opts?: DecideOptions): ReturnType<HookEngine['decide']> {
    try {
      if (this.#closed) return Promise.reject(new EngineClosedError('decide()'));
      if (typeof context !== 'object' || context === null || Array.isArray(context))
        return Promise.reject(new HookInputError('context', 'context must be an object'));
      const badOption = opts === undefined ? undefined : decideOptionProblem(opts);
      if (badOption !== undefined) return Promise.reject(badOption);
      // Issue 11: hooks get the context as JSON; cyclic, BigInt or too deep would fail each one.
      const unsendable = jsonPayloadProblem(context, 'context');
      if (unsendable !== undefined) return Promise.reject(unsendable);
      return this.gate.decide(event, context, opts);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  use(event: string, a: unknown, b?: unknown): () => void {
    const made = inProcessHookOf(event, a, b, ++this.#inProcessCount);
    if ('observer' in made) {
      const hook = made.observer;
      this.#registry = this.#registry.with({ observers: [...this.#registry.parts.observers, hook] });
      return () => {
        this.#registry = this.#registry.with({
          observers: this.#registry.parts.observers.filter((h) => h !== hook),
        });
      };
    }
    const hook = made.gate;
    this.#registry = this.#registry.with({ gateInProcess: [...this.#registry.parts.gateInProcess, hook] });
    return () => {
      this.#registry = this.#registry.with({
        gateInProcess: this.#registry.parts.gateInProcess.filter((h) => h !== hook),
      });
    };
  }

  explain(event: string, target: Record<string, unknown> = {}): Explanation[] {
    if (isPrxEvent(event))
      return explainEvent(this.#registry, event, undefined, { issues: this.#prx?.allIssues() ?? [] });
    const gate = this.gate.explain(event, { ...target });
    return explainEvent(this.#registry, event, gate.target, {
      issues: gate.issues,
      pending: gate.pending,
      home: gate.home,
      gate: { call: gate.call },
      layers: gate.layers,
    });
  }

  hooks(event: string): readonly RegistryEntry[] {
    return this.#registry.entries(event);
  }

  reload(): ReloadResult {
    return this.#prx?.reload() ?? { ok: true, changed: false, actions: 0, issues: [] };
  }

  actions(): readonly PrxShellHook[] {
    return this.#registry.parts.shell;
  }

  configIssues(): ReturnType<HookEngine['configIssues']> {
    return this.#prx?.issues() ?? [];
  }

  runs(opts?: { limit?: number; outcome?: RunOutcome; event?: string }): RunRecord[] {
    return this.#side.records.log.recent(opts);
  }

  drain(): Promise<void> {
    return this.#side.drain();
  }

  get sessionId(): string {
    return this.#sessionId;
  }

  get nats(): NatsStatus | undefined {
    const link = this.#nats?.link;
    if (link === undefined) return undefined;
    return {
      get connected() {
        return link.connected;
      },
      servers: link.servers,
      flush: () => link.nc.flush(),
    };
  }

  /** Called once by createHookEngine when `nats` is given. */
  async connectNats(options: ReturnType<typeof EngineNats.parse>): Promise<void> {
    const { EngineNats } = await natsModule();
    const nats = await EngineNats.open(this, options, {
      bus: this.bus,
      logger: this.#opts.logger ?? stderrLogger,
      dropped: (reason) => this.#side.metrics.dropped(reason),
      maxQueue: this.#side.scheduler.maxQueue,
      inbound: this.#opts.natsInbound !== false,
    });
    this.#nats = nats;
    // [N-GATE-1] A gate worker decides; local gate sources are not run.
    if (options.remoteGate)
      this.gate.decideRemotelyWith((event, context, record, signal) =>
        nats.decide(event, context, record, signal),
      );
  }

  receive(envelope: PrxEnvelope, depth: number): Promise<RunRecord[]> {
    try {
      assertPrxPayload(envelope.event, envelope.payload);
      if (!isPrxEvent(envelope.event)) return Promise.resolve([]); // checked above; narrows the name
      if (this.#closed) return Promise.reject(new EngineClosedError('receive()'));
      if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
        return Promise.reject(new HookInputError('depth', `depth must be an integer from 1 to ${MAX_DEPTH}`));
      const { event, session_id, payload, timestamp } = envelope;
      const ev = new PrxEventInstance(event, session_id, payload, depth, timestamp);
      this.#side.metrics.emitted(event);
      return this.#side.collect(this.#registry.select(event), ev, this.#nats?.name);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const grace = this.#opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
    // WASM plugins: stop watching, drop calls not yet started, wait for running ones, stop workers.
    const workspace = this.#prx?.close();
    await this.#side.close(grace, this.gate.idle());
    await workspace;
    await this.bus.flush();
    // After the last records were published: the bridge forwards them before the connection goes.
    await this.#nats?.close(grace);
    this.#tmpDir.remove();
  }
}

/** [AD-ALL-1] `decide()`'s third argument, checked as the other arguments are (a JavaScript caller may pass anything). */
function decideOptionProblem(opts: unknown): HookInputError | undefined {
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts))
    return new HookInputError('options', 'decide options must be an object');
  const signal: unknown = Reflect.get(opts, 'signal');
  if (signal !== undefined && !(signal instanceof AbortSignal))
    return new HookInputError('signal', 'signal must be an AbortSignal');
  const agent: unknown = Reflect.get(opts, 'agent');
  if (agent !== undefined && (typeof agent !== 'string' || agent === '' || agent.includes('\0')))
    return new HookInputError('agent', 'agent must be a non-empty string without NUL bytes');
  const timeoutMs: unknown = Reflect.get(opts, 'timeoutMs');
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0)
  )
    return new HookInputError('timeoutMs', 'timeoutMs must be a finite number of milliseconds, at least 0');
  return undefined;
}
