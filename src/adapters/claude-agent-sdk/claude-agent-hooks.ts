/**
 * [AD-CAS-1] The Claude Agent SDK's `hooks` option, answered by the engine: every hook event the
 * SDK raises for which the engine has hooks is decided by it (`gateDialect: 'claude'`: the
 * project's Claude Code files, with consent, records and the deterministic merge; `'policy'`:
 * hookwerk's policy files, their permission rules and guards too [G-PERM-1]) and answered in the
 * SDK's own shape. The SDK is used as types only: nothing of it is loaded here.
 */
import type {
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  SyncHookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import { HookwerkError, InvalidOptionError } from '../../core/errors.ts';
import { GATE_EVENTS } from '../../dialects/agent/unusable-sources.ts';
import type { AgentDecision } from '../../dispatch/agent-answer.ts';
import type { GateDecision, HookEngine } from '../../engine-api.ts';
import { toolVocabulary } from '../tool-vocabulary.ts';
import { claudeAgentAnswer } from './claude-agent-answer.ts';

/** The SDK's `hooks` option, in its own types. */
export type ClaudeAgentHooks = Partial<Record<HookEvent, HookCallbackMatcher[]>>;

export interface ClaudeAgentHooksOptions {
  /**
   * The events to answer. Default: those the engine has hooks for when this is called (approved
   * or not: an unapproved one is recorded as skipped), or permission rules or guards (a policy
   * file that cannot be used: the events it denies), but `SessionStart` and `SessionEnd`, which
   * the SDK does not raise for callbacks: run them with `claudeAgentSessionStart` (its env must
   * reach the Claude Code process, which only the host can give it). Answering an event changes
   * what some do in Claude Code (a `WorktreeCreate` hook replaces git's worktree), so none is
   * taken on blindly.
   */
  events?: readonly HookEvent[];
  /**
   * [C-RUN-3] The `export NAME=VALUE` lines a hook wrote to its `CLAUDE_ENV_FILE` (`SessionStart`,
   * `Setup`, `CwdChanged`, `FileChanged`). The hooks run in this process, not in the SDK's Claude
   * Code, so the SDK never sees that file: this hands the variables to the host instead.
   */
  onEnv?: (env: Record<string, string>, event: HookEvent) => void;
  /** Seconds the SDK waits for an answer (its default: 60; PreToolUse fails closed after it). */
  timeout?: number;
  /** What the SDK does when the engine fails to answer (`decide` rejects): its default `continue`. */
  onFailure?: 'continue' | 'block';
}

/** Every event the SDK has, checked against its type: a new one is a compile error here. */
const SDK_EVENTS: Record<HookEvent, true> = {
  PreToolUse: true,
  PostToolUse: true,
  PostToolUseFailure: true,
  PostToolBatch: true,
  Notification: true,
  UserPromptSubmit: true,
  UserPromptExpansion: true,
  SessionStart: true,
  SessionEnd: true,
  Stop: true,
  StopFailure: true,
  SubagentStart: true,
  SubagentStop: true,
  PreCompact: true,
  PostCompact: true,
  PreModelSwitch: true,
  PostModelSwitch: true,
  PermissionRequest: true,
  PermissionDenied: true,
  Setup: true,
  TeammateIdle: true,
  TaskCreated: true,
  TaskCompleted: true,
  Elicitation: true,
  ElicitationResult: true,
  ConfigChange: true,
  WorktreeCreate: true,
  WorktreeRemove: true,
  InstructionsLoaded: true,
  CwdChanged: true,
  FileChanged: true,
  DirectoryAdded: true,
  MessageDisplay: true,
  PreSkillShellCommand: true,
};

function isHookEvent(name: string): name is HookEvent {
  return Object.hasOwn(SDK_EVENTS, name);
}

/** The SDK's hook events, in its order. */
export const CLAUDE_AGENT_EVENTS: readonly HookEvent[] = Object.keys(SDK_EVENTS).filter(isHookEvent);

/**
 * Events the SDK (0.3) never raises for `hooks` callbacks, in a string or a streaming query alike
 * (anthropics/claude-agent-sdk-typescript#83, #465): the host runs them around its query.
 */
const HOST_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'SessionEnd']);

/**
 * Pass the result as `query({ options: { hooks, settingSources: [] } })`: without
 * `settingSources: []` (or at least without `'project'`, `'local'` and `'user'`) the SDK's Claude
 * Code runs the same `.claude/settings.json` hooks itself, a second time.
 */
export function claudeAgentHooks(engine: HookEngine, opts: ClaudeAgentHooksOptions = {}): ClaudeAgentHooks {
  assertClaudeEngine(engine);
  const events =
    opts.events ??
    CLAUDE_AGENT_EVENTS.filter(
      (event) => !HOST_EVENTS.has(event) && (engine.hooks(event).length > 0 || rulesDecide(engine, event)),
    );
  const hooks: ClaudeAgentHooks = {};
  for (const event of events) {
    hooks[event] = [
      {
        hooks: [answering(engine, event, opts)],
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
        ...(opts.onFailure !== undefined ? { onFailure: opts.onFailure } : {}),
      },
    ];
  }
  return hooks;
}

/**
 * [G-PERM-1, G-FAIL-1] The policy decides `event` without a hook: a permission rule or guard is
 * written for it, or a policy file that cannot be used denies it. Such an event is answered too,
 * or a policy of rules alone would never be asked.
 */
function rulesDecide(engine: HookEngine, event: string): boolean {
  const config = engine.gate.config;
  if ('layers' in config && config.layers?.some((layer) => layer.events.includes(event))) return true;
  const unusable = 'unusable' in config ? config.unusable : undefined;
  return unusable !== undefined && !unusable.open && GATE_EVENTS.has(event);
}

/** Throws unless the engine reads Claude Code's events and inputs as the SDK sends them. */
export function assertClaudeEngine(engine: HookEngine): void {
  const dialect = engine.gate.dialect;
  if (!toolVocabulary(dialect).claudeEvents) {
    throw new InvalidOptionError(
      `the Claude Agent SDK adapter needs an engine that reads Claude Code's events (gateDialect: 'claude' or 'policy'), not '${dialect}'`,
    );
  }
}

/** The decision of an engine `assertClaudeEngine` passed: always the Claude-style one [C-OUT-1]. */
export function agentDecision(decision: GateDecision): AgentDecision {
  if ('continue' in decision) return decision;
  throw new HookwerkError('INTERNAL', 'a Claude-dialect engine answered with a Lurus decision');
}

function answering(engine: HookEngine, event: HookEvent, opts: ClaudeAgentHooksOptions): HookCallback {
  return async (input): Promise<SyncHookJSONOutput> => {
    // The SDK's input is Claude Code's own [C-IN-1]: session, cwd, transcript and permission mode
    // come with it, so hooks see what they would see under Claude Code.
    const decision = agentDecision(await engine.decide(event, input));
    if (decision.env !== undefined && Object.keys(decision.env).length > 0) opts.onEnv?.(decision.env, event);
    return claudeAgentAnswer(event, decision);
  };
}
