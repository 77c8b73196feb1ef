/** The Lurus gate events [L-EV-1]: which context field the matcher tests, and whether a deny blocks. */
export const LURUS_EVENTS = {
  SessionStart: { matcherField: 'trigger', canBlock: false },
  SessionEnd: { matcherField: 'trigger', canBlock: false },
  UserPromptSubmit: { matcherField: null, canBlock: true },
  PreToolUse: { matcherField: 'toolName', canBlock: true },
  PostToolUse: { matcherField: 'toolName', canBlock: false },
  PostToolUseFailure: { matcherField: 'toolName', canBlock: false },
  SubagentStart: { matcherField: 'toolName', canBlock: false },
  SubagentStop: { matcherField: 'toolName', canBlock: true },
  Stop: { matcherField: 'trigger', canBlock: true },
  PreCompact: { matcherField: 'trigger', canBlock: true },
  Notification: { matcherField: 'trigger', canBlock: false },
} as const satisfies Record<string, { matcherField: 'toolName' | 'trigger' | null; canBlock: boolean }>;

export type LurusEventName = keyof typeof LURUS_EVENTS;

export const LURUS_EVENT_NAMES = Object.keys(LURUS_EVENTS) as LurusEventName[];

export function isLurusEvent(name: string): name is LurusEventName {
  return Object.hasOwn(LURUS_EVENTS, name);
}

/** Case-insensitive lookup for user input (`create-hook pretooluse …`); JSON keys stay exact. */
export function lurusEventFromInput(input: string): LurusEventName | undefined {
  const lower = input.toLowerCase();
  return LURUS_EVENT_NAMES.find((e) => e.toLowerCase() === lower);
}

/** The context a gate event carries; tools put whatever they really used in `toolInput`. */
export interface LurusContext {
  toolName?: string;
  trigger?: string;
  toolInput?: unknown;
  [key: string]: unknown;
}

/** What every Lurus hook receives [L-EV-1]. */
export interface LurusEnvelope {
  event: LurusEventName;
  context: LurusContext;
  cwd: string;
}
