/** [R-MAP-1] An agent's event names as Claude Code's, and which of its events `install` gives an entry. */
export type EventMap = Readonly<Record<string, string>>;

/** The Claude Code event for the agent's, or undefined (no Claude Code event: nothing to run). */
export function claudeEventOf(map: EventMap, agentEvent: string): string | undefined {
  return Object.hasOwn(map, agentEvent) ? map[agentEvent] : undefined;
}
