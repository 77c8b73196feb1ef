export { MAX_DEPTH } from './bus/depth.ts';
export type { BusHandler, BusMessage } from './bus/memory-bus.ts';
export { MemoryBus } from './bus/memory-bus.ts';
export type { ConsentStatus, ProjectSurface } from './consent/project-consent.ts';
export {
  approveProject,
  approveSurface,
  consentStatus,
  projectFingerprint,
  revokeProject,
} from './consent/project-consent.ts';
export { readTrustStore, removeApproval, trustStorePath } from './consent/trust-store.ts';
export type { HookwerkErrorCode } from './core/errors.ts';
export {
  EngineClosedError,
  HookInputError,
  HookwerkError,
  HookwerkTypeError,
  InvalidOptionError,
  isHookwerkError,
} from './core/errors.ts';
export type { ConfigIssue } from './core/issues.ts';
export { formatIssue } from './core/issues.ts';
export type { Decision } from './dispatch/gate-sequential.ts';
export { createHookEngine } from './engine.ts';
export type {
  EmitOptions,
  GateView,
  HookEngine,
  HookEngineOptions,
  ReloadResult,
  UseOptions,
} from './engine-api.ts';
export type { LurusContext, LurusEnvelope, LurusEventName } from './events/lurus-events.ts';
export { LURUS_EVENT_NAMES, LURUS_EVENTS } from './events/lurus-events.ts';
export type { PrxEnvelope, PrxEventName, PrxPayload } from './events/prx-events.ts';
export { PRX_EVENT_NAMES, PRX_EVENTS } from './events/prx-events.ts';
export type { Logger } from './records/logger.ts';
export type { RunOutcome, RunRecord } from './records/run-record.ts';
export type { Explanation } from './registry/explain.ts';
export type {
  Dialect,
  GateAnswer,
  GateHook,
  HookDefinition,
  HookKind,
  HookOrigin,
  InProcessGateFn,
  InProcessObserverFn,
  ObserveHook,
  RegistryEntry,
  UnapprovedHook,
} from './registry/hook-definition.ts';
export type { RegistryParts } from './registry/registry.ts';
export { Registry } from './registry/registry.ts';
export { HttpRunner } from './runners/http-runner.ts';
export type { HttpEndReason, HttpResult, HttpSpec } from './runners/http-types.ts';
export { ProcessRunner } from './runners/process-runner.ts';
export type { ProcessEndReason, ProcessResult, ProcessSpec } from './runners/process-types.ts';
export type { Ending, RunResult } from './runners/run-result.ts';
export { outcomeOf } from './runners/run-result.ts';
export { findBwrap } from './sandbox/bwrap.ts';
export { SHIPPED_SCHEMAS } from './sources/json-schemas.ts';
export { lurusProblems } from './sources/lurus-problems.ts';
export { lurusHooksFileSchema } from './sources/lurus-schema.ts';
export type { LurusConfig, LurusHook, LurusSource } from './sources/lurus-source.ts';
export { loadLurusConfig } from './sources/lurus-source.ts';
export { PluginHost } from './sources/plugin-host.ts';
export type { PluginManifest, PluginSpec } from './sources/plugin-manifest.ts';
export { pluginManifestSchema } from './sources/plugin-manifest.ts';
export { scanPlugins } from './sources/plugin-scan.ts';
export type { PrxActionConfig, PrxActionInput, PrxHooksFile } from './sources/prx-schema.ts';
export { prxActionSchema, prxHooksFileSchema } from './sources/prx-schema.ts';
export type { PrxAction, PrxLoadResult } from './sources/prx-source.ts';
export { loadPrxConfig } from './sources/prx-source.ts';
