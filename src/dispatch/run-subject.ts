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

type Input = Readonly<Record<string, unknown>>;

/** The input's session (else the engine's) and tool; a field that is not a string is not one. */
export function runSubject(input: Input, engineSession: string, call: DecideCall | undefined): RunSubject {
  return { sessionId: sessionOf(input, engineSession), toolName: toolOf(input), agent: call?.agent };
}

/**
 * The session the input names, else the engine's: Claude Code, Gemini CLI, Codex `session_id`,
 * Lurus and Copilot `sessionId`, Cursor `conversation_id`. Named reads, not a loop over names:
 * they run on every decide that has hooks.
 */
export function sessionOf(input: Input, engineSession: string): string {
  const snake = input.session_id;
  if (typeof snake === 'string') return snake;
  const camel = input.sessionId;
  if (typeof camel === 'string') return camel;
  const cursor = input.conversation_id;
  return typeof cursor === 'string' ? cursor : engineSession;
}

/** The tool the input names, if any: the Claude-style `tool_name`, Lurus' and Copilot's `toolName`. */
export function toolOf(input: Input): string | undefined {
  const snake = input.tool_name;
  if (typeof snake === 'string') return snake;
  const camel = input.toolName;
  return typeof camel === 'string' ? camel : undefined;
}

/** Puts the subject on a record. */
export function stampSubject(record: RunRecord, subject: RunSubject): RunRecord {
  record.sessionId = subject.sessionId;
  if (subject.toolName !== undefined) record.toolName = subject.toolName;
  if (subject.agent !== undefined) record.agent = subject.agent;
  return record;
}
