/**
 * Who and what a gate run is about, for its record: the session and tool its input names, in any
 * dialect's spelling, and the agent the caller named. Read once per decide.
 */
import type { RunRecord } from '../records/run-record.ts';
import type { DecideCall } from './decide-call.ts';

export interface RunSubject {
  readonly sessionId: string;
  readonly toolName: string | undefined;
  readonly agent: string | undefined;
}

/** Session fields, by dialect: Claude Code, Gemini CLI, Codex (`session_id`), Lurus and Copilot (`sessionId`), Cursor. */
const SESSION_FIELDS = ['session_id', 'sessionId', 'conversation_id'] as const;
/** Tool fields: the Claude-style dialects' `tool_name`, Lurus' and Copilot's `toolName`. */
const TOOL_FIELDS = ['tool_name', 'toolName'] as const;

/** The input's session (else the engine's) and tool; a field that is not a string is not one. */
export function runSubject(input: object, engineSession: string, call: DecideCall | undefined): RunSubject {
  return {
    sessionId: firstText(input, SESSION_FIELDS) ?? engineSession,
    toolName: firstText(input, TOOL_FIELDS),
    agent: call?.agent,
  };
}

/** Puts the subject on a record. */
export function stampSubject(record: RunRecord, subject: RunSubject): RunRecord {
  record.sessionId = subject.sessionId;
  if (subject.toolName !== undefined) record.toolName = subject.toolName;
  if (subject.agent !== undefined) record.agent = subject.agent;
  return record;
}

function firstText(input: object, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value: unknown = Reflect.get(input, field);
    if (typeof value === 'string') return value;
  }
  return undefined;
}
