import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentDepth, MAX_DEPTH } from './bus/depth.ts';
import { MemoryBus } from './bus/memory.ts';
import type { ConfigIssue } from './config/issues.ts';
import { formatIssue } from './config/issues.ts';
import { loadPrxConfig, PRX_HOOKS_FILE, type PrxAction, type PrxLoadResult } from './config/prx.ts';
import { type FileWatch, watchFileInDir } from './config/watch.ts';
import { runPrxAction } from './dialects/prx.ts';
import { ObserveScheduler } from './dispatch/observe.ts';
import { assertPrxPayload, PrxEventInstance, type PrxEventName, type PrxPayload } from './events/prx.ts';
import { type Logger, stderrLogger } from './logger.ts';
import { EngineMetrics } from './metrics.ts';
import type { RunOutcome, RunRecord } from './records.ts';
import { PrxRegistry } from './registry.ts';
import { RunLog } from './run-log.ts';
import { killAllRunning } from './runners/process.ts';

export interface HookEngineOptions {
  /** PRX workspace: the folder holding `hooks.json` (and `config.toml`). */
  workspace?: string;
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
  /** Waits until every queued and running hook has finished. */
  drain(): Promise<void>;
  /** Stops watching, drops what is still queued, waits for running hooks, removes temp files. */
  close(): Promise<void>;
}

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
  #registry = PrxRegistry.empty();
  #loadedText: string | undefined;
  #issues: ConfigIssue[] = [];
  #watch: FileWatch | undefined;
  #closed = false;

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
      onDrop: (reason) => this.metrics.dropped.inc({ reason }),
      onHandlerError: (err, topic) =>
        this.#logger.warn(`bus subscriber for ${topic} failed: ${errorText(err)}`),
    });
    this.#log = new RunLog(opts.runLogSize ?? 1000);
    this.#sessionId = opts.sessionId ?? `sess_${randomBytes(6).toString('hex')}`;
    // A private 0700 folder for payload files: no other user can pre-create or read them.
    this.#tmpDir = mkdtempSync(path.join(tmpdir(), 'hookwerk-'));
    if (this.workspace !== undefined) {
      this.reload();
      if (opts.watch !== false) {
        this.#watch = watchFileInDir(this.workspace, PRX_HOOKS_FILE, () => this.reload(), {
          debounceMs: opts.reloadDebounceMs ?? 50,
          onError: (err) => this.#logger.error(`watching ${this.workspace} stopped: ${err.message}`),
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
      this.metrics.dropped.inc({ reason: 'closed' });
      return;
    }
    // [P-BUS-3] Beyond depth 8 the whole emit is dropped silently, and counted.
    if (depth > MAX_DEPTH) {
      this.metrics.dropped.inc({ reason: 'depth' });
      return;
    }
    const ev = new PrxEventInstance(
      { event, timestamp: opts?.timestamp ?? new Date().toISOString(), session_id: sessionId, payload },
      depth,
    );
    this.metrics.emitted.inc({ event });
    // [P-BUS-1] Published whether or not hooks are configured.
    this.bus.publish(`prx.lifecycle.${event}`, ev.envelope, { depth, lazyJson: () => ev.json });
    const actions = this.#registry.forEvent(event);
    for (let i = 0; i < actions.length; i++) {
      this.#scheduler.submit(this.#job(actions[i]!, ev));
    }
  }

  #job(action: PrxAction, ev: PrxEventInstance) {
    const base = {
      hook: action.name,
      source: action.source,
      event: action.event,
      at: ev.envelope.timestamp,
      sessionId: ev.envelope.session_id,
      depth: ev.depth,
    };
    return {
      run: async () => {
        const result = await runPrxAction(action, ev, this.#tmpDir);
        this.#record({ ...base, ...result }, ev.depth);
      },
      drop: (reason: 'queue_full' | 'closed') => {
        this.metrics.dropped.inc({ reason });
        this.#record(
          { ...base, outcome: 'dropped', durationMs: 0, cause: reason, reason: dropReason(reason) },
          ev.depth,
        );
      },
    };
  }

  #record(record: RunRecord, depth: number): void {
    this.#log.push(record);
    this.metrics.record(record);
    this.bus.publish(`hookwerk.run.${record.outcome}`, record, { depth });
  }

  reload(): ReloadResult {
    if (this.workspace === undefined) return { ok: true, changed: false, actions: 0, issues: [] };
    const result: PrxLoadResult = loadPrxConfig(this.workspace);
    if (!result.ok) {
      this.#issues = result.issues;
      this.metrics.reloadErrors.inc();
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
    this.metrics.reloads.inc();
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
      if (this.#scheduler.queued === 0 && this.#scheduler.running === 0) return;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch?.close();
    await this.#scheduler.close();
    await this.bus.flush();
    await killAllRunning();
    rmSync(this.#tmpDir, { recursive: true, force: true });
  }
}

function dropReason(reason: 'queue_full' | 'closed'): string {
  return reason === 'queue_full' ? 'the run queue was full' : 'the engine was closed before the run started';
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
