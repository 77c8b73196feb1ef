/**
 * The engine's public API: `createHookEngine`'s options and what it returns. The implementation is
 * in engine.ts.
 */
import type { MemoryBus } from './bus/memory-bus.ts';
import type { FailMode } from './core/fail-mode.ts';
import type { ConfigIssue } from './core/issues.ts';
import type { DialectOptions, GateDecision } from './dialects/agent/gate-dialect.ts';
import type { GateConfig, GateDialect } from './dialects/gate-dialects.ts';
import type { DecideOptions } from './dispatch/decide-call.ts';
import type { LurusContext, LurusEventName } from './events/lurus-events.ts';
import type { PrxEnvelope, PrxEventName, PrxPayload } from './events/prx-events.ts';
import type { NatsOptionsInput } from './nats/nats-options.ts';
import type { Logger } from './records/logger.ts';
import type { EngineMetrics } from './records/metrics.ts';
import type { RunOutcome, RunRecord } from './records/run-record.ts';
import type { Explanation } from './registry/explain.ts';
import type {
  InProcessGateFn,
  InProcessObserverFn,
  PrxShellHook,
  RegistryEntry,
} from './registry/hook-definition.ts';
import type { HostLookup } from './runners/guarded-connect.ts';
import type { LauncherChoice } from './runners/launcher-backend.ts';

/** Every dialect's own options sit under its name (`claude: {…}`, `gemini: {…}`) [C-LIB-1, G-SRC-1]. */
export interface HookEngineOptions extends DialectOptions {
  /** PRX workspace: the folder holding `hooks.json` (and `config.toml`). */
  workspace?: string;
  /** Lurus project folder (holding `.lurus/`); default: the current directory. */
  projectDir?: string;
  /** Folder holding the global `.lurus/` and the trust store (default `$HOME`). */
  home?: string;
  /**
   * Consent for project gate hooks [L-TRUST-1]; default: the trust store under `<home>/.lurus/`.
   * A function gives a fixed answer instead (`{trusted: true}` runs the current project hooks
   * without pins: embedders that vetted the project themselves, tests).
   */
  trust?: (project: { projectDir: string }) => { trusted: boolean; reason: string };
  /** Parent environment of gate command hooks [L-RUN-3]; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Hot-reload `hooks.json` on change [P-CFG-3]. Default true. */
  watch?: boolean;
  /** [P-FF-3] Concurrent hook processes. Default `2 × cores`, at least 4. */
  maxConcurrent?: number;
  /** [P-FF-3] Runs waiting behind them. Default 10 000. */
  maxQueue?: number;
  /**
   * (issue 11) A run that waited longer than this (ms) for a slot is dropped when it would start:
   * recorded (`cause: "stale"`) and counted (`events_dropped_total{reason="stale"}`). Default
   * 600 000 (10 minutes); `Infinity` turns it off.
   */
  maxQueueAgeMs?: number;
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
  /** [X-PROC-3] How long `close()` lets running hooks finish before stopping them. Default 5000 ms. */
  shutdownGraceMs?: number;
  /**
   * [X-PROC-1] How hook processes are started: `auto` (default: the C launcher where it was built,
   * else the Node launcher), `native`, `node`, or `direct` (`child_process.spawn` from this process).
   * `HOOKWERK_LAUNCHER` in the environment overrides it.
   */
  launcher?: LauncherChoice;
  /** [X-PROC-2] `auto` (default: a cgroup per run where the host allows) or `pgroup` (process groups only). */
  containment?: 'auto' | 'pgroup';
  /**
   * Which gate dialect `decide()` speaks: `lurus` (default), `claude` (Claude Code's files and
   * protocol [§5]) or `gemini` (Gemini CLI's [§6]).
   */
  gateDialect?: GateDialect;
  /**
   * (issue 11) Resolver for HTTP hook host names, `dns.lookup`'s shape (default `dns.lookup`).
   * Link-local and metadata addresses it answers are refused all the same (`blocked_address`).
   */
  httpLookup?: HostLookup;
  /**
   * [N-BUS-1..N-OPS-1] Connect to NATS: the bus is bridged, emits are published (core or durable),
   * and `decide()` may ask a gate worker. `createHookEngine` then resolves once connected.
   */
  nats?: NatsOptionsInput;
  /** With `nats`: deliver NATS messages to this engine's bus subscribers (default true; workers say false). */
  natsInbound?: boolean;
}

// What the engine's own signatures use, in one place for the façade.
export type {
  DecideOptions,
  Explanation,
  GateConfig,
  GateDecision,
  GateDialect,
  MemoryBus,
  PrxEnvelope,
  PrxShellHook,
  RegistryEntry,
  RunOutcome,
  RunRecord,
};

