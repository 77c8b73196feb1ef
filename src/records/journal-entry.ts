import type { RunRecord, TruncatableField } from './run-record.ts';

/** Text fields a journal entry caps in size: the run record's, and the names the agent's input gave. */
export type JournalField = TruncatableField | 'agent' | 'toolName' | 'event';

/**
 * [G-TEST-1] The agent's input of a call is kept in the journal up to this size (its text on
 * stdin, in bytes); a larger one (a Write of a whole file…) is left out and only its size kept.
 */
export const MAX_RECORDED_INPUT_BYTES = 8192;

/**
 * [G-TEST-1] What `hookwerk test --record` needs to replay one call of `hookwerk hook`, on the
 * first journal entry of the call's runs (the others follow it in the same write).
 */
export interface RecordedCall {
  /** The event as the agent named it (its input's `hook_event_name`, else `--event`). */
  event: string;
  /** The agent's own input, when it was at most MAX_RECORDED_INPUT_BYTES on stdin. */
  input?: Record<string, unknown>;
  /** The size on stdin of an input left out, in bytes. */
  inputBytes?: number;
  /** What the agent read in the reply, with its own reader: `none` is its "no objection". */
  answer: 'deny' | 'ask' | 'allow' | 'none';
  /** How many entries, this one first, are the runs of this call. */
  runs: number;
}

/**
 * [R-HOOK-3] One hook run of an agent's call, as the journal keeps it: the run record (with the
 * agent's `sessionId`), the agent that called (`claude`, `gemini`, `codex`, `copilot`, `cursor`,
 * `mcp`, …) and the Claude Code tool name of the call, if it had one; the first run of a call of
 * `hookwerk hook` also carries the call (G-TEST-1).
 */
export type JournalEntry = Omit<RunRecord, 'truncated'> & {
  agent: string;
  toolName?: string;
  call?: RecordedCall;
  /**
   * [T-MGD-3] The managed journal's: the caller as the kernel named it (SO_PEERCRED) — its uid,
   * the account name of that uid in /etc/passwd (absent when it has none), its pid.
   */
  uid?: number;
  user?: string;
  pid?: number;
  /** As RunRecord's, and also for `agent`, `toolName` and `event` (they come from the agent's input). */
  truncated?: Partial<Record<JournalField, number>>;
};
