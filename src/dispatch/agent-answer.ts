/**
 * What the gate dialects of other agents (Claude Code [§5], Gemini CLI [§6]) answer, in one shape:
 * each hook's run is read into an `AgentAnswer`; the answers of one event are merged, in
 * configuration order, into one `AgentDecision` [C-ANS-4, C-OUT-1].
 */
import type { RunRecord } from '../records/run-record.ts';
import type { Ending } from '../runners/run-result.ts';

/** A tool-permission verdict, most restrictive first: deny > defer > ask > allow [C-ANS-4]. */
export type Permission = 'allow' | 'deny' | 'ask' | 'defer';

/** PermissionRequest's own answer (`hookSpecificOutput.decision`) [C-ANS-3]. */
export interface PermissionRequestAnswer {
  behavior: 'allow' | 'deny';
  updatedInput?: Record<string, unknown>;
  message?: string;
  interrupt?: boolean;
}

/** What one hook said, read from how its run ended (exit code, stdout, stderr, HTTP body). */
export interface AgentAnswer {
  /**
   * How the run ended, for its record: `ok` when it answered (whatever it answered), `deny` when
   * it blocked or denied, `error` / `timeout` / `spawn_error` with `cause` when it failed.
   */
  ending: Ending;
  /** It blocks the action (exit 2, `decision: "block"`, or a failure under `failMode: "closed"`). */
  block?: boolean;
  /** Why it blocks (JSON `reason` / `permissionDecisionReason`; Claude's exit 2: stderr). */
  reason?: string;
  /** PreToolUse's `permissionDecision` (or the old `decision: approve|block` as allow|deny). */
  permission?: Permission;
  permissionReason?: string;
  additionalContext?: string;
  systemMessage?: string;
  /** `false` stops the agent altogether. */
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  /** A replacement for the tool's input (PreToolUse `updatedInput`, Gemini BeforeTool `tool_input`). */
  updatedInput?: Record<string, unknown>;
  permissionRequest?: PermissionRequestAnswer;
  /**
   * The hook's `hookSpecificOutput` object as it gave it, for dialect fields that have no field
   * of their own (Gemini: `llm_request`, `llm_response`, `toolConfig`, `clearContext`,
   * `tailToolCallRequest`).
   */
  hookSpecificOutput?: Record<string, unknown>;
  /** The failure counted as allow (`open`) or as a block (`closed`), when it failed. */
  failed?: 'open' | 'closed';
}

/** [C-OUT-1] The merged decision handed to the agent. */
export interface AgentDecision {
  /** `deny` whenever `blocked`. */
  decision: Permission;
  blocked: boolean;
  reason?: string;
  continue: boolean;
  stopReason?: string;
  systemMessage?: string;
  additionalContext?: string;
  updatedInput?: Record<string, unknown>;
  /** PermissionRequest: the merged `decision.behavior` and its fields. */
  permission?: PermissionRequestAnswer;
  /**
   * Event-specific output the agent acts on that has no field of its own, merged as the dialect
   * does (Gemini [G-ANS-1]: `llm_request`, `llm_response`, `toolConfig`, `clearContext`,
   * `tailToolCallRequest`, each only on the events and outcomes where Gemini CLI reads it).
   */
  hookSpecificOutput?: Record<string, unknown>;
  /**
   * [C-RUN-3] `export NAME=VALUE` lines hooks wrote to `CLAUDE_ENV_FILE`, in order, later wins;
   * Cursor [A-CUR-1]: the `env` its sessionStart hooks answer.
   */
  env?: Record<string, string>;
  runs: RunRecord[];
}

/** One hook's answer, and what it wrote to `CLAUDE_ENV_FILE` [C-RUN-3]. */
export interface AgentRun {
  answer: AgentAnswer;
  env?: Record<string, string>;
}
