import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentDepth, MAX_DEPTH } from './bus/depth.ts';
import { MemoryBus } from './bus/memory-bus.ts';
import { checkTrust } from './consent/trust-store.ts';
import { type InProcessGateHook, LurusGate, type UseOptions } from './dialects/lurus-gate.ts';
import type { Decision } from './dispatch/gate-sequential.ts';
import { type JobContext, PrxJob } from './dispatch/hook-job.ts';
import { ObserveScheduler } from './dispatch/observe-scheduler.ts';
import { PluginJob } from './dispatch/plugin-job.ts';
import type { LurusContext, LurusEventName } from './events/lurus-events.ts';
import {
  assertPrxPayload,
  isoNow,
  isPrxEvent,
  PrxEventInstance,
  type PrxEventName,
  type PrxPayload,
} from './events/prx-events.ts';
import { type Logger, stderrLogger } from './records/logger.ts';
import { EngineMetrics } from './records/metrics.ts';
import { RunLog } from './records/run-log.ts';
// --- end WASM plugins ---------------------------------------------------------------------------
import type { RunOutcome, RunRecord } from './records/run-record.ts';
import { PrxRegistry } from './registry/registry.ts';
import type { InProcessAction, InProcessObserver } from './runners/in-process-runner.ts';
// --- WASM plugins [P-WASM-1..3] ---------------------------------------------------------------
import { PluginHost } from './runners/wasm/plugin-host.ts';
import type { ConfigIssue } from './sources/issues.ts';
import { formatIssue } from './sources/issues.ts';
import type { LurusConfig } from './sources/lurus-source.ts';
import { PLUGINS_DIR } from './sources/plugin-scan.ts';
import { loadPrxConfig, PRX_HOOKS_FILE, type PrxAction, type PrxLoadResult } from './sources/prx-source.ts';
import { type FileWatch, watchFileInDir } from './sources/watch.ts';

export interface HookEngineOptions {
  /** PRX workspace: the folder holding `hooks.json` (and `config.toml`). */
  workspace?: string;
  /** Lurus project folder (holding `.lurus/`); default: the current directory. */
  projectDir?: string;
  /** Folder holding the global `.lurus/` (default `$HOME`). */
  home?: string;
  /**
   * Consent check for project gate hooks [L-TRUST-1]; default: the trust store under `~/.lurus/`.
   * Return `{trusted: true}` to run project hooks without consent (tests, sandboxes).
   */
  trust?: (config: LurusConfig) => { trusted: boolean; reason: string };
  /** Hot-reload `hooks.json` on change [P-CFG-3]. Default true. */
  watch?: boolean;
  /** [P-FF-3] Concurrent hook processes. Default `2 × cores`, at least 4. */
  maxConcurrent?: number;
  /** [P-FF-3] Runs waiting behind them. Default 10 000. */
  maxQueue?: number;
  /** How many recent run records to keep. Default 1000. */
  runLogSize?: number;
  /** `session_id` of events emitted without one. Default: a random `sess_…`. */
  sessionId?: string;
  logger?: Logger;
  /** Debounce of the config watcher, ms. Default 50. */
  reloadDebounceMs?: number;
  /**
   * [P-WASM-1..3] Run the WASM plugins of `<workspace>/plugins/` (reloaded on change when `watch`
   * is on). Default true when a workspace is given.
   */
  plugins?: boolean;
}

export interface EmitOptions {
  sessionId?: string;
  /** Explicit depth (e.g. from `X-Hook-Depth` + 1); default: the current handler's depth + 1. */
  depth?: number;
  /** Envelope timestamp; default now. */
  timestamp?: string;
}

export interface ReloadResult {
  ok: boolean;
  /** True when the registry was replaced. */
  changed: boolean;
  actions: number;
  issues: ConfigIssue[];
}

export interface HookEngine {
  readonly workspace: string | undefined;
  readonly bus: MemoryBus;
  readonly metrics: EngineMetrics;
  emit<E extends PrxEventName>(event: E, payload: PrxPayload<E>, opts?: EmitOptions): void;
  emit(event: string, payload: unknown, opts?: EmitOptions): void;
  /** Re-reads `hooks.json` now; an invalid file keeps the current hooks. */
  reload(): ReloadResult;
  /** Actions currently in force (enabled or not). */
  actions(): readonly PrxAction[];
  /** Problems of the last rejected load, empty when the file in force is the file on disk. */
  configIssues(): readonly ConfigIssue[];
  /** Most recent run records, newest first. */
  runs(opts?: { limit?: number; outcome?: RunOutcome; event?: string }): RunRecord[];
  /** [§2.5] Runs the gate hooks of a Lurus event one after another; the first deny stops the rest. */
  decide(event: LurusEventName, context: LurusContext): Promise<Decision>;
  decide(event: string, context: unknown): Promise<Decision>;
  /**
   * (beyond) In-process hooks. Gate events: `use('PreToolUse', { matcher }, fn)`, answering like a command hook.
   * Observe events: `use('tool_call', fn)`, run fire-and-forget like a shell hook. Returns its removal.
   */
  use(event: LurusEventName, opts: UseOptions, fn: InProcessGateHook): () => void;
  use(event: PrxEventName, fn: InProcessObserver, opts?: { timeout?: number; name?: string }): () => void;
  /** The gate dialect: its sources, issues and trust state. */
  readonly gate: LurusGate;
  /** Waits until every queued and running hook has finished. */
  drain(): Promise<void>;
  /** Stops watching, drops what is still queued, waits for running hooks, removes temp files. */
  close(): Promise<void>;
}

