/**
 * The Claude Code event table [§5]: which events can block [C-EV-1], which input field a matcher
 * is tested against [C-MATCH-1], which events get `CLAUDE_ENV_FILE` [C-RUN-3], on which plain
 * stdout becomes context [C-ANS-1] and whose input carries `permission_mode` [C-IN-1]. Any other
 * event name is accepted [C-EV-1, C-SRC-3]: it never blocks, its matchers are ignored, it gets no
 * env file, its plain stdout is only recorded, and no `permission_mode` is filled in.
 */

/** The input fields a Claude Code matcher can be tested against [C-MATCH-1]. */
type ClaudeMatchField =
  | 'tool_name'
  | 'source'
  | 'trigger'
  | 'notification_type'
  | 'reason'
  | 'agent_type'
  | 'error';

interface ClaudeEventInfo {
  /** [C-EV-1] Exit 2 / `decision: "block"` stops the action. */
  readonly canBlock: boolean;
  /** [C-MATCH-1] The input field the matcher is tested against; `null`: matchers are ignored. */
  readonly matchField: ClaudeMatchField | null;
  /** [C-RUN-3] Command hooks get a `CLAUDE_ENV_FILE` of their own. */
  readonly envFile: boolean;
  /** [C-ANS-1] Plain (non-JSON) stdout on exit 0 becomes `additionalContext`. */
  readonly plainTextIsContext: boolean;
  /** [C-IN-1] Claude Code's input for this event carries `permission_mode`. */
  readonly permissionMode: boolean;
}

function ev(
  canBlock: boolean,
  matchField: ClaudeMatchField | null,
  extra: { envFile?: boolean; plainTextIsContext?: boolean; permissionMode?: boolean } = {},
): ClaudeEventInfo {
  return {
    canBlock,
    matchField,
    envFile: extra.envFile ?? false,
    plainTextIsContext: extra.plainTextIsContext ?? false,
    permissionMode: extra.permissionMode ?? false,
  };
}

/** Shorthand for the events whose input carries `permission_mode`. */
const MODE = { permissionMode: true } as const;

/**
 * The 31 events Claude Code documents (research §1). `canBlock` follows C-EV-1, which is the
 * contract here even where Claude Code's own per-event table differs (C-EV-1 says that
 * `Elicitation`, `ElicitationResult` and `WorktreeCreate` never block; that `PostToolUse` and
 * `PostToolUseFailure` block, meaning their reason is fed back to the model). `matchField`
 * follows C-MATCH-1: events it does not name ignore their matcher, even those Claude Code filters
 * on another field (`InstructionsLoaded`, `UserPromptExpansion`, `FileChanged`, `Elicitation`…).
 * `permissionMode` is where Claude Code 2.1.197 builds the input with the session's permission
 * mode (read in its binary: the others, SessionStart among them, are built without one).
 */
export const CLAUDE_EVENTS = {
  SessionStart: ev(false, 'source', { envFile: true, plainTextIsContext: true }),
  Setup: ev(false, 'trigger', { envFile: true }),
  InstructionsLoaded: ev(false, null),
  UserPromptSubmit: ev(true, null, { plainTextIsContext: true, ...MODE }),
  UserPromptExpansion: ev(true, null, { plainTextIsContext: true, ...MODE }),
  MessageDisplay: ev(false, null),
  PreToolUse: ev(true, 'tool_name', MODE),
  PermissionRequest: ev(false, 'tool_name', MODE),
  PermissionDenied: ev(false, 'tool_name', MODE),
  PostToolUse: ev(true, 'tool_name', MODE),
  PostToolUseFailure: ev(true, 'tool_name', MODE),
  PostToolBatch: ev(true, null, MODE),
  Notification: ev(false, 'notification_type'),
  SubagentStart: ev(false, 'agent_type'),
  SubagentStop: ev(true, 'agent_type', MODE),
  TaskCreated: ev(true, null, MODE),
  TaskCompleted: ev(true, null, MODE),
  Stop: ev(true, null, MODE),
  StopFailure: ev(false, 'error'),
  TeammateIdle: ev(true, null, MODE),
  ConfigChange: ev(true, 'source'),
  CwdChanged: ev(false, null, { envFile: true }),
  DirectoryAdded: ev(false, null),
  FileChanged: ev(false, null, { envFile: true }),
  WorktreeCreate: ev(false, null),
  WorktreeRemove: ev(false, null),
  PreCompact: ev(true, 'trigger'),
  PostCompact: ev(false, 'trigger'),
  Elicitation: ev(false, null, MODE),
  ElicitationResult: ev(false, null, MODE),
  SessionEnd: ev(false, 'reason'),
} as const satisfies Record<string, ClaudeEventInfo>;

type ClaudeEventName = keyof typeof CLAUDE_EVENTS;

export const CLAUDE_EVENT_NAMES: readonly ClaudeEventName[] = Object.freeze(
  Object.keys(CLAUDE_EVENTS).filter(isDocumentedClaudeEvent),
);

/** Whether Claude Code documents this event (`validate` warns about the others [C-SRC-3]). */
export function isDocumentedClaudeEvent(name: string): name is ClaudeEventName {
  // Own keys only: `constructor`, `__proto__` and friends are events nobody documents.
  return Object.hasOwn(CLAUDE_EVENTS, name);
}

function info(event: string): ClaudeEventInfo | undefined {
  return isDocumentedClaudeEvent(event) ? CLAUDE_EVENTS[event] : undefined;
}

/** [C-EV-1] Exit 2 / `decision: "block"` blocks on this event. Unknown events never block. */
export function claudeCanBlock(event: string): boolean {
  return info(event)?.canBlock ?? false;
}

/** [C-MATCH-1] The input field this event's matcher is tested against; `undefined`: matchers are ignored. */
export function claudeMatchField(event: string): ClaudeMatchField | undefined {
  return info(event)?.matchField ?? undefined;
}

/**
 * [C-MATCH-1] The value a matcher is tested against: the event's match field in the input, when it
 * is a string. `undefined` when the event ignores matchers or the field is missing or not a string.
 */
export function claudeMatchTarget(
  event: string,
  input: Readonly<Record<string, unknown>>,
): string | undefined {
  const field = claudeMatchField(event);
  if (field === undefined || !Object.hasOwn(input, field)) return undefined;
  const value = input[field];
  return typeof value === 'string' ? value : undefined;
}

/** [C-RUN-3] Command hooks of this event get `CLAUDE_ENV_FILE`. */
export function claudeGetsEnvFile(event: string): boolean {
  return info(event)?.envFile ?? false;
}

/** [C-ANS-1] Plain stdout on exit 0 becomes `additionalContext` on this event (else it is only recorded). */
export function claudePlainTextIsContext(event: string): boolean {
  return info(event)?.plainTextIsContext ?? false;
}

/** [C-IN-1] Claude Code's input for this event carries `permission_mode` (unknown events: no). */
export function claudeSendsPermissionMode(event: string): boolean {
  return info(event)?.permissionMode ?? false;
}
