/**
 * A gate dialect is one object behind this interface (issue 19): it loads its own sources, checks
 * its own events, builds the input its hooks get, selects and runs them with the gate semantics
 * it follows, and answers in its own decision shape. The engine holds one, chosen from the table
 * (`gate-dialects.ts`), and never asks which one it is.
 */
import type { ConsentPolicy } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import type { AgentDecision } from '../../dispatch/agent-answer.ts';
import type { DecideCall } from '../../dispatch/decide-call.ts';
import type { GateLayer } from '../../dispatch/gate-layer.ts';
import type { GateRunContext } from '../../dispatch/gate-parallel.ts';
import type { Decision } from '../../dispatch/gate-sequential.ts';
import type { LurusEventName } from '../../events/lurus-events.ts';
import type { GateEntry } from '../../registry/hook-definition.ts';
import type { AgentConfig, UnusableSources } from '../../sources/agent-config.ts';
import type { ToolVocabulary } from './tool-vocabulary.ts';

/** What `decide()` answers: the Lurus decision [L-ANS-4], or the agent dialects' [C-OUT-1]. */
export type GateDecision = Decision | AgentDecision;

/**
 * Options of each dialect, under its name (`claude: {...}`): each dialect folder adds its own key
 * to this interface, and `createHookEngine` takes them all.
 */
// biome-ignore lint/suspicious/noEmptyInterface: dialect folders augment it with their own keys.
export interface DialectOptions {}

/** What every dialect's loader is given. */
export interface GateLoadBase {
  projectDir: string;
  home?: string;
  /** Parent environment of command hooks; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Omitted (`validate`, `trust`): the current text of every source is read, approved or not. */
  consent?: ConsentPolicy;
  /** The project as read for consent, when the caller read it already (`readGateProject`). */
  project?: ProjectRead;
}

/** The command line's flags every dialect may take its options from. */
export interface DialectCliFlags {
  /** `--plugin-dir`, resolved: agent plugin folders approved and run with the project. */
  pluginDirs: readonly string[];
}

/** What one engine lends its gate: made once, never per decide. */
export interface GateRuntime extends GateRunContext {
  /** The entries configured for `event` whose matchers admit `target`, in run order. */
  select(event: string, target: string | undefined): readonly GateEntry[];
  /**
   * [G-FAIL-1] The loaded sources that exist but cannot be used and must not leave the gate open
   * (hookwerk's strict policy files), or undefined when there are none.
   */
  unusable(): UnusableSources | undefined;
  /** [G-PERM-1] The layers of verdicts that run before the hooks (none: empty). */
  layers(): readonly GateLayer[];
  /** Counts a decide in progress (`close()` waits for it); `done` ends it. */
  begin(): void;
  readonly done: () => void;
  /** [N-GATE-1] Set (once connected) when a gate worker over NATS decides instead (it speaks Lurus). */
  remote:
    | ((event: LurusEventName, context: object, call: DecideCall | undefined) => Promise<GateDecision>)
    | undefined;
}

/**
 * One gate dialect. `C` is its sources as loaded (`AgentConfig` for the agent dialects); the
 * table (`gate-dialects.ts`) names the union of them, `GateConfig`, so this base imports no
 * dialect folder (issue 31).
 */
export interface GateDialectPlugin<C = AgentConfig> {
  readonly name: string;
  /** What people call it: `Claude Code`. */
  readonly label: string;
  /** Reads the dialect's gate sources (at start, on `gate.reload()`, when consent changes). */
  load(base: GateLoadBase, options: DialectOptions): C;
  /**
   * Decides one event; rejects with a HookInputError for an event the dialect does not have. With
   * `call`: its signal stops the runs (the decision as far as it got is returned: the host rejects
   * [AD-ALL-1]), its trace is the parent of their spans [AD-OTEL-1].
   */
  decide(event: string, context: object, rt: GateRuntime, call?: DecideCall): Promise<GateDecision>;
  /** The value matchers test, for `explain`; throws a HookInputError for an unknown event. */
  explainTarget(event: string, given: Record<string, unknown>): string | undefined;
  /** The input field an event's matchers test (`explain --trigger`); undefined: none. */
  matchField(event: string): string | undefined;
  /** Its options from the command line's flags. */
  cliOptions(flags: DialectCliFlags): DialectOptions;
}

/**
 * A dialect's entry in the table (`gate-dialects.ts`, issue 31): what is cheap to know without
 * loading it (its name, what people call it, its tool vocabulary), and `load`, which imports the
 * dialect itself only when an engine or command needs it — so a cold `hookwerk hook` loads the
 * one dialect it runs, not all of them [G-PERF-1].
 */
export interface GateDialectEntry<C = AgentConfig> {
  readonly name: string;
  readonly label: string;
  /** How the adapters put a tool call to it [AD-AI-1]. */
  readonly tools: ToolVocabulary;
  load(): Promise<GateDialectPlugin<C>>;
}

/** A Claude-style dialect's plugin: its sources load into the shared agent shape. */
export type AgentGatePlugin = GateDialectPlugin<AgentConfig>;

/** A Claude-style dialect's entry. */
export interface AgentGateEntry extends GateDialectEntry<AgentConfig> {
  /** `hookwerk demo --dialect NAME`: a bundled project guarded in this agent's own format. */
  readonly demo?: DialectDemo;
}

/** One scripted question to the gate: event, the agent's input, what it stands for. */
export type DemoStep = readonly [event: string, input: Record<string, unknown>, what: string];

export interface DialectDemo {
  /** The folder under `examples/` copied into a temp project. */
  readonly example: string;
  /** One line on the files it holds (`.claude/settings.json: …`). */
  readonly files: string;
  /** Asked before consent: project hooks must not run. */
  readonly before: DemoStep;
  readonly steps: readonly DemoStep[];
  /** A log file (relative to the project) an observing hook writes, to count its lines. */
  readonly log?: { file: string; what: string };
  /** An event and input for the "try it yourself" line. */
  readonly tryIt: readonly [event: string, input: Record<string, unknown>];
}
