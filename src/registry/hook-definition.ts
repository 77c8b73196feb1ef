/**
 * The one hook model: every hook of every source (hooks.json, the gate sources, plugins/,
 * `use()`) becomes one of these, validated and resolved at load. A definition is immutable and
 * carries everything its run needs (env, cwd, limits, consent), so a reload that builds new
 * definitions never changes what a running hook reads.
 */
import type { HookConsent } from '../consent/project-consent.ts';
import type { FailMode } from '../core/fail-mode.ts';
import type { LurusContext, LurusEventName } from '../events/lurus-events.ts';
import type { PrxEnvelope, PrxEventName } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { RuleCondition } from '../rules/rule-condition.ts';
import type { BwrapSandbox } from '../sandbox/bwrap.ts';
import type { CompiledMatcher } from './matcher.ts';

/** The methods an HTTP hook may use ([L-RUN-5]); others are refused at load time. */
export type HttpMethod = 'POST' | 'PUT' | 'PATCH';

/**
 * [C-RUN-1] A rule that admits a tool call or not (Claude Code's `if: "Bash(git push*)"`),
 * compiled by the dialect that reads it; the gate only asks it.
 */
export interface ToolCallRule {
  /** As written. */
  readonly rule: string;
  admits(toolName: string | undefined, toolInput: unknown): boolean;
}

/** A loaded WASM plugin as the hook model sees it: the runner that owns its worker implements it. */
export interface WasmPlugin {
  readonly name: string;
  call(event: string, json: string): Promise<Pick<RunRecord, 'outcome' | 'cause' | 'reason' | 'stderrTail'>>;
}

/**
 * A PRX action as validated from hooks.json, defaults filled in: what the API shows of it (the
 * source's zod schema produces exactly this; `dialects/prx/schema.ts` checks that it does).
 */
export interface PrxActionSettings {
  id?: string | undefined;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string | undefined;
  timeout_ms: number;
  stdin_json: boolean;
  keep_children?: boolean | undefined;
  sandbox?: 'none' | 'bwrap' | undefined;
  sandbox_workspace?: 'rw' | 'ro' | undefined;
  enabled: boolean;
  created_at?: string | undefined;
  updated_at?: string | undefined;
}

/**
 * The names of the Claude-style dialects (Claude Code, Gemini CLI and the agents that copy them):
 * each dialect folder adds its own (`declare module`), so adding one touches nothing here.
 */
// biome-ignore lint/suspicious/noEmptyInterface: dialect folders augment it with their names.
export interface AgentDialectNames {}
export type AgentDialectName = keyof AgentDialectNames & string;
export type Dialect = 'prx' | 'lurus' | AgentDialectName;
export type HookKind = 'process' | 'http' | 'in-process' | 'wasm' | 'rule';
/**
 * Who configured it. Descriptive: what a hook needs to run is carried by its `consent` (project,
 * local and agent-plugin hooks run under the project's approval).
 */
export type HookScope =
  | 'workspace'
  | 'plugin'
  | 'global'
  | 'project'
  | 'in-process'
  | 'managed'
  | 'user'
  | 'local'
  | 'system';
export type { FailMode };

/** Where a definition came from, so every error, explanation and record can name it. */
export interface HookOrigin {
  /** `file#/json/pointer`, a plugin manifest, or `in-process`. */
  source: string;
  scope: HookScope;
  /** The file, when there is one. */
  file?: string;
  /** JSONPath inside the file (`$.PreToolUse[0].hooks[1]`). */
  path?: string;
}

interface HookCommon {
  /** The name in records: an `id`, `event[index]`, the command, `METHOD url`, a plugin name. */
  name: string;
  event: string;
  dialect: Dialect;
  origin: HookOrigin;
  /** What the event's target (tool name, trigger) must match; always-true for observe events. */
  matcher: CompiledMatcher;
  timeoutMs: number;
  failMode: FailMode;
  /** A disabled hook stays listed (explain, the API) and never runs. */
  enabled: boolean;
  /** Why it is disabled, when not by its own `enabled: false` (e.g. `disableAllHooks`). */
  disabledReason?: string;
}

