/**
 * An agent that calls `hookwerk hook --agent NAME` from its own hook file (issue 21, SPEC §11):
 * how its input becomes a Claude Code event and input [R-MAP-1], how the policy's decision is
 * answered in its own protocol [R-HOOK-1, R-HOOK-2], and where `hookwerk install` puts the entries
 * that call us [R-INST-1]. Each agent's folder holds its own; `hook-agents.ts` is the table.
 */
import type { AgentDecision } from '../../dispatch/agent-answer.ts';
import type { AgentTimeouts } from './hook-timeout.ts';

/** One call of the agent's, as the policy sees it: a Claude Code event and input [R-MAP-1]. */
export interface ClaudeCall {
  /** The event as the agent named it (its input's, else `--event`). */
  readonly agentEvent: string;
  /** The Claude Code event the policy runs on. */
  readonly event: string;
  /** The Claude Code input: `hook_event_name`, `session_id`, `cwd`, `tool_name`, `tool_input`, … */
  readonly input: Record<string, unknown>;
  /** The project root the agent names (`CLAUDE_PROJECT_DIR`, `cwd`, `workspace_roots[0]`), if any. */
  readonly projectDir?: string;
  /** The agent's session id, for the records [R-HOOK-3]. */
  readonly sessionId?: string;
  /** The Claude Code tool name, for the records [R-HOOK-3]. */
  readonly toolName?: string;
  /** The tool as the agent named it, to map an `updatedInput` back [R-MAP-1]. */
  readonly agentTool?: string;
  /** What this call is about, to name it in a merged answer (a patch's file: `delete .env`). */
  readonly subject?: string;
  /**
   * Further Claude Code calls the agent's one call stands for (a Codex patch: one per file it
   * touches, SPEC §14.1). Each is decided too and the answers are merged, most restrictive first
   * (src/hook/call-parts.ts); the reply is given for this call.
   */
  readonly also?: readonly ClaudeCall[];
}

/** What `hookwerk hook` prints and how it exits: the agent's own protocol [R-HOOK-1]. */
export interface HookReply {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Why an input could not be read as one of the agent's calls (one line). */
export interface CallProblem {
  readonly problem: string;
}

/** The agent's side of `hookwerk hook` [R-HOOK-1, R-MAP-1]. */
export interface HookAgentProtocol {
  /**
   * The agent's input for one event (parsed JSON object) as a Claude Code call. `named` is
   * `--event`, for agents whose input names no event (Copilot); `env` is the hook's environment
   * (`CLAUDE_PROJECT_DIR`, `GEMINI_PROJECT_DIR`, …).
   */
  toClaude(
    given: Record<string, unknown>,
    named: string | undefined,
    env: NodeJS.ProcessEnv,
  ): ClaudeCall | CallProblem;
  /**
   * The policy's decision in the agent's own protocol. `undefined`: no policy hook had an
   * opinion, so the agent's own "no objection" [R-HOOK-2] (never an explicit allow).
   */
  reply(call: ClaudeCall, decision: AgentDecision | undefined): HookReply;
  /**
   * [G-TEST-1] What the agent reads in one of our replies to `call` — deny, ask, allow or none
   * (its "no objection"), and why — read with the agent's own answer reader (the one hookwerk's
   * dialect of that agent runs its hook files with). Loaded on use: the reader is not on the
   * path of a call without hooks [R-HOOK-4].
   */
  readReply(call: ClaudeCall, reply: HookReply): Promise<ReplyVerdict>;
}

/** What an agent does with a reply, as `hookwerk test` compares it [G-TEST-1]. */
export type VerdictName = 'deny' | 'ask' | 'allow' | 'none';

export const VERDICT_NAMES: readonly VerdictName[] = ['deny', 'ask', 'allow', 'none'];

/** An agent's reading of one reply: the verdict, and the reason it carries (none for `none`). */
export interface ReplyVerdict {
  readonly verdict: VerdictName;
  readonly reason?: string;
}

/** Where `hookwerk install --agent NAME` writes, and what [R-INST-1]. */
export interface AgentInstall {
  /** The agent's project hook file (`.claude/settings.json`, …). */
  projectFile(projectDir: string): string;
  /** Its user hook file (`~/.claude/settings.json`, Copilot `~/.copilot/hooks/hookwerk.json`, …). */
  userFile(home: string, env: NodeJS.ProcessEnv): string;
  /**
   * [T-MGD-2] Its administrator-owned hook file on Linux (`install --system`), read for every user
   * beside their own files, which cannot remove it; absent when the agent has none hookwerk writes.
   */
  readonly systemFile?: string;
  /**
   * `systemFile` is TOML (Codex's `requirements.toml`): install writes its entries there as one
   * block of text of `[[hooks.<event>]]` tables (install/codex-requirements.ts), not as JSON edits.
   */
  readonly systemToml?: boolean;
  /** The agent's events that map to a Claude Code event (R-MAP-1), one entry each, in file order. */
  readonly events: readonly string[];
  /** The agent's input names no event: the entry's command carries `--event NAME`. */
  readonly needsEventFlag: boolean;
  /** The Claude Code event the agent's `event` runs the policy of [R-MAP-1]. */
  claudeEvent(event: string): string | undefined;
  /** [G-FAIL-4] The agent's documented default and maximum timeouts, and their unit. */
  readonly timeouts: AgentTimeouts;
  /** The JSON value appended to the file's `hooks.<event>` array for one event (`timeoutS` in seconds). */
  entry(event: string, command: string, timeoutS: number): unknown;
  /** Top-level fields a file install creates starts with (`{"version": 1}`). */
  readonly newFile?: Readonly<Record<string, unknown>>;
  /** The agent runs the project's Claude Code files itself (Cursor, Copilot) [R-INST-1, A-ALL-1]. */
  readonly runsClaudeFiles: boolean;
  /**
   * [T-SELF-4] The project's files whose `env` the agent passes to its hook commands (none for
   * Codex, which passes its own environment); `hookwerk hook` reads their home variables.
   */
  envFiles(projectDir: string): string[];
}

/** One agent `hookwerk hook` and `hookwerk install` speak to. */
export interface HookAgent extends HookAgentProtocol {
  readonly name: string;
  readonly label: string;
  readonly install: AgentInstall;
}

export function isCallProblem(value: ClaudeCall | CallProblem): value is CallProblem {
  return 'problem' in value;
}