export interface EmitOptions {
  sessionId?: string;
  /** Explicit depth (e.g. from `X-Hook-Depth` + 1); default: the current handler's depth + 1. */
  depth?: number;
  /** Envelope timestamp; default now. */
  timestamp?: string;
  /** [N-DUR-1] Durable NATS mode: the `Nats-Msg-Id` (the same id again within 2 minutes runs once). Default a fresh random id. */
  eventId?: string;
}

export interface ReloadResult {
  ok: boolean;
  /** True when the registry was replaced. */
  changed: boolean;
  actions: number;
  issues: ConfigIssue[];
}

export interface UseOptions {
  matcher?: string;
  /** ms; default 30 000. */
  timeout?: number;
  failMode?: FailMode;
  /** Name in records; default `in-process:<event>#<n>`. */
  name?: string;
}

/** The gate's sources, issues and consent, as loaded. */
export interface GateView {
  readonly dialect: GateDialect;
  readonly config: GateConfig;
  readonly trust: { trusted: boolean; reason: string; pending: readonly string[] };
  /** Re-reads every gate source now (never automatic [L-SRC-4]; consent changes are seen on their own). */
  reload(): GateConfig;
}

/** What an engine tells of its NATS connection [N-CONN-1]. */
export interface NatsStatus {
  readonly connected: boolean;
  /** The server URLs, passwords shown as `***` [N-SEC-1]. */
  readonly servers: string;
  /** Resolves once the server has everything sent so far. */
  flush(): Promise<void>;
}

export interface HookEngine {
  readonly workspace: string | undefined;
  readonly bus: MemoryBus;
  readonly metrics: EngineMetrics;
  /** The session of emits and gate runs whose input names none (`sessionId` option, else a random `sess_…`). */
  readonly sessionId: string;
  emit<E extends PrxEventName>(event: E, payload: PrxPayload<E>, opts?: EmitOptions): void;
  emit(event: string, payload: unknown, opts?: EmitOptions): void;
  /**
   * Re-reads `hooks.json` now; an invalid file keeps the current hooks, and so does a workspace
   * folder that is gone (ok, not changed; warned once).
   */
  reload(): ReloadResult;
  /** hooks.json actions currently in force (enabled or not). */
  actions(): readonly PrxShellHook[];
  /** Problems of the last rejected load, empty when the file in force is the file on disk. */
  configIssues(): readonly ConfigIssue[];
  /** Most recent run records, newest first. */
  runs(opts?: { limit?: number; outcome?: RunOutcome; event?: string }): RunRecord[];
  /**
   * [§2.5] Runs the gate hooks of an event (Lurus: one after another, the first deny stops the
   * rest; Claude-style dialects: as that agent does). Rejects (never throws) with a
   * HookInputError for a bad event, context or option, after close(), and with an `AbortError`
   * when `opts.signal` aborts before or during it [AD-ALL-1].
   */
  decide(event: LurusEventName, context: LurusContext, opts?: DecideOptions): Promise<GateDecision>;
  decide(event: string, context: unknown, opts?: DecideOptions): Promise<GateDecision>;
  /**
   * (beyond) In-process hooks. Gate events: `use('PreToolUse', { matcher }, fn)`, answering like a command hook.
   * Observe events: `use('tool_call', fn)`, run fire-and-forget like a shell hook. Returns its removal.
   */
  use(event: LurusEventName, opts: UseOptions, fn: InProcessGateFn): () => void;
  use(event: PrxEventName, fn: InProcessObserverFn, opts?: { timeout?: number; name?: string }): () => void;
  /** Every hook configured for an event, whether it would run for this target, and if not, why. */
  explain(event: string, target?: Record<string, unknown>): Explanation[];
  /** The hooks configured for an event, in run order (approved or not), as the registry holds them now. */
  hooks(event: string): readonly RegistryEntry[];
  /** The gate dialect: its sources, issues and consent state. */
  readonly gate: GateView;
  /** [N-BUS-1] The NATS connection's state, when `nats` was given. */
  readonly nats: NatsStatus | undefined;
  /** Waits until every queued and running hook has finished. */
  drain(): Promise<void>;
  /**
   * [N-WORK-1] Runs this workspace's observe hooks for an event that was emitted elsewhere (a
   * worker's events from NATS), at its depth; resolves with its run records once all are made.
   * Rejects with a HookInputError for an envelope that is not a valid event.
   */
  receive(envelope: PrxEnvelope, depth: number): Promise<RunRecord[]>;
  /**
   * Stops watching, drops what is still queued, gives running hooks `shutdownGraceMs`, then stops
   * them (process groups killed), closes the HTTP pool and plugin workers, removes temp files.
   */
  close(): Promise<void>;
}