/** [P-CFG-2] A PRX shell action: exec form, env built from nothing, three payload channels. */
export interface PrxShellHook extends HookCommon {
  kind: 'process';
  dialect: 'prx';
  event: PrxEventName;
  id?: string;
  /** Position in its event's list in hooks.json (the API's view of the file). */
  index: number;
  /** Absolute path, or a bare name looked up in the sanitized PATH. */
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  stdinJson: boolean;
  /** [X-PROC-2] `keep_children: true`: processes it starts outlive its run. */
  keepChildren?: boolean;
  sandbox?: BwrapSandbox;
  /** The action as validated (defaults filled in), for the API. */
  config: PrxActionSettings;
}

/** Fields every gate-dialect definition has. */
interface GateCommon extends HookCommon {
  dialect: 'lurus';
  event: LurusEventName;
  /** Set for project hooks: the approval they run under, re-checked right before each run. */
  consent?: HookConsent;
}

/** [L-RUN-2] A command hook: `/bin/sh -c command` in the project folder, event JSON on stdin. */
export interface LurusCommandHook extends GateCommon {
  kind: 'process';
  command: string;
  /** The complete environment, taken at load [L-RUN-3]. */
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** The script the command runs, when it names one: a missing one fails before running. */
  script?: string;
  /** [X-PROC-2] `"keepChildren": true`: processes it starts outlive its run. */
  keepChildren?: boolean;
}

/** [L-RUN-5] An HTTP hook: the event JSON as the body. */
export interface LurusHttpHook extends GateCommon {
  kind: 'http';
  url: string;
  method: HttpMethod;
  headers: Readonly<Record<string, string>>;
  /** (issue 11) `"allowLinkLocal": true`: link-local and cloud metadata addresses may be reached. */
  allowLinkLocal?: true;
}

/** What an in-process gate hook may answer; `undefined` means allow. */
export type GateAnswer =
  | { decision: 'allow' | 'deny'; reason?: string; additionalContext?: string }
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: lets `async (ctx) => {}` (no return: allow) type-check.
  | void;

export type InProcessGateFn = (
  context: LurusContext,
  info: { event: LurusEventName; signal: AbortSignal; cwd: string },
) => GateAnswer | Promise<GateAnswer>;

/** (beyond) `engine.use('PreToolUse', opts, fn)`: answers like a command hook, at function-call cost. */
export interface InProcessGateHook extends GateCommon {
  kind: 'in-process';
  fn: InProcessGateFn;
}

/** An in-process observer of a PRX event: fire-and-forget, its result is ignored. */
export type InProcessObserverFn = (
  envelope: PrxEnvelope,
  info: { signal: AbortSignal; depth: number },
) => unknown;

/** (beyond) `engine.use('tool_call', fn)`: run like a shell hook (bounds, record), in-process. */
export interface InProcessObserverHook extends HookCommon {
  kind: 'in-process';
  dialect: 'prx';
  fn: InProcessObserverFn;
}

/** [P-WASM-1..3] A WASM plugin: one warm worker (the runner), the events its patterns select. */
export interface WasmPluginHook extends HookCommon {
  kind: 'wasm';
  dialect: 'prx';
  plugin: WasmPlugin;
}

/** Fields of a Claude Code [§5] or Gemini CLI [§6] hook, read leniently from those tools' files. */
interface AgentCommon extends HookCommon {
  dialect: AgentDialectName;
  /** Any name: those tools accept events we do not know. */
  event: string;
  /** Set for project, local and plugin hooks: the approval they run under. */
  consent?: HookConsent;
  /** Position in configuration order: answers are merged in this order, not finish order [C-ANS-4]. */
  order: number;
  /** Identical handlers from several settings files run once [C-RUN-2, G-SRC-1]. */
  dedupeKey: string;
  /** [C-RUN-1] Runs in the background: never decides, still recorded. */
  async: boolean;
  /** [C-RUN-1] `if: "Tool(pattern)"`, compiled at load. */
  ifRule?: ToolCallRule;
  /** Plugin hooks: the plugin folder (`CLAUDE_PLUGIN_ROOT`) and its data folder (`CLAUDE_PLUGIN_DATA`). */
  pluginRoot?: string;
  pluginData?: string;
  /** [G-RUN-1] Its definition asked for `sequential: true`. */
  sequential?: boolean;
  /** [G-RUN-1] Gemini hooks: `<home>/.gemini/tmp/<project>`, under which `GEMINI_PLANS_DIR` lies. */
  geminiTempDir?: string;
  statusMessage?: string;
  /** [X-PROC-2] Leave the processes it starts running. */
  keepChildren?: boolean;
}

