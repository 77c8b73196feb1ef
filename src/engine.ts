/**
 * The engine façade: wires sources → registry → runners → dispatchers, and owns every resource
 * it opens (watchers, runners, the HTTP pool, plugin workers, temp files). See the README's
 * "Architecture" section for the data path of one `emit` and one `decide`.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { currentDepth, MAX_DEPTH } from './bus/depth.ts';
import { MemoryBus } from './bus/memory-bus.ts';
import type { ConsentPolicy } from './consent/project-admission.ts';
import { trustStorePath } from './consent/trust-store.ts';
import { errorMessage } from './core/errno.ts';
import { EngineClosedError, HookInputError, HookwerkError } from './core/errors.ts';
import { type ConfigIssue, formatIssue } from './core/issues.ts';
import { isPlainObject } from './core/plain-object.ts';
import { LazyPrivateTempDir } from './core/private-temp-dir.ts';
import { isDirectory } from './core/real-path.ts';
import type { GateDialectPlugin, GateRuntime } from './dialects/gate-dialect.ts';
import { GATE_DIALECTS } from './dialects/gate-dialects.ts';
import { type PayloadFiles, runObserveHook } from './dialects/prx/run.ts';
import { loadPrxConfig, PRX_HOOKS_FILE, type PrxLoadResult } from './dialects/prx/source.ts';
import { HookJob, type JobContext } from './dispatch/hook-job.ts';
import { ObserveScheduler } from './dispatch/observe-scheduler.ts';
import type {
  EmitOptions,
  GateConfig,
  GateDecision,
  GateView,
  HookEngine,
  HookEngineOptions,
  NatsStatus,
  ReloadResult,
} from './engine-api.ts';
import { jsonPayloadProblem } from './events/json-payload-check.ts';
import { isLurusEvent, LURUS_EVENT_NAMES, LURUS_EVENTS, type LurusEventName } from './events/lurus-events.ts';
import {
  assertPrxPayload,
  isPrxEvent,
  PRX_EVENT_NAMES,
  type PrxEnvelope,
  PrxEventInstance,
  prxTopic,
} from './events/prx-events.ts';
import { EngineNats } from './nats/engine-nats.ts';
import { type NatsOptions, parseNatsOptions } from './nats/nats-options.ts';
import { type Logger, stderrLogger } from './records/logger.ts';
import { EngineMetrics } from './records/metrics.ts';
import { RunLog } from './records/run-log.ts';
import type { RunOutcome, RunRecord } from './records/run-record.ts';
import { truncateRecord } from './records/truncate-record.ts';
import { type Explanation, explainEvent } from './registry/explain.ts';
import type {
  InProcessGateHook,
  InProcessObserverHook,
  PrxShellHook,
  RegistryEntry,
} from './registry/hook-definition.ts';
import { compileMatcher } from './registry/matcher.ts';
import { Registry } from './registry/registry.ts';
import { Runners } from './runners/runners.ts';
import { PluginHost } from './sources/plugin-host.ts';
import { PLUGINS_DIR } from './sources/plugin-scan.ts';
import { type FileWatch, watchConfigFile } from './sources/watch.ts';

const RUN_TOPIC: Readonly<Record<RunOutcome, string>> = {
  ok: 'hookwerk.run.ok',
  deny: 'hookwerk.run.deny',
  error: 'hookwerk.run.error',
  timeout: 'hookwerk.run.timeout',
  spawn_error: 'hookwerk.run.spawn_error',
  skipped_untrusted: 'hookwerk.run.skipped_untrusted',
  dropped: 'hookwerk.run.dropped',
};

const DEFAULT_IN_PROCESS_TIMEOUT_MS = 30_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 5000;
/** [L-TRUST-7] How often `decide()` looks whether the trust store changed (well within 1 s). */
const TRUST_POLL_MS = 250;

