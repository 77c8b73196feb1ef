/**
 * Cursor's 21 hook events [A-CUR-1] as its docs describe them (research/cursor-facts.md §4, §7, §8):
 * what each one's matcher is tested against, what its hooks can refuse, ask, rewrite, add or keep
 * going with. Anything not listed for an event is not read on it (the `after*` events only observe).
 */

/** What an event's matcher is tested against: an input field, a fixed tool type, or nothing. */
type CursorMatch = { readonly field: string } | { readonly constant: string } | null;

/** What `permission: "ask"` becomes on an event that reads `permission`. */
type AskRule = 'ask' | 'deny' | 'ignored';

interface CursorEventInfo {
  readonly group: 'agent' | 'tab' | 'app';
  readonly match: CursorMatch;
  /** Can refuse the action: `permission: "deny"`, exit 2, a `failClosed` failure. */
  readonly gate: boolean;
  /** Reads `permission` (allow | deny | ask). */
  readonly permission: boolean;
  readonly ask: AskRule;
  /** beforeSubmitPrompt: `continue: false` refuses the prompt. */
  readonly continueBlocks: boolean;
  /** `additional_context` reaches the model. */
  readonly context: boolean;
  /** preToolUse: `updated_input` replaces the tool's input. */
  readonly rewrites: boolean;
  /** stop / subagentStop: `followup_message` keeps the agent going. */
  readonly followup: boolean;
  /** preToolUse: empty or non-JSON stdout on exit 0 blocks (field reports, Cursor 2.6–3.9). */
  readonly strictStdout: boolean;
  /** sessionStart: `env` is handed to the session's later hooks. */
  readonly sessionEnv: boolean;
}

const OBSERVE: Omit<CursorEventInfo, 'group' | 'match'> = {
  gate: false,
  permission: false,
  ask: 'ignored',
  continueBlocks: false,
  context: false,
  rewrites: false,
  followup: false,
  strictStdout: false,
  sessionEnv: false,
};

const PERMISSION = { ...OBSERVE, gate: true, permission: true } as const;

const field = (name: string): CursorMatch => ({ field: name });
const constant = (name: string): CursorMatch => ({ constant: name });

export const CURSOR_EVENTS = {
  sessionStart: { ...OBSERVE, group: 'agent', match: null, context: true, sessionEnv: true },
  sessionEnd: { ...OBSERVE, group: 'agent', match: null },
  preToolUse: {
    ...PERMISSION,
    group: 'agent',
    match: field('tool_name'),
    rewrites: true,
    strictStdout: true,
  },
  postToolUse: { ...OBSERVE, group: 'agent', match: field('tool_name'), context: true },
  postToolUseFailure: { ...OBSERVE, group: 'agent', match: field('tool_name') },
  subagentStart: { ...PERMISSION, group: 'agent', match: field('subagent_type'), ask: 'deny' },
  subagentStop: { ...OBSERVE, group: 'agent', match: field('subagent_type'), followup: true },
  beforeShellExecution: { ...PERMISSION, group: 'agent', match: field('command'), ask: 'ask' },
  afterShellExecution: { ...OBSERVE, group: 'agent', match: field('command') },
  beforeMCPExecution: { ...PERMISSION, group: 'agent', match: field('tool_name'), ask: 'ask' },
  afterMCPExecution: { ...OBSERVE, group: 'agent', match: field('tool_name') },
  beforeReadFile: { ...PERMISSION, group: 'agent', match: constant('Read') },
  afterFileEdit: { ...OBSERVE, group: 'agent', match: constant('Write') },
  beforeSubmitPrompt: {
    ...OBSERVE,
    group: 'agent',
    match: constant('UserPromptSubmit'),
    gate: true,
    continueBlocks: true,
  },
  preCompact: { ...OBSERVE, group: 'agent', match: null },
  stop: { ...OBSERVE, group: 'agent', match: constant('Stop'), followup: true },
  afterAgentResponse: { ...OBSERVE, group: 'agent', match: constant('AgentResponse') },
  afterAgentThought: { ...OBSERVE, group: 'agent', match: constant('AgentThought') },
  beforeTabFileRead: { ...PERMISSION, group: 'tab', match: constant('TabRead') },
  afterTabFileEdit: { ...OBSERVE, group: 'tab', match: constant('TabWrite') },
  workspaceOpen: { ...OBSERVE, group: 'app', match: null },
} as const satisfies Record<string, CursorEventInfo>;

export type CursorEventName = keyof typeof CURSOR_EVENTS;

export const CURSOR_EVENT_NAMES: readonly CursorEventName[] = Object.freeze(
  Object.keys(CURSOR_EVENTS).filter(isCursorEvent),
);

export function isCursorEvent(name: string): name is CursorEventName {
  return Object.hasOwn(CURSOR_EVENTS, name);
}

/** The input field an event's matchers test (`explain --trigger`); undefined for fixed or no values. */
export function cursorMatchField(event: string): string | undefined {
  if (!isCursorEvent(event)) return undefined;
  const match: CursorMatch = CURSOR_EVENTS[event].match;
  return match !== null && 'field' in match ? match.field : undefined;
}

/**
 * [A-CUR-1] The value an event's matchers are searched in: the tool type (preToolUse, post…),
 * the command text (shell events), the subagent type, the MCP tool's name, or the fixed tool type
 * Cursor documents (`Read`, `Write`, `TabRead`, `TabWrite`, `UserPromptSubmit`, `Stop`,
 * `AgentResponse`, `AgentThought`). Undefined — every matcher matches — for events without one and
 * when the field is missing.
 */
export function cursorMatchTarget(event: string, input: Record<string, unknown>): string | undefined {
  if (!isCursorEvent(event)) return undefined;
  const match: CursorMatch = CURSOR_EVENTS[event].match;
  if (match === null) return undefined;
  if ('constant' in match) return match.constant;
  const value = input[match.field];
  return typeof value === 'string' ? value : undefined;
}
