/**
 * The one build of a `ClaudeCall` [R-MAP-1, R-HOOK-3]: the event as the agent named it and as
 * Claude Code's, the input, and what the records and the reply read — each only when the agent's
 * input gave it (issue 31: the same build stood in four agents' `hook-protocol.ts`).
 */

import { claudeEventOf, type EventMap } from './event-map.ts';
import type { CallProblem, ClaudeCall } from './hook-agent.ts';
import { textOf } from './tool-map.ts';

/** What the agent's input told of the call; `undefined` fields are left out. */
interface CallFacts {
  projectDir: string | undefined;
  sessionId: string | undefined;
  toolName: string | undefined;
  agentTool?: string | undefined;
}

export function claudeCall(
  agentEvent: string,
  event: string,
  input: Record<string, unknown>,
  facts: CallFacts,
): ClaudeCall {
  const { projectDir, sessionId, toolName, agentTool } = facts;
  return {
    agentEvent,
    event,
    input,
    ...(projectDir !== undefined ? { projectDir } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(toolName !== undefined ? { toolName } : {}),
    ...(agentTool !== undefined ? { agentTool } : {}),
  };
}

/**
 * The event the input names (`hook_event_name`), else `--event`, and Claude Code's event for it
 * (through `map`; one not in it is kept as named) [R-MAP-1].
 */
export function namedEvents(
  given: Record<string, unknown>,
  named: string | undefined,
  map?: EventMap,
): { agentEvent: string; event: string } | CallProblem {
  const agentEvent = textOf(given.hook_event_name) ?? named;
  if (agentEvent === undefined)
    return { problem: 'the input names no hook_event_name and no --event was given' };
  const event = map !== undefined ? (claudeEventOf(map, agentEvent) ?? agentEvent) : agentEvent;
  return { agentEvent, event };
}

/** The input's `tool_name` when it is a string (an empty one too: the agent sent it). */
export function toolNameOf(input: Record<string, unknown>): string | undefined {
  return typeof input.tool_name === 'string' ? input.tool_name : undefined;
}