const RUN_TOPIC: Readonly<Record<RunOutcome, string>> = {
  ok: 'hookwerk.run.ok',
  deny: 'hookwerk.run.deny',
  error: 'hookwerk.run.error',
  timeout: 'hookwerk.run.timeout',
  spawn_error: 'hookwerk.run.spawn_error',
  skipped_untrusted: 'hookwerk.run.skipped_untrusted',
  dropped: 'hookwerk.run.dropped',
};

export async function createHookEngine(options: HookEngineOptions = {}): Promise<HookEngine> {
  return new Engine(options);
}

class Engine implements HookEngine {
  readonly workspace: string | undefined;
  readonly bus: MemoryBus;
  readonly metrics: EngineMetrics;
  readonly #logger: Logger;
  readonly #scheduler: ObserveScheduler;
  readonly #log: RunLog;
  readonly #sessionId: string;
  readonly #tmpDir: string;
  readonly #jobs: JobContext;
  #registry = PrxRegistry.empty();
  #loadedText: string | undefined;
  #issues: ConfigIssue[] = [];
  #watch: FileWatch | undefined;
  #closed = false;
  readonly gate: LurusGate;
  #observers = new Map<string, InProcessAction[]>();
  #observerCount = 0;
  #plugins: PluginHost | undefined;

