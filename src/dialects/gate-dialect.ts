/**
 * A gate dialect is one object behind this interface (issue 19): it loads its own sources, checks
 * its own events, builds the input its hooks get, selects and runs them with the gate semantics
 * it follows, and answers in its own decision shape. The engine holds one, chosen from the table
 * (`gate-dialects.ts`), and never asks which one it is.
 */
import type { ConsentPolicy } from '../consent/project-admission.ts';
import type { AgentDecision } from '../dispatch/agent-answer.ts';
import type { GateRunContext } from '../dispatch/gate-parallel.ts';
import type { Decision } from '../dispatch/gate-sequential.ts';
import type { LurusEventName } from '../events/lurus-events.ts';
import type { GateEntry } from '../registry/hook-definition.ts';
import type { AgentConfig } from '../sources/agent-config.ts';
import type { LurusConfig } from './lurus/source.ts';

/** What `decide()` answers: the Lurus decision [L-ANS-4], or the agent dialects' [C-OUT-1]. */
export type GateDecision = Decision | AgentDecision;
/** The gate sources as loaded, of whichever dialect the engine speaks. */
export type GateConfig = LurusConfig | AgentConfig;

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
  consent: ConsentPolicy;
}

/** What one engine lends its gate: made once, never per decide. */
export interface GateRuntime extends GateRunContext {
  /** The engine's session, for inputs that name none [C-IN-1]. */
  readonly sessionId: string;
  /** The entries configured for `event` whose matchers admit `target`, in run order. */
  select(event: string, target: string | undefined): readonly GateEntry[];
  /** Counts a decide in progress (`close()` waits for it); `done` ends it. */
  begin(): void;
  readonly done: () => void;
  /** [N-GATE-1] Set (once connected) when a gate worker over NATS decides instead (it speaks Lurus). */
  remote: ((event: LurusEventName, context: object) => Promise<GateDecision>) | undefined;
}

export interface GateDialectPlugin {
  readonly name: string;
  /** Reads the dialect's gate sources (at start, on `gate.reload()`, when consent changes). */
  load(base: GateLoadBase, options: DialectOptions): GateConfig;
  /** Decides one event; rejects with a HookInputError for an event the dialect does not have. */
  decide(event: string, context: object, rt: GateRuntime): Promise<GateDecision>;
  /** The value matchers test, for `explain`; throws a HookInputError for an unknown event. */
  explainTarget(event: string, given: Record<string, unknown>): string | undefined;
}