export async function createHookEngine(options: HookEngineOptions = {}): Promise<HookEngine> {
  const nats = options.nats === undefined ? undefined : parseNatsOptions(options.nats);
  const engine = new Engine(options);
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
  readonly metrics: EngineMetrics;
  readonly gate: GateView;
  readonly #opts: HookEngineOptions;
  readonly #logger: Logger;
  readonly #scheduler: ObserveScheduler;
  readonly #runners: Runners;
  readonly #log: RunLog;
  readonly #sessionId: string;
  readonly #tmpDir: LazyPrivateTempDir;
  readonly #jobs: JobContext;
  readonly #projectDir: string;
  readonly #home: string | undefined;
  readonly #consentPolicy: ConsentPolicy;
  /** The one snapshot every dispatch reads; replaced whole, never mutated. */
  #registry = Registry.empty;
  #gateConfig!: GateConfig;
  /** The gate dialect, from the table: the engine never asks which one it is. */
  readonly #dialect: GateDialectPlugin;
  readonly #gateRuntime: GateRuntime;
  #loadedText: string | undefined;
  #issues: ConfigIssue[] = [];
  #watch: FileWatch | undefined;
  /** The workspace folder was found gone (and that was logged): see #workspaceGone. */
  #goneWarned = false;
  #plugins: PluginHost | undefined;
  #closed = false;
  #inProcessCount = 0;
  /** Decisions in progress, and who waits for there to be none (close()). */
  #deciding = 0;
  #decidesSettled: Array<() => void> = [];
  readonly #recordGateRun: (record: RunRecord) => void;
  readonly #decideSettled = (): void => {
    if (--this.#deciding > 0) return;
    for (const wake of this.#decidesSettled.splice(0)) wake();
  };
  #trustSeenAt = 0;
  #trustSignature = '';
  #nats: EngineNats | undefined;

  constructor(opts: HookEngineOptions) {
    this.#opts = opts;
    this.#logger = opts.logger ?? stderrLogger;
    this.#runners = new Runners({
      ...(opts.launcher !== undefined ? { launcher: opts.launcher } : {}),
      ...(opts.containment !== undefined ? { containment: opts.containment } : {}),
      ...(opts.httpLookup !== undefined ? { httpLookup: opts.httpLookup } : {}),
      logger: this.#logger,
    });
    this.workspace = opts.workspace !== undefined ? path.resolve(opts.workspace) : undefined;
    if (this.workspace !== undefined) assertDirectory(this.workspace);
    this.#projectDir = opts.projectDir ?? process.cwd();
    this.#home = opts.home;
    const trust = opts.trust;
    this.#consentPolicy = trust === undefined ? { kind: 'store' } : { kind: 'fixed', check: trust };
    this.#scheduler = new ObserveScheduler({
      ...(opts.maxConcurrent !== undefined ? { maxConcurrent: opts.maxConcurrent } : {}),
      ...(opts.maxQueue !== undefined ? { maxQueue: opts.maxQueue } : {}),
      ...(opts.maxQueueAgeMs !== undefined ? { maxQueueAgeMs: opts.maxQueueAgeMs } : {}),
    });
    this.metrics = new EngineMetrics({
      queued: () => this.#scheduler.queued,
      running: () => this.#scheduler.running,
    });
    this.bus = new MemoryBus({
      onDrop: (reason) => this.metrics.busDropped(reason),
      onHandlerError: (err, topic) =>
        this.#logger.warn(`bus subscriber for ${topic} failed: ${errorMessage(err)}`),
    });
    this.#log = new RunLog(opts.runLogSize ?? 1000);
    this.#sessionId = opts.sessionId ?? `sess_${randomBytes(6).toString('hex')}`;
    if (this.#sessionId.includes('\0'))
      throw new HookInputError('sessionId', 'sessionId contains a NUL byte');
    // A private 0700 folder for payload files: no other user can pre-create or read them.
    this.#tmpDir = new LazyPrivateTempDir('hookwerk-');
    const payloads = payloadFiles(this.#tmpDir);
    const runners = this.#runners;
    this.#recordGateRun = (record) => this.#record(record, currentDepth() + 1);
    this.#dialect = GATE_DIALECTS[opts.gateDialect ?? 'lurus'];
    this.#gateRuntime = this.#runtime(runners);
    this.#jobs = {
      run: (hook, ev) => runObserveHook(hook, ev, runners, payloads),
      record: (record, depth) => this.#record(record, depth),
      dropped: (reason) => this.metrics.dropped(reason),
    };
    const engine = this;
    this.gate = {
      dialect: opts.gateDialect ?? 'lurus',
      get config() {
        return engine.#gateConfig;
      },
      get trust() {
        const c = engine.#gateConfig.consent;
        return { trusted: c.trusted, reason: c.reason, pending: c.pending };
      },
      reload: () => this.#loadGate(),
    };
    this.#loadGate();
    if (this.workspace !== undefined) {
      this.reload();
      if (opts.watch !== false) {
        this.#watch = watchConfigFile(path.join(this.workspace, PRX_HOOKS_FILE), () => this.reload(), {
          debounceMs: opts.reloadDebounceMs ?? 50,
          onError: (dir, err) =>
            this.#logger.error(
              `hot reload: cannot watch ${dir} (${err.message}); changes there may be missed`,
            ),
        });
      }
      // WASM plugins: load problems go to the logger, a bad plugin is skipped.
      if (opts.plugins !== false) {
        this.#plugins = new PluginHost({
          dir: path.join(this.workspace, PLUGINS_DIR),
          logger: this.#logger,
          watch: opts.watch !== false,
          onChange: (plugins) => {
            this.#registry = this.#registry.with({ plugins });
          },
        });
      }
    }
  }

  emit(event: string, payload: unknown, opts?: EmitOptions): void {
    assertPrxPayload(event, payload);
    if (!isPrxEvent(event)) return; // checked above; narrows the name for select()
    const sessionId = opts?.sessionId ?? this.#sessionId;
    if (typeof sessionId !== 'string') throw new HookInputError('sessionId', 'sessionId must be a string');
    // Issue 11: both become ZERO_HOOK_* variables; a NUL byte would fail every hook at spawn.
    // (The engine's own sessionId was checked once, in the constructor.)
    if (sessionId !== this.#sessionId && sessionId.includes('\0'))
      throw new HookInputError('sessionId', 'sessionId contains a NUL byte');
    const timestamp = opts?.timestamp;
    if (timestamp !== undefined && (typeof timestamp !== 'string' || timestamp.includes('\0')))
      throw new HookInputError('timestamp', 'timestamp must be a string without NUL bytes');
    const depth = opts?.depth ?? currentDepth() + 1;
    if (!Number.isInteger(depth) || depth < 1)
      throw new HookInputError('depth', 'depth must be an integer ≥ 1');
    if (this.#closed) {
      this.metrics.dropped('closed');
      return;
    }
    // [P-BUS-3] Beyond depth 8 the whole emit is dropped silently, and counted.
    if (depth > MAX_DEPTH) {
      this.metrics.dropped('depth');
      return;
    }
    // The clock is read now; the ISO string and the envelope are built when first needed [P-EV-2].
    const ev = new PrxEventInstance(event, sessionId, payload, depth, timestamp);
    this.metrics.emitted(event);
    const topic = prxTopic(event);
    // [P-BUS-1] Published whether or not hooks are configured; the envelope only if someone listens.
    this.bus.publishLazy(topic, ev, depth);
    if (this.#nats !== undefined) {
      this.#nats.sendEvent(topic, ev, opts?.eventId);
      if (!this.#nats.runsLocally) return;
    }
    const hooks = this.#registry.select(event);
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i];
      if (hook !== undefined) this.#scheduler.submit(new HookJob(this.#jobs, hook, ev));
    }
  }

  decide(event: string, context: unknown): Promise<GateDecision> {
    try {
      if (this.#closed) return Promise.reject(new EngineClosedError('decide()'));
      if (!isPlainObject(context)) {
        return Promise.reject(new HookInputError('context', 'context must be an object'));
      }
      // Issue 11: hooks get the context as JSON; cyclic, BigInt or too deep would fail each one.
      const unsendable = jsonPayloadProblem(context, 'context');
      if (unsendable !== undefined) return Promise.reject(unsendable);
      this.#pollTrust();
      return this.#dialect.decide(event, context, this.#gateRuntime);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  use(event: string, a: unknown, b?: unknown): () => void {
    if (isPrxEvent(event)) {
      if (typeof a !== 'function') throw new HookInputError('fn', 'use(event, fn): fn must be a function');
      const opts = typeof b === 'object' && b !== null ? b : {};
      const timeout: unknown = Reflect.get(opts, 'timeout');
      const name: unknown = Reflect.get(opts, 'name');
      const hook: InProcessObserverHook = {
        kind: 'in-process',
        dialect: 'prx',
        name: typeof name === 'string' ? name : `in-process:${event}#${++this.#inProcessCount}`,
        event,
        origin: { source: 'in-process', scope: 'in-process' },
        matcher: compileMatcher(undefined),
        timeoutMs: typeof timeout === 'number' ? timeout : DEFAULT_IN_PROCESS_TIMEOUT_MS,
        failMode: 'open',
        enabled: true,
        fn: (envelope, info) => a(envelope, info),
      };
      this.#registry = this.#registry.with({ observers: [...this.#registry.parts.observers, hook] });
      return () => {
        this.#registry = this.#registry.with({
          observers: this.#registry.parts.observers.filter((h) => h !== hook),
        });
      };
    }
    if (!isLurusEvent(event)) {
      throw new HookInputError(
        'event',
        `unknown event "${event}" (gate events: ${LURUS_EVENT_NAMES.join(', ')}; observe events: ${PRX_EVENT_NAMES.join(', ')})`,
      );
    }
    if (typeof b !== 'function')
      throw new HookInputError('fn', 'use(event, options, fn): fn must be a function');
    const opts = typeof a === 'object' && a !== null ? a : {};
    const matcherOpt: unknown = Reflect.get(opts, 'matcher');
    const timeout: unknown = Reflect.get(opts, 'timeout');
    const failMode: unknown = Reflect.get(opts, 'failMode');
    const name: unknown = Reflect.get(opts, 'name');
    const matcher = compileMatcher(typeof matcherOpt === 'string' ? matcherOpt : undefined);
    if (matcher.error !== undefined) throw new HookInputError('matcher', matcher.error);
    const hook: InProcessGateHook = {
      kind: 'in-process',
      dialect: 'lurus',
      name: typeof name === 'string' ? name : `in-process:${event}#${++this.#inProcessCount}`,
      event,
      origin: { source: 'in-process', scope: 'in-process' },
      matcher,
      timeoutMs: typeof timeout === 'number' ? timeout : DEFAULT_IN_PROCESS_TIMEOUT_MS,
      failMode: failMode === 'closed' ? 'closed' : 'open',
      enabled: true,
      fn: (ctx, info) => b(ctx, info),
    };
    this.#registry = this.#registry.with({ gateInProcess: [...this.#registry.parts.gateInProcess, hook] });
    return () => {
      this.#registry = this.#registry.with({
        gateInProcess: this.#registry.parts.gateInProcess.filter((h) => h !== hook),
      });
    };
  }

  explain(event: string, target: Record<string, unknown> = {}): Explanation[] {
    if (isPrxEvent(event)) {
      const issues = [...this.#issues, ...(this.#plugins?.issues() ?? [])];
      return explainEvent(this.#registry, event, undefined, { issues });
    }
    const value = this.#dialect.explainTarget(event, { ...target });
    this.#pollTrust();
    const config = this.#gateConfig;
    return explainEvent(this.#registry, event, value, {
      issues: config.issues,
      pending: config.consent.pending,
    });
  }

  hooks(event: string): readonly RegistryEntry[] {
    return this.#registry.entries(event);
  }

  /** What the gate dialect gets of this engine: made once (decide() is µs-scale and allocates no closures). */
  #runtime(runners: Runners): GateRuntime {
    return {
      runners,
      tmpDir: this.#tmpDir,
      sessionId: this.#sessionId,
      projectDir: () => this.#gateConfig.projectDir,
      select: (event, target) => this.#registry.select(event, target),
      record: this.#recordGateRun,
      begin: () => {
        this.#deciding++;
      },
      done: this.#decideSettled,
      background: (run) => {
        this.#deciding++;
        run.then(this.#decideSettled, this.#decideSettled);
      },
      remote: undefined,
    };
  }

  #record(given: RunRecord, depth: number): void {
    // (issue 11) What is kept and published has bounded text fields; the caller keeps its own.
    const record = truncateRecord(given);
    this.#log.push(record);
    this.metrics.record(record);
    // Constant topic strings: their hash is computed once, not per record.
    this.bus.publish(RUN_TOPIC[record.outcome], record, { depth });
  }

  /** [L-SRC-4] Gate sources are read at start and on request, and when consent changes [L-TRUST-7]. */
  #loadGate(): GateConfig {
    const opts = this.#opts;
    const base = {
      projectDir: this.#projectDir,
      ...(this.#home !== undefined ? { home: this.#home } : {}),
      ...(opts.env !== undefined ? { env: opts.env } : {}),
      consent: this.#consentPolicy,
    };
    const config = this.#dialect.load(base, opts);
    this.#gateConfig = config;
    this.#registry = this.#registry.with({ gateFiles: config.entries });
    this.#trustSignature = this.#trustStoreSignature();
    this.#trustSeenAt = Date.now();
    for (const issue of config.issues) this.#logger.warn(`skipped gate source: ${formatIssue(issue)}`);
    if (config.consent.problem !== undefined) this.#logger.warn(config.consent.problem);
    for (const file of config.consent.pending)
      this.#logger.warn(`${file} changed since approval: the approved version runs until \`hookwerk trust\``);
    return config;
  }

  /**
   * [L-TRUST-7] Approvals and revocations take effect in a running engine within 1 s: the
   * store's identity is looked at (one stat) at most every TRUST_POLL_MS, on the gate's path.
   */
  #pollTrust(): void {
    if (this.#consentPolicy.kind !== 'store') return;
    const now = Date.now();
    if (now - this.#trustSeenAt < TRUST_POLL_MS) return;
    this.#trustSeenAt = now;
    if (this.#trustStoreSignature() !== this.#trustSignature) this.#loadGate();
  }

  #trustStoreSignature(): string {
    if (this.#consentPolicy.kind !== 'store') return '';
    try {
      const s = statSync(trustStorePath(this.#gateConfig.home), { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch {
      return 'absent';
    }
  }

  reload(): ReloadResult {
    if (this.workspace === undefined) return { ok: true, changed: false, actions: 0, issues: [] };
    const result: PrxLoadResult = loadPrxConfig(this.workspace);
    const inForce = this.#registry.parts.shell.length;
    if (this.#workspaceGone(this.workspace, result, inForce)) {
      return { ok: true, changed: false, actions: inForce, issues: [] };
    }
    if (!result.ok) {
      this.#issues = result.issues;
      this.metrics.reloadFailed();
      this.#logger.error(
        `${result.file} rejected, keeping the last good hooks (${inForce} actions):\n  ${result.issues.map(formatIssue).join('\n  ')}`,
      );
      return { ok: false, changed: false, actions: inForce, issues: result.issues };
    }
    this.#issues = [];
    // Our own atomic writes and editors' double saves fire the watcher with unchanged content.
    if (result.text === this.#loadedText && inForce === result.actions.length) {
      return { ok: true, changed: false, actions: inForce, issues: [] };
    }
    this.#registry = this.#registry.with({ shell: result.actions });
    this.#loadedText = result.text;
    this.metrics.reloaded();
    this.#logger.info(`${result.file}: ${result.actions.length} actions in force`);
    return { ok: true, changed: true, actions: result.actions.length, issues: [] };
  }

  /**
   * [P-CFG-3] issue 11: a workspace folder that is gone (deleted, moved away) keeps the hooks in
   * force, where a deleted hooks.json means none: a vanished folder is mostly one being replaced
   * (checkout, sync, restore), and its recreated hooks.json decides. Warned once per absence.
   */
  #workspaceGone(workspace: string, result: PrxLoadResult, inForce: number): boolean {
    const gone = result.ok && !result.exists && !isDirectory(workspace);
    if (gone && !this.#goneWarned) {
      this.#logger.warn(
        `workspace ${workspace} is gone: keeping the ${inForce} hooks in force until it is back`,
      );
    } else if (!gone && this.#goneWarned) {
      this.#logger.info(`workspace ${workspace} is back: its ${PRX_HOOKS_FILE} applies again`);
    }
    this.#goneWarned = gone;
    return gone;
  }

  actions(): readonly PrxShellHook[] {
    return this.#registry.parts.shell;
  }

  configIssues(): readonly ConfigIssue[] {
    return this.#issues;
  }

  runs(opts?: { limit?: number; outcome?: RunOutcome; event?: string }): RunRecord[] {
    return this.#log.recent(opts);
  }

  async drain(): Promise<void> {
    // Runs can publish records whose handlers emit again: settle until both are quiet.
    for (let i = 0; i < MAX_DEPTH + 2; i++) {
      await this.#scheduler.drain();
      await this.bus.flush();
      if (this.#scheduler.idle) return;
    }
  }

  get nats(): NatsStatus | undefined {
    const nats = this.#nats;
    if (nats === undefined) return undefined;
    const link = nats.link;
    return {
      get connected() {
        return link.connected;
      },
      servers: link.servers,
      flush: () => link.nc.flush(),
    };
  }

  /** [N-GATE-1] A gate worker decides; local gate sources are not run. */
  readonly #decideRemotely = (event: LurusEventName, context: object): Promise<GateDecision> => {
    const nats = this.#nats;
    if (nats === undefined) return Promise.reject(new EngineClosedError('decide()'));
    const ctx: Record<string, unknown> = Object.fromEntries(Object.entries(context));
    this.#deciding++;
    return nats
      .decide(event, ctx, LURUS_EVENTS[event].canBlock, this.#recordGateRun)
      .finally(this.#decideSettled);
  };

  /** Called once by createHookEngine when `nats` is given. */
  async connectNats(options: NatsOptions): Promise<void> {
    this.#nats = await EngineNats.open(this, options, {
      bus: this.bus,
      logger: this.#logger,
      dropped: (reason) => this.metrics.dropped(reason),
      maxQueue: this.#scheduler.maxQueue,
      inbound: this.#opts.natsInbound !== false,
    });
    if (options.remoteGate) this.#gateRuntime.remote = this.#decideRemotely;
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
      this.metrics.emitted(event);
      const hooks = this.#registry.select(event);
      if (hooks.length === 0) return Promise.resolve([]);
      const worker = this.#nats?.name;
      return new Promise((resolve) => {
        const records: RunRecord[] = [];
        let left = hooks.length;
        // Every job ends in exactly one record (run, dropped or closed): the last one resolves.
        const ctx: JobContext = {
          run: this.#jobs.run,
          dropped: this.#jobs.dropped,
          record: (record, d) => {
            if (worker !== undefined) record.worker = worker;
            this.#jobs.record(record, d);
            records.push(record);
            if (--left === 0) resolve(records);
          },
        };
        for (let i = 0; i < hooks.length; i++) {
          const hook = hooks[i];
          if (hook !== undefined) this.#scheduler.submit(new HookJob(ctx, hook, ev));
          else left--;
        }
        if (left === 0) resolve(records);
      });
    } catch (err) {
      return Promise.reject(err);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch?.close();
    // WASM plugins: stop watching, drop calls not yet started, wait for running ones, stop workers.
    const plugins = this.#plugins?.close();
    const decides = new Promise<void>((resolve) => {
      if (this.#deciding === 0) resolve();
      else this.#decidesSettled.push(resolve);
    });
    const settled = Promise.all([this.#scheduler.close(), decides]).then(() => {});
    await this.#runners.close(this.#opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS, settled);
    await plugins;
    await this.bus.flush();
    // After the last records were published: the bridge forwards them before the connection goes.
    await this.#nats?.close(this.#opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
    this.#tmpDir.remove();
  }
}

/**
 * Payload file names in the engine's private folder, unique per engine. The folder part is
 * joined once: a run only appends its number (no path normalization per run).
 */
function payloadFiles(dir: LazyPrivateTempDir): PayloadFiles {
  const name = `payload-${randomBytes(4).toString('hex')}-`;
  let counter = 0;
  // A template, not path.join: the folder is already normal, and this runs once per hook run.
  return { next: () => `${dir.path()}/${name}${++counter}.json` };
}

function assertDirectory(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new HookwerkError('WORKSPACE', `workspace ${dir} does not exist`);
  }
  if (!isDir) throw new HookwerkError('WORKSPACE', `workspace ${dir} is not a directory`);
}