  constructor(opts: HookEngineOptions) {
    this.#logger = opts.logger ?? stderrLogger;
    this.workspace = opts.workspace !== undefined ? path.resolve(opts.workspace) : undefined;
    if (this.workspace !== undefined) assertDirectory(this.workspace);
    this.#scheduler = new ObserveScheduler({
      ...(opts.maxConcurrent !== undefined ? { maxConcurrent: opts.maxConcurrent } : {}),
      ...(opts.maxQueue !== undefined ? { maxQueue: opts.maxQueue } : {}),
    });
    this.metrics = new EngineMetrics({
      queued: () => this.#scheduler.queued,
      running: () => this.#scheduler.running,
    });
    this.bus = new MemoryBus({
      onDrop: (reason) => this.metrics.dropped(reason),
      onHandlerError: (err, topic) =>
        this.#logger.warn(`bus subscriber for ${topic} failed: ${errorText(err)}`),
    });
    this.#log = new RunLog(opts.runLogSize ?? 1000);
    this.#sessionId = opts.sessionId ?? `sess_${randomBytes(6).toString('hex')}`;
    // A private 0700 folder for payload files: no other user can pre-create or read them.
    this.#tmpDir = mkdtempSync(path.join(tmpdir(), 'hookwerk-'));
    this.#jobs = {
      tmpDir: this.#tmpDir,
      record: (record, depth) => this.#record(record, depth),
      dropped: (reason) => this.metrics.dropped(reason),
    };
    this.gate = new LurusGate({
      projectDir: opts.projectDir ?? process.cwd(),
      ...(opts.home !== undefined ? { home: opts.home } : {}),
      trust: opts.trust ?? checkTrust,
      onRecord: (record) => this.#record(record, currentDepth() + 1),
    });
    for (const issue of this.gate.config.issues)
      this.#logger.warn(`skipped gate source: ${formatIssue(issue)}`);
    if (this.workspace !== undefined) {
      this.reload();
      if (opts.watch !== false) {
        this.#watch = watchFileInDir(this.workspace, PRX_HOOKS_FILE, () => this.reload(), {
          debounceMs: opts.reloadDebounceMs ?? 50,
          onError: (err) => this.#logger.error(`watching ${this.workspace} stopped: ${err.message}`),
        });
      }
      // --- WASM plugins [P-WASM-1..3]: load problems go to the logger, a bad plugin is skipped.
      if (opts.plugins !== false) {
        this.#plugins = new PluginHost({
          dir: path.join(this.workspace, PLUGINS_DIR),
          logger: this.#logger,
          watch: opts.watch !== false,
        });
      }
    }
  }

  emit(event: string, payload: unknown, opts?: EmitOptions): void {
    assertPrxPayload(event, payload);
    const sessionId = opts?.sessionId ?? this.#sessionId;
    if (typeof sessionId !== 'string') throw new TypeError('sessionId must be a string');
    const depth = opts?.depth ?? currentDepth() + 1;
    if (!Number.isInteger(depth) || depth < 1) throw new TypeError('depth must be an integer ≥ 1');
    if (this.#closed) {
      this.metrics.dropped('closed');
      return;
    }
    // [P-BUS-3] Beyond depth 8 the whole emit is dropped silently, and counted.
    if (depth > MAX_DEPTH) {
      this.metrics.dropped('depth');
      return;
    }
    const ev = new PrxEventInstance(
      { event, timestamp: opts?.timestamp ?? isoNow(), session_id: sessionId, payload },
      depth,
    );
    this.metrics.emitted(event);
    // [P-BUS-1] Published whether or not hooks are configured.
    this.bus.publish(`prx.lifecycle.${event}`, ev.envelope, { depth, lazyJson: () => ev.json });
    const actions = this.#registry.forEvent(event);
    for (let i = 0; i < actions.length; i++) {
      this.#scheduler.submit(new PrxJob(this.#jobs, actions[i]!, ev));
    }
    const observers = this.#observers.get(event);
    if (observers !== undefined) {
      for (let i = 0; i < observers.length; i++)
        this.#scheduler.submit(new PrxJob(this.#jobs, observers[i]!, ev));
    }
    // --- WASM plugins: a precomputed list per event, one job each through the same scheduler.
    if (this.#plugins !== undefined) {
      const plugins = this.#plugins.forEvent(event);
      for (let i = 0; i < plugins.length; i++)
        this.#scheduler.submit(new PluginJob(this.#jobs, plugins[i]!, ev));
    }
  }

  decide(event: string, context: unknown): Promise<Decision> {
    return this.gate.decide(event, context);
  }

  use(event: string, a: unknown, b?: unknown): () => void {
    if (isPrxEvent(event)) {
      if (typeof a !== 'function') throw new TypeError('use(event, fn): fn must be a function');
      const opts = typeof b === 'object' && b !== null ? b : {};
      const timeout: unknown = Reflect.get(opts, 'timeout');
      const name: unknown = Reflect.get(opts, 'name');
      const observer: InProcessAction = {
        kind: 'in-process',
        name: typeof name === 'string' ? name : `in-process:${event}#${++this.#observerCount}`,
        source: 'in-process',
        event,
        fn: (envelope, info) => a(envelope, info),
        timeoutMs: typeof timeout === 'number' ? timeout : 30_000,
      };
      const list = this.#observers.get(event) ?? [];
      list.push(observer);
      this.#observers.set(event, list);
      return () => {
        const i = list.indexOf(observer);
        if (i >= 0) list.splice(i, 1);
      };
    }
    if (typeof b !== 'function') throw new TypeError('use(event, options, fn): fn must be a function');
    const opts = typeof a === 'object' && a !== null ? a : {};
    const matcher: unknown = Reflect.get(opts, 'matcher');
    const timeout: unknown = Reflect.get(opts, 'timeout');
    const failMode: unknown = Reflect.get(opts, 'failMode');
    const name: unknown = Reflect.get(opts, 'name');
    return this.gate.use(
      event,
      {
        ...(typeof matcher === 'string' ? { matcher } : {}),
        ...(typeof timeout === 'number' ? { timeout } : {}),
        ...(failMode === 'open' || failMode === 'closed' ? { failMode } : {}),
        ...(typeof name === 'string' ? { name } : {}),
      },
      (ctx, info) => b(ctx, info),
    );
  }

  #record(record: RunRecord, depth: number): void {
    this.#log.push(record);
    this.metrics.record(record);
    // Constant topic strings: their hash is computed once, not per record.
    this.bus.publish(RUN_TOPIC[record.outcome], record, { depth });
  }

  reload(): ReloadResult {
    if (this.workspace === undefined) return { ok: true, changed: false, actions: 0, issues: [] };
    const result: PrxLoadResult = loadPrxConfig(this.workspace);
    if (!result.ok) {
      this.#issues = result.issues;
      this.metrics.reloadFailed();
      this.#logger.error(
        `${result.file} rejected, keeping the last good hooks (${this.#registry.size} actions):\n  ${result.issues.map(formatIssue).join('\n  ')}`,
      );
      return { ok: false, changed: false, actions: this.#registry.size, issues: result.issues };
    }
    this.#issues = [];
    // Our own atomic writes and editors' double saves fire the watcher with unchanged content.
    if (result.text === this.#loadedText && this.#registry.size === result.actions.length) {
      return { ok: true, changed: false, actions: this.#registry.size, issues: [] };
    }
    this.#registry = new PrxRegistry(result.actions);
    this.#loadedText = result.text;
    this.metrics.reloaded();
    this.#logger.info(`${result.file}: ${result.actions.length} actions in force`);
    return { ok: true, changed: true, actions: result.actions.length, issues: [] };
  }

  actions(): readonly PrxAction[] {
    return this.#registry.all;
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch?.close();
    // WASM plugins: stop watching, drop calls not yet started, wait for running ones, stop workers.
    const plugins = this.#plugins?.close();
    await this.#scheduler.close();
    await plugins;
    await this.bus.flush();
    rmSync(this.#tmpDir, { recursive: true, force: true });
  }
}

function assertDirectory(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new Error(`workspace ${dir} does not exist`);
  }
  if (!isDir) throw new Error(`workspace ${dir} is not a directory`);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
