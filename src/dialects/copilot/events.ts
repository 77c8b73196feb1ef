/**
 * GitHub Copilot CLI's hook events [A-COP-1], as Copilot CLI 1.0.102 runs them
 * (research/copilot-facts.md §2, §5). The settings schema in its binary names 15 camelCase keys;
 * PascalCase keys (`PreToolUse`, `Stop`, `UserPromptSubmit`…, the VS Code form) name the same
 * events and get the snake_case input. Each event says which input field its `matcher` tests and
 * what Copilot CLI does with its hooks' answers.
 */

/** What Copilot CLI reads of a hook's answer on this event. */
type CopilotControl =
  /** `permissionDecision` / `permissionDecisionReason` / `modifiedArgs`; any non-zero exit denies. */
  | 'preToolUse'
  /** `behavior` / `message` / `interrupt`; later hooks override earlier ones; any non-zero exit denies. */
  | 'permissionRequest'
  /** `decision: "block"` + `reason`: the reason becomes the next prompt. */
  | 'stop'
  /** `decision: "block"`, `modifiedPrompt`, `additionalContext`; exit 2 is a warning. */
  | 'prompt'
  /** `decision: "block"` + `reason` replaces the tool's result. */
  | 'postToolUse'
  /** exit 2 + stderr: guidance for the model. */
  | 'failure'
  /** `additionalContext` only. */
  | 'context'
  /** Nothing: the answer is not read. */
  | 'observe';

interface CopilotEventInfo {
  /** The camelCase input field its matcher tests; `null`: the matcher is not tested. */
  readonly matchField: 'toolName' | 'trigger' | 'notificationType' | 'agentName' | null;
  readonly control: CopilotControl;
}

const COPILOT_EVENTS = {
  sessionStart: { matchField: null, control: 'context' },
  sessionEnd: { matchField: null, control: 'observe' },
  userPromptSubmitted: { matchField: null, control: 'prompt' },
  userPromptTransformed: { matchField: null, control: 'observe' },
  preToolUse: { matchField: 'toolName', control: 'preToolUse' },
  preMcpToolCall: { matchField: 'toolName', control: 'observe' },
  postToolUse: { matchField: 'toolName', control: 'postToolUse' },
  postToolUseFailure: { matchField: 'toolName', control: 'failure' },
  permissionRequest: { matchField: 'toolName', control: 'permissionRequest' },
  agentStop: { matchField: null, control: 'stop' },
  subagentStart: { matchField: 'agentName', control: 'context' },
  subagentStop: { matchField: 'agentName', control: 'stop' },
  errorOccurred: { matchField: null, control: 'observe' },
  preCompact: { matchField: 'trigger', control: 'observe' },
  notification: { matchField: 'notificationType', control: 'context' },
} as const satisfies Record<string, CopilotEventInfo>;

export type CopilotEventName = keyof typeof COPILOT_EVENTS;
const COPILOT_EVENT_NAMES = Object.keys(COPILOT_EVENTS) as CopilotEventName[];

/**
 * PascalCase keys (the VS Code form, and Claude's names in `.claude/settings.json`) → the event.
 * Copilot CLI 1.0.102 ran `PreToolUse`, `Stop` and `UserPromptSubmit`; the others are the names
 * its string table holds (`AgentStop`, `UserPromptSubmitted`…) and Claude's.
 */
const PASCAL_KEYS: Readonly<Record<string, CopilotEventName>> = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmitted',
  UserPromptSubmitted: 'userPromptSubmitted',
  UserPromptTransformed: 'userPromptTransformed',
  PreToolUse: 'preToolUse',
  PreMcpToolCall: 'preMcpToolCall',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  PermissionRequest: 'permissionRequest',
  Stop: 'agentStop',
  AgentStop: 'agentStop',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  ErrorOccurred: 'errorOccurred',
  PreCompact: 'preCompact',
  Notification: 'notification',
};

function isCopilotEvent(name: string): name is CopilotEventName {
  return Object.hasOwn(COPILOT_EVENTS, name);
}

/** Which input form a hook configured under `key` gets: camelCase keys Copilot's, the others the VS Code form. */
export type CopilotForm = 'copilot' | 'vscode';

/** A hook file's event key read: the event, and the input form its hooks get; undefined: not an event. */
export function copilotEventOfKey(key: string): { event: CopilotEventName; form: CopilotForm } | undefined {
  if (isCopilotEvent(key)) return { event: key, form: 'copilot' };
  const pascal = Object.hasOwn(PASCAL_KEYS, key) ? PASCAL_KEYS[key] : undefined;
  return pascal === undefined ? undefined : { event: pascal, form: 'vscode' };
}

export function copilotControl(event: CopilotEventName): CopilotControl {
  return COPILOT_EVENTS[event].control;
}

export function copilotMatchField(event: CopilotEventName): string | null {
  return COPILOT_EVENTS[event].matchField;
}

/** Every key `decide` and hook files may use, for messages. */
export function copilotEventKeys(): string[] {
  return [...COPILOT_EVENT_NAMES, ...Object.keys(PASCAL_KEYS)];
}
