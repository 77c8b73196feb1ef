/**
 * The package entry: the engine, what it takes and answers, its errors and its event tables.
 * Deliberately small (issue 19): loaders, runners and the registry are the engine's own parts;
 * the CLI and the server reach them by path, users through `createHookEngine`. Every type a
 * public signature uses, or an adapter needs to name, is exported here [AD-ALL-1].
 */
// Each dialect declares its option key (`claude: {…}`) and its name in its gate module (module
// augmentation): imported here, those declarations are part of the package's types as well.
import './dialects/claude/gate.ts';
import './dialects/codex/gate.ts';
import './dialects/copilot/gate.ts';
import './dialects/cursor/gate.ts';
import './dialects/gemini/gate.ts';
import './dialects/policy/gate.ts';

export { MAX_DEPTH } from './bus/depth.ts';
export type {
  BusDropReason,
  BusHandler,
  BusMessage,
  BusOptions,
  BusStats,
  LazyPayload,
  PublishOptions,
} from './bus/memory-bus.ts';
export { MemoryBus } from './bus/memory-bus.ts';
export type { ConsentSummary } from './consent/project-admission.ts';
export type {
  ConsentCheck,
  HookConsent,
  ProjectSurface,
  RunTarget,
  SurfaceCommand,
} from './consent/project-consent.ts';
export type { RunWatch } from './consent/run-watch.ts';
export type { HookwerkErrorCode } from './core/errors.ts';
export {
  EngineClosedError,
  HookInputError,
  HookwerkError,
  HookwerkTypeError,
  InvalidOptionError,
  isHookwerkError,
} from './core/errors.ts';
export type { FailMode } from './core/fail-mode.ts';
export type { ConfigIssue } from './core/issues.ts';
export { formatIssue } from './core/issues.ts';
export type { DialectOptions } from './dialects/agent/gate-dialect.ts';
export type { ClaudeOptions } from './dialects/claude/source.ts';
export type { CodexOptions } from './dialects/codex/source.ts';
export type { CopilotOptions } from './dialects/copilot/source.ts';
export type { CursorOptions } from './dialects/cursor/source.ts';
export type { GeminiOptions } from './dialects/gemini/source.ts';
export type {
  LurusConfig,
  LurusHook,
  LurusScope,
  LurusSource,
  SourceState,
} from './dialects/lurus/source.ts';
export type { PolicyOptions } from './dialects/policy/source.ts';
export { AbortError } from './dispatch/abort-error.ts';
export type { AgentDecision, Permission, PermissionRequestAnswer } from './dispatch/agent-answer.ts';
export type { Decision } from './dispatch/gate-sequential.ts';
export { createHookEngine } from './engine.ts';
export type {
  DecideOptions,
  EmitOptions,
  GateConfig,
  GateDecision,
  GateDialect,
  GateView,
  HookEngine,
  HookEngineOptions,
  NatsStatus,
  ReloadResult,
  UseOptions,
} from './engine-api.ts';
export type { LurusContext, LurusEnvelope, LurusEventName } from './events/lurus-events.ts';
export { LURUS_EVENT_NAMES, LURUS_EVENTS } from './events/lurus-events.ts';
export type { PrxEnvelope, PrxEventName, PrxPayload } from './events/prx-events.ts';
export { PRX_EVENT_NAMES, PRX_EVENTS } from './events/prx-events.ts';
export type { NatsOptionsInput } from './nats/nats-options.ts';
export type { JournalEntry, JournalField } from './records/journal-entry.ts';
export { journalDir } from './records/journal-segments.ts';
export type { BreakKind, ChainBreak, JournalVerdict } from './records/journal-verify.ts';
export type { Logger } from './records/logger.ts';
export type { EngineMetrics, StreamSource } from './records/metrics.ts';
export type { JournalQuery, JournalRead, RunJournalOptions } from './records/run-journal.ts';
export { RunJournal } from './records/run-journal.ts';
export type { RunOutcome, RunRecord, TruncatableField } from './records/run-record.ts';
export type { Explanation } from './registry/explain.ts';
export type { HandlerFacts } from './registry/handler-facts.ts';
export type {
  AgentCommandHook,
  AgentHook,
  AgentHttpHook,
  Dialect,
  GateAnswer,
  GateEntry,
  GateHook,
  HookDefinition,
  HookKind,
  HookOrigin,
  HookScope,
  HttpMethod,
  InProcessGateFn,
  InProcessGateHook,
  InProcessObserverFn,
  InProcessObserverHook,
  LurusCommandHook,
  LurusHttpHook,
  ObserveHook,
  PrxActionSettings,
  PrxShellHook,
  RegistryEntry,
  ToolCallRule,
  UnapprovedHook,
  WasmPlugin,
  WasmPluginHook,
} from './registry/hook-definition.ts';
export type { CompiledMatcher } from './registry/matcher.ts';
export type { HostLookup } from './runners/guarded-connect.ts';
export type { LauncherChoice } from './runners/launcher-backend.ts';
export type { BwrapSandbox, WorkspaceAccess } from './sandbox/bwrap.ts';
export type { AgentConfig, AgentSource } from './sources/agent-config.ts';
