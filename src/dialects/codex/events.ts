/**
 * The Codex CLI event table [A-CDX-1] (research/codex-facts.md, Codex CLI 0.171): the twelve
 * events Codex fires, which of them a hook can block, which input field their matchers test, and
 * on which plain stdout becomes context. Codex ignores any other event name in its files (serde
 * drops unknown keys), so hookwerk loads none and `decide` refuses them.
 */

/** The input field a Codex matcher is tested against. */
type CodexMatchField = 'tool_name' | 'source' | 'agent_type';

interface CodexEventInfo {
  /** Exit 2 with stderr / `decision: "block"` stops the action (or, for Stop, keeps the agent going). */
  readonly canBlock: boolean;
  /** `null`: matchers are ignored (Codex's `matcher_pattern_for_event`). */
  readonly matchField: CodexMatchField | null;
  /** Plain (non-JSON) stdout on exit 0 becomes a developer message. */
  readonly plainTextIsContext: boolean;
  /** Codex's input for it carries `permission_mode` (every event but SessionEnd and Interrupt). */
  readonly permissionMode: boolean;
}

function ev(
  canBlock: boolean,
  matchField: CodexMatchField | null,
  plainTextIsContext = false,
  permissionMode = true,
): CodexEventInfo {
  return { canBlock, matchField, plainTextIsContext, permissionMode };
}

const CODEX_EVENTS = {
  SessionStart: ev(false, 'source', true),
  UserPromptSubmit: ev(true, null, true),
  PreToolUse: ev(true, 'tool_name'),
  PermissionRequest: ev(false, 'tool_name'),
  PostToolUse: ev(true, 'tool_name'),
  Stop: ev(true, null),
  SubagentStart: ev(false, 'agent_type', true),
  SubagentStop: ev(true, 'agent_type'),
  PreCompact: ev(false, null),
  PostCompact: ev(false, null),
  SessionEnd: ev(false, null, false, false),
  Interrupt: ev(false, null, false, false),
} as const satisfies Record<string, CodexEventInfo>;

export type CodexEventName = keyof typeof CODEX_EVENTS;

export const CODEX_EVENT_NAMES: readonly CodexEventName[] = Object.freeze(
  Object.keys(CODEX_EVENTS).filter(isCodexEvent),
);

export function isCodexEvent(name: string): name is CodexEventName {
  return Object.hasOwn(CODEX_EVENTS, name);
}

export function codexCanBlock(event: string): boolean {
  return isCodexEvent(event) && CODEX_EVENTS[event].canBlock;
}

export function codexMatchField(event: string): CodexMatchField | undefined {
  return isCodexEvent(event) ? (CODEX_EVENTS[event].matchField ?? undefined) : undefined;
}

export function codexPlainTextIsContext(event: string): boolean {
  return isCodexEvent(event) && CODEX_EVENTS[event].plainTextIsContext;
}

export function codexSendsPermissionMode(event: string): boolean {
  return isCodexEvent(event) && CODEX_EVENTS[event].permissionMode;
}

/** The value the event's matchers test: its match field in the input, when a string. */
export function codexMatchTarget(
  event: string,
  input: Readonly<Record<string, unknown>>,
): string | undefined {
  const field = codexMatchField(event);
  if (field === undefined || !Object.hasOwn(input, field)) return undefined;
  const value = input[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Codex's `hook_event_key_label`: the snake_case name in a `[hooks.state."<file>:<label>:<group>:<handler>"]`
 * key of config.toml (`PreToolUse` → `pre_tool_use`).
 */
export function codexEventLabel(event: CodexEventName): string {
  return event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
}
