import type { FailMode } from '../core/fail-mode.ts';
/** Why a run ended, as the agent-facing record states it (SPEC §4). */
export type RunOutcome =
  | 'ok'
  | 'deny'
  | 'error'
  | 'timeout'
  | 'spawn_error'
  | 'skipped_untrusted'
  | 'dropped'
  /** [G-FAIL-1] A policy file could not be used: nothing of it ran. */
  | 'policy_error';

export const RUN_OUTCOMES: readonly RunOutcome[] = [
  'ok',
  'deny',
  'error',
  'timeout',
  'spawn_error',
  'skipped_untrusted',
  'dropped',
  'policy_error',
];

/** Text fields a stored record caps in size (`truncate-record.ts`); their content comes from hooks or callers. */
export type TruncatableField =
  | 'hook'
  | 'sessionId'
  | 'toolName'
  | 'agent'
  | 'reason'
  | 'stderrTail'
  | 'additionalContext';

/**
 * One record per hook run, of any kind. `cause` names the failure precisely
 * (`exit_code`, `signal`, `output_limit`, `queue_full`, `closed`, …) so that
 * "why didn't my hook fire?" always has an answer.
 */
export interface RunRecord {
  /** Stable, human-readable name of the hook (its `id`, else `event[index]`). */
  hook: string;
  /** Where the definition came from: `file#/json/path`, or `in-process`. */
  source: string;
  event: string;
  /** Which dialect ran it: `prx`, `lurus`, `claude`, `gemini`. */
  dialect?: string;
  outcome: RunOutcome;
  durationMs: number;
  /** ISO-8601 time the run was scheduled. */
  at: string;
  /**
   * The session: an emit's; a gate run's from its input (`session_id`, `sessionId`, Cursor's
   * `conversation_id`), else the engine's.
   */
  sessionId?: string;
  /** Gate runs: the tool the input names (`tool_name`, or `toolName` in Lurus and Copilot input). */
  toolName?: string;
  /** Gate runs: the agent the caller named (`decide(event, input, { agent })`). */
  agent?: string;
  depth?: number;
  exitCode?: number;
  signal?: string;
  status?: number;
  cause?: string;
  reason?: string;
  stderrTail?: string;
  /** Gate runs that failed: whether the failure counted as allow (`open`) or deny (`closed`). */
  failed?: FailMode;
  /** Gate runs: what this hook decided (after failMode). */
  decision?: 'allow' | 'deny';
  /** Claude Code / Gemini CLI gate runs: the tool permission this hook asked for [C-ANS-3]. */
  permission?: 'allow' | 'deny' | 'ask' | 'defer';
  /** Gate runs: context the hook handed to the agent. */
  additionalContext?: string;
  /** [N-WORK-1] The worker that ran it (NATS fleet). */
  worker?: string;
  /** [L-TRUST-6] Project hooks: a newer version of their source waits for consent. */
  consent?: 'newer_version_pending';
  /**
   * (issue 11) Fields the stored record cut to `MAX_RECORD_FIELD_BYTES` (8 KiB of UTF-8), each with
   * its original size in bytes. Only on stored records (run log, bus); `decide()` answers in full.
   */
  truncated?: Partial<Record<TruncatableField, number>>;
}
