/**
 * What a Claude-style agent's runs need of it: how it reads its hooks' answers and prepares their
 * runs. Its own file so the runners (`run.ts`, `rule-run.ts`) and the gate that calls them do not
 * import each other (issue 31: no file-level cycles).
 */
import type { FailMode } from '../../core/fail-mode.ts';
import type { AgentAnswer } from '../../dispatch/agent-answer.ts';
import type { AgentCommandHook, AgentHook } from '../../registry/hook-definition.ts';
import type { RunResult } from '../../runners/run-result.ts';

/** How one Claude-style agent reads its hooks' answers and prepares their runs. */
export interface AgentProtocol {
  /**
   * One hook's ending (a process or an HTTP call), read as the agent reads it; `run` names the
   * hook and the input it got (Cursor's `loop_limit` against the input's `loop_count`).
   */
  readAnswer(
    event: string,
    result: RunResult,
    failMode: FailMode,
    run: { hook: AgentHook; input: Record<string, unknown> },
  ): AgentAnswer;
  /** [C-RUN-3] The event gives command hooks a `CLAUDE_ENV_FILE`. */
  envFile(event: string): boolean;
  /** Adds what the agent sets to a command hook's `env`; returns the command line to run. */
  prepare(
    hook: AgentCommandHook,
    input: Record<string, unknown>,
    env: Record<string, string>,
    cwd: string,
  ): string;
}
