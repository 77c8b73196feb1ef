/**
 * The Gemini CLI events [G-EV-1], described as Gemini CLI's own hook code treats them (read at
 * google-gemini/gemini-cli 5411f113, `packages/core/src/hooks/` and the places that fire them).
 *
 * For each event: what its matcher is tested against, what its hooks can change, and how the
 * answers of several hooks are merged. Where Gemini CLI's docs say otherwise, this table follows
 * the code; docs/gemini.md lists the differences.
 *
 * Matching: tool events test the matcher as an unanchored regex against `tool_name`; SessionStart,
 * SessionEnd and PreCompress compare it exactly with their trigger field. The other events are
 * fired without a match target, so Gemini CLI ignores their matcher altogether (every hook runs),
 * Notification included (its `notification_type` is never matched).
 */

/** How the answers of an event's hooks are folded into one, as Gemini CLI's aggregator does. */
type GeminiMergeStrategy =
  /** Any block/deny wins, then ask, else allow; `continue: false` sticks; texts are joined. */
  | 'or'
  /** Later hooks replace the fields earlier hooks set (`hookSpecificOutput` merged key by key). */
  | 'replace'
  /** Only `toolConfig` is kept: the union of the allowed function names, NONE > ANY > AUTO. */
  | 'union'
  /** Later hooks replace earlier ones; nobody reads the result. */
  | 'simple';

interface GeminiEventInfo {
  /** The input field the matcher is tested against; `null`: the matcher is ignored. */
  readonly matchField: 'tool_name' | 'source' | 'reason' | 'trigger' | null;
  /** `regex`: unanchored regex (an invalid one compares exactly); `exact`: string equality. */
  readonly matchKind: 'regex' | 'exact' | null;
  /** A `block`/`deny` decision (or exit code ≥ 2 with plain text) changes the flow. */
  readonly canBlock: boolean;
  /** What a block does, in Gemini CLI's code. */
  readonly block: string;
  /** `continue: false` stops the agent. */
  readonly canStop: boolean;
  /** `decision: "ask"` is honoured (forces the user's confirmation). */
  readonly canAsk: boolean;
  /** `hookSpecificOutput.additionalContext` reaches the model. */
  readonly context: boolean;
  /** `hookSpecificOutput.tool_input` rewrites the tool's arguments. */
  readonly rewritesToolInput: boolean;
  readonly merge: GeminiMergeStrategy;
}

export const GEMINI_EVENTS = {
  BeforeTool: {
    matchField: 'tool_name',
    matchKind: 'regex',
    canBlock: true,
    block: 'the tool does not run; the model gets "Tool execution blocked: <reason>" as its error',
    canStop: true,
    canAsk: true,
    context: false,
    rewritesToolInput: true,
    merge: 'or',
  },
  AfterTool: {
    matchField: 'tool_name',
    matchKind: 'regex',
    canBlock: true,
    block: 'the tool has run, but the model gets "Tool result blocked: <reason>" instead of its result',
    canStop: true,
    canAsk: false,
    context: true,
    rewritesToolInput: false,
    merge: 'or',
  },
  BeforeAgent: {
    matchField: null,
    matchKind: null,
    canBlock: true,
    block: 'the turn is dropped and the prompt is not kept in history (continue:false keeps it)',
    canStop: true,
    canAsk: false,
    context: true,
    rewritesToolInput: false,
    merge: 'or',
  },
  AfterAgent: {
    matchField: null,
    matchKind: null,
    canBlock: true,
    block: 'the answer is rejected and the reason is sent as a new prompt (a retry, stop_hook_active: true)',
    canStop: true,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'or',
  },
  BeforeModel: {
    matchField: null,
    matchKind: null,
    canBlock: true,
    block: 'the model is not called; hookSpecificOutput.llm_response, if given, stands in for its reply',
    canStop: true,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'replace',
  },
  AfterModel: {
    matchField: null,
    matchKind: null,
    canBlock: true,
    block: 'the response stream ends after the current chunk (which is still passed on) and the turn stops',
    canStop: true,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'replace',
  },
  BeforeToolSelection: {
    matchField: null,
    matchKind: null,
    canBlock: false,
    block: 'none: only hookSpecificOutput.toolConfig is read',
    canStop: false,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'union',
  },
  PreCompress: {
    matchField: 'trigger',
    matchKind: 'exact',
    canBlock: false,
    block: 'none: the result is not read',
    canStop: false,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'simple',
  },
  SessionStart: {
    matchField: 'source',
    matchKind: 'exact',
    canBlock: false,
    block: 'none: only systemMessage and additionalContext are read',
    canStop: false,
    canAsk: false,
    context: true,
    rewritesToolInput: false,
    merge: 'or',
  },
  SessionEnd: {
    matchField: 'reason',
    matchKind: 'exact',
    canBlock: false,
    block: 'none: the result is not read',
    canStop: false,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'simple',
  },
  Notification: {
    matchField: null,
    matchKind: null,
    canBlock: false,
    block: 'none: the result is not read',
    canStop: false,
    canAsk: false,
    context: false,
    rewritesToolInput: false,
    merge: 'simple',
  },
} as const satisfies Record<string, GeminiEventInfo>;

export type GeminiEventName = keyof typeof GEMINI_EVENTS;

export const GEMINI_EVENT_NAMES = Object.keys(GEMINI_EVENTS) as GeminiEventName[];

/**
 * Keys of a settings file's `hooks` object that are settings, not events [G-SRC-1]
 * (Gemini CLI skips them before it looks for event names).
 */
export const GEMINI_HOOKS_SETTING_KEYS: readonly string[] = ['enabled', 'disabled', 'notifications'];

export function isGeminiEvent(name: string): name is GeminiEventName {
  return Object.hasOwn(GEMINI_EVENTS, name);
}

/** BeforeTool and AfterTool: their matcher is a regex on `tool_name`. */
export function geminiIsToolEvent(event: GeminiEventName): boolean {
  return GEMINI_EVENTS[event].matchField === 'tool_name';
}

/** Whether a block (decision `block`/`deny`, exit code ≥ 2 with plain text) changes the flow. */
export function geminiCanBlock(event: GeminiEventName): boolean {
  return GEMINI_EVENTS[event].canBlock;
}

/**
 * [G-EV-1] The value an event's matcher is tested against, read from the hook input; `undefined`
 * when the event has no match target or the field is missing or empty (then every matcher
 * matches, as in Gemini CLI).
 */
export function geminiMatchTarget(
  event: GeminiEventName,
  input: Record<string, unknown>,
): string | undefined {
  const field = GEMINI_EVENTS[event].matchField;
  if (field === null) return undefined;
  const value = input[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