/** A command handler: shell form (`/bin/sh -c`) or, with `args`, exec form [C-RUN-1]. */
export interface AgentCommandHook extends AgentCommon {
  kind: 'process';
  /** The command as written (names, reviews, pins). */
  command: string;
  /** Exec form: the program and its arguments (placeholders substituted at load); absent for shell form. */
  exec?: { program: string; args: readonly string[] };
  /** Exec form: the arguments as written (what consent pinned them as). */
  args?: readonly string[];
  /** The shell that runs shell form (`/bin/sh`; Gemini: `bash` where present; Codex: `$SHELL`). */
  shell: string;
  /** The shell's options before the command (default `-c`; Codex: `-lc`, a login shell). */
  shellArgs?: readonly string[];
  /** The environment taken at load [C-RUN-3, G-RUN-1]; per-run variables are added when it runs. */
  env: Readonly<Record<string, string>>;
  /** Working folder when the input names none. */
  cwd: string;
  /** [A-COP-1] Runs in `cwd` whatever the input's `cwd` says (Copilot CLI: the repo root or the hook's own). */
  ownCwd?: true;
  /** Names the hook's own `env` sets: they win over per-run variables (Gemini CLI spreads them last). */
  ownEnv?: readonly string[];
}

/** An HTTP handler: the input object as the POST body [C-RUN-1]. */
export interface AgentHttpHook extends AgentCommon {
  kind: 'http';
  url: string;
  /** Headers with `$VAR` expanded for the names in `allowedEnvVars`, at load. */
  headers: Readonly<Record<string, string>>;
  /** (issue 11) hookwerk's `"allowLinkLocal": true`: link-local and cloud metadata addresses may be reached. */
  allowLinkLocal?: true;
}

/**
 * (SPEC §14.4) A `rule` handler of a policy file: a CEL condition, compiled at load, and the answer
 * it gives when the condition holds. Runs in-process, never spawns, never reaches the network
 * [G-CEL-1, G-CEL-2]; its `timeoutMs` is its wall-clock budget.
 */
export interface AgentRuleHook extends AgentCommon {
  kind: 'rule';
  condition: RuleCondition;
  /** Absent: a context-only rule (it only adds `additionalContext`). */
  decision?: 'deny' | 'ask' | 'allow';
  reason?: string;
  additionalContext?: string;
}

export type AgentHook = AgentCommandHook | AgentHttpHook | AgentRuleHook;
/** A hook that runs outside hookwerk's process: a command or an HTTP call (the runners' business). */
export type AgentExternalHook = AgentCommandHook | AgentHttpHook;
export type ObserveHook = PrxShellHook | InProcessObserverHook | WasmPluginHook;
export type LurusGateHook = LurusCommandHook | LurusHttpHook | InProcessGateHook;
export type GateHook = LurusGateHook | AgentHook;
export type HookDefinition = ObserveHook | GateHook;

/**
 * [L-TRUST-3] A hook of a source that is not approved: listed so its skip is recorded, but
 * nothing of it was evaluated (no matcher compiled, nothing resolved).
 */
export interface UnapprovedHook {
  kind: 'unapproved';
  name: string;
  event: string;
  dialect: Dialect;
  origin: HookOrigin;
  /** One line: why it may not run. */
  reason: string;
}

/** One entry of the registry for an event: a hook that may run, or an unapproved one to list. */
export type RegistryEntry = HookDefinition | UnapprovedHook;
/** What a gate event selects: gate hooks, and unapproved ones to record as skipped. */
export type GateEntry = GateHook | UnapprovedHook;
/** What the Lurus gate walks. */
export type LurusGateEntry = LurusGateHook | UnapprovedHook;
