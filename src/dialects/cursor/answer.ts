/**
 * Cursor's answers [A-CUR-1] (research/cursor-facts.md §6, §7, §11): how one command hook's
 * ending becomes an `AgentAnswer`, and how the answers of one event become hookwerk's decision
 * [C-OUT-1]. Pure: no I/O.
 *
 * One hook:
 * - Exit 0: stdout is the JSON answer. Empty stdout is no answer (no objection) — except on
 *   `preToolUse`, where empty or non-JSON stdout blocks, as Cursor 2.6–3.9 do (field reports; the
 *   docs say fail-open). Elsewhere stdout that is not a JSON object is a failed hook: the action
 *   goes ahead unless the hook says `failClosed`.
 * - Exit 2: refuses the action on the events that can refuse (like `permission: "deny"`); the
 *   reason is the stdout JSON's `agent_message` / `user_message` if it has one, else stderr, else a
 *   fixed text. On the other events exit 2 changes nothing (recorded `exit_2_ignored`).
 * - Any other exit, a timeout, a failed launch, a signal: a failed hook, even with a deny JSON on
 *   stdout; the action goes ahead unless `failClosed`, which refuses it (on refusing events).
 * Fields read from the JSON, each only on the events Cursor reads it on (a field of the wrong type
 * is ignored and named in the run's `reason`): `permission` (allow | deny | ask; ask is honoured on
 * `beforeShellExecution` / `beforeMCPExecution`, is a deny on `subagentStart`, and is ignored
 * elsewhere), `agent_message` (else `user_message`) as the reason, `user_message` also as
 * `systemMessage` (Cursor shows it to the user), `updated_input` (preToolUse), `continue: false`
 * (beforeSubmitPrompt: the prompt is refused), `additional_context` (sessionStart, postToolUse),
 * `followup_message` (stop; subagentStop only with `status: "completed"`) while the input's
 * `loop_count` is under the hook's `loop_limit` (default 5, null: no cap), `env` (sessionStart),
 * `updated_mcp_tool_output` (postToolUse), `pluginPaths` (workspaceOpen).
 */
import { z } from 'zod';
import { parseBoundedJson, TOO_DEEP } from '../../core/json-text.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import type { AgentAnswer, AgentDecision } from '../../dispatch/agent-answer.ts';
import { type Ending, outcomeOf, type RunResult } from '../../runners/run-result.ts';
import { readClaudeAnswer } from '../agent/claude-answer.ts';
import { claudeAnswerAsCursor } from './claude-files.ts';
import { CURSOR_EVENTS, type CursorEventName, isCursorEvent } from './events.ts';

type FailMode = 'open' | 'closed';
type CursorInfo = (typeof CURSOR_EVENTS)[CursorEventName];
type CursorDecision = Omit<AgentDecision, 'runs'>;

/** [A-CUR-1] Cursor's default cap on automatic follow-ups per hook script. */
const DEFAULT_LOOP_LIMIT = 5;

/** Cursor's own words when preToolUse output is not JSON (tokensave#187, ruflo#2613, pmb#67). */
export const NOT_JSON_BLOCKED =
  'Hook preToolUse returned stdout that is not valid JSON. The action was blocked for safety.';

const text = z.string();
const object = z.record(z.string(), z.unknown());
const permission = z.enum(['allow', 'deny', 'ask']);
const flag = z.boolean();
const envMap = z.record(z.string(), z.string());
const paths = z.array(z.string());

/** One known field: absent or null is not given; a value failing its schema is noted and dropped. */
function pick<T>(
  obj: Record<string, unknown>,
  key: string,
  schema: z.ZodType<T>,
  ignored: string[],
): T | undefined {
  const value = obj[key];
  if (!Object.hasOwn(obj, key) || value === null || value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  ignored.push(key);
  return undefined;
}

function readFields(obj: Record<string, unknown>, ignored: string[]) {
  return {
    permission: pick(obj, 'permission', permission, ignored),
    user_message: pick(obj, 'user_message', text, ignored),
    agent_message: pick(obj, 'agent_message', text, ignored),
    updated_input: pick(obj, 'updated_input', object, ignored),
    continue: pick(obj, 'continue', flag, ignored),
    additional_context: pick(obj, 'additional_context', text, ignored),
    followup_message: pick(obj, 'followup_message', text, ignored),
    env: pick(obj, 'env', envMap, ignored),
    updated_mcp_tool_output: pick(obj, 'updated_mcp_tool_output', z.unknown(), ignored),
    pluginPaths: pick(obj, 'pluginPaths', paths, ignored),
  };
}

function note(ending: Ending, text: string): void {
  ending.reason = ending.reason === undefined ? text : `${ending.reason}; ${text}`;
}

function blockWith(answer: AgentAnswer, reason: string): AgentAnswer {
  answer.block = true;
  answer.permission = 'deny';
  answer.reason = reason;
  answer.ending.outcome = 'deny';
  answer.ending.cause = undefined;
  answer.ending.reason = reason;
  return answer;
}

/** A failed hook: the action goes ahead, or — `failClosed` on a refusing event — it is refused. */
function failure(info: CursorInfo, ending: Ending, failMode: FailMode): AgentAnswer {
  if (failMode === 'closed' && info.gate) {
    const answer: AgentAnswer = { ending, failed: 'closed', block: true, permission: 'deny' };
    answer.reason = `hook failed (${ending.reason ?? 'no answer'}) and says failClosed`;
    return answer;
  }
  return { ending, failed: 'open' };
}

function invalid(ending: Ending, why: string): Ending {
  ending.outcome = 'error';
  ending.cause = 'invalid_answer';
  ending.reason = why;
  return ending;
}

/** What the reader looks at of the hook that ran (an `AgentHook`). */
interface RanHook {
  readonly kind: string;
  readonly cursorLoopLimit?: number | null;
  readonly cursorClaudeFile?: boolean;
}

/** The loop rule [A-CUR-1]: the hook's `loop_limit` (default 5; null: no cap) against `loop_count`. */
function underLoopLimit(hook: RanHook | undefined, input: Record<string, unknown>): boolean {
  const limit = hook?.kind === 'process' ? hook.cursorLoopLimit : undefined;
  if (limit === null) return true;
  const count = typeof input.loop_count === 'number' ? input.loop_count : 0;
  return count < (limit ?? DEFAULT_LOOP_LIMIT);
}

function fromJson(
  event: CursorEventName,
  info: CursorInfo,
  obj: Record<string, unknown>,
  ending: Ending,
  run: { hook?: RanHook; input: Record<string, unknown> },
): AgentAnswer {
  const ignored: string[] = [];
  const f = readFields(obj, ignored);
  const answer: AgentAnswer = { ending };
  // The message for the model: `agent_message`, else `user_message` (an empty one is none).
  const message = f.agent_message || f.user_message || undefined;
  if (message !== undefined) answer.reason = message;
  if (f.user_message !== undefined && f.user_message !== '') answer.systemMessage = f.user_message;
  const specific: Record<string, unknown> = {};

  if (info.permission && f.permission !== undefined) {
    const given = f.permission === 'ask' ? info.ask : f.permission;
    if (given === 'deny') blockWith(answer, message || `denied by hook (permission: "${f.permission}")`);
    else if (given === 'ask') answer.permission = 'ask';
    else if (given === 'allow') answer.permission = 'allow';
    else note(ending, `permission "ask" is not enforced on ${event}`);
  } else if (f.permission !== undefined) {
    note(ending, `permission is not read on ${event}`);
  }
  if (info.continueBlocks && f.continue === false && answer.block !== true)
    blockWith(answer, message || 'prompt refused by hook (continue: false)');
  if (info.rewrites && f.updated_input !== undefined) answer.updatedInput = f.updated_input;
  if (info.context && f.additional_context !== undefined && f.additional_context !== '')
    answer.additionalContext = f.additional_context;
  if (info.followup && f.followup_message !== undefined && f.followup_message !== '') {
    if (event === 'subagentStop' && run.input.status !== 'completed')
      note(ending, 'followup_message ignored: subagentStop status is not "completed"');
    else if (!underLoopLimit(run.hook, run.input))
      note(ending, 'followup_message ignored: loop_limit reached');
    else blockWith(answer, f.followup_message);
  }
  if (info.sessionEnv && f.env !== undefined) specific.env = f.env;
  if (event === 'postToolUse' && f.updated_mcp_tool_output !== undefined)
    specific.updated_mcp_tool_output = f.updated_mcp_tool_output;
  if (event === 'workspaceOpen' && f.pluginPaths !== undefined) specific.pluginPaths = f.pluginPaths;
  if (Object.keys(specific).length > 0) answer.hookSpecificOutput = specific;
  if (ignored.length > 0) note(ending, `ignored fields of the wrong type: ${ignored.join(', ')}`);
  return answer;
}

/** The JSON object printed on stdout, or why it is not one. */
function stdoutObject(stdout: string): { obj: Record<string, unknown> } | { why: string } | 'empty' {
  const trimmed = stdout.trim();
  if (trimmed === '') return 'empty';
  const parsed = parseBoundedJson(trimmed);
  if (!parsed.ok) return { why: parsed.tooDeep ? `stdout JSON is ${TOO_DEEP}` : 'stdout is not valid JSON' };
  if (!isPlainObject(parsed.value)) return { why: 'stdout JSON is not an object' };
  return { obj: parsed.value };
}

/**
 * [A-CUR-1] One hook's ending read as Cursor reads it (see the file comment). HTTP and in-process
 * answers (hookwerk's own, Cursor has none) are read as Claude Code reads them.
 */
export function readCursorAnswer(
  event: string,
  result: RunResult,
  failMode: FailMode,
  run: { hook?: RanHook; input: Record<string, unknown> },
): AgentAnswer {
  if (result.kind !== 'process' || !isCursorEvent(event)) return readClaudeAnswer(event, result, failMode);
  const info = CURSOR_EVENTS[event];
  const ending = outcomeOf(result);
  if (result.reason !== 'exit' || result.exitCode === null) return failure(info, ending, failMode);
  const given = stdoutObject(result.stdout);
  // [A-CUR-1] A hook from a Claude file may answer in Claude Code's format: read as Cursor's fields.
  const out =
    run.hook?.kind === 'process' &&
    run.hook.cursorClaudeFile === true &&
    typeof given === 'object' &&
    'obj' in given
      ? { obj: claudeAnswerAsCursor(event, given.obj) }
      : given;
  if (result.exitCode === 2) {
    if (!info.gate) {
      ending.cause = 'exit_2_ignored';
      ending.reason = `exit 2 does not block ${event}`;
      return { ending, failed: 'open' };
    }
    const json = typeof out === 'object' && 'obj' in out ? out.obj : {};
    const said = [json.agent_message, json.user_message].find(
      (m): m is string => typeof m === 'string' && m !== '',
    );
    const answer = blockWith({ ending }, said ?? (result.stderr.trim() || `blocked by hook (exit 2)`));
    if (typeof json.user_message === 'string' && json.user_message !== '')
      answer.systemMessage = json.user_message;
    return answer;
  }
  if (result.exitCode !== 0) {
    if (typeof out === 'object' && 'obj' in out) note(ending, 'its JSON is not read (only exit 0 counts)');
    return failure(info, ending, failMode);
  }
  if (out === 'empty') {
    if (!info.strictStdout) return { ending };
    return blockWith({ ending }, NOT_JSON_BLOCKED);
  }
  if ('why' in out) {
    if (info.strictStdout) return blockWith({ ending }, NOT_JSON_BLOCKED);
    return failure(info, invalid(ending, out.why), failMode);
  }
  return fromJson(event, info, out.obj, ending, run);
}

// ---------------------------------------------------------------------------------------------
// Several hooks

function joined(values: readonly (string | undefined)[]): string | undefined {
  const kept = values.filter((v): v is string => v !== undefined && v !== '');
  return kept.length === 0 ? undefined : kept.join('\n');
}

/**
 * [A-CUR-1, C-OUT-1] The answers of one event, in configuration order — enterprise, project,
 * user, which is Cursor's priority order — merged:
 * - `blocked` when the event can refuse (or keep the agent going) and any hook did: a deny from
 *   any source is never outvoted by another source's allow (see docs/cursor.md);
 * - the reason: the refusing hooks' messages joined; on stop / subagentStop the follow-up of the
 *   first hook that gave one (Cursor submits one message; the higher source wins);
 * - else `ask` when a hook asked (beforeShellExecution, beforeMCPExecution), with the askers' messages;
 * - `systemMessage`: every `user_message`; `additionalContext`: every context, joined;
 * - `updatedInput`: the first hook's (the higher source wins a conflict), unless refused;
 * - `env` (sessionStart): merged, the higher source winning a name both set;
 * - `permission` (events that read it): `{behavior: "deny", message}` when refused,
 *   `{behavior: "allow"}` when a hook allowed explicitly and none refused or asked;
 * - `continue` is always true: no Cursor answer ends the session.
 */
export function mergeCursorAnswers(event: string, answers: readonly AgentAnswer[]): CursorDecision {
  const merged: CursorDecision = { decision: 'allow', blocked: false, continue: true };
  if (!isCursorEvent(event)) return merged;
  const info = CURSOR_EVENTS[event];
  const blocks = (a: AgentAnswer) => a.block === true || a.permission === 'deny';
  const canBlock = info.gate || info.followup;
  const blocking = canBlock ? answers.filter(blocks) : [];
  if (blocking.length > 0) {
    merged.blocked = true;
    merged.decision = 'deny';
    const reason = info.followup ? blocking[0]?.reason : joined(blocking.map((a) => a.reason));
    if (reason !== undefined) merged.reason = reason;
  } else if (info.ask === 'ask' && answers.some((a) => a.permission === 'ask')) {
    merged.decision = 'ask';
    const reason = joined(answers.filter((a) => a.permission === 'ask').map((a) => a.reason));
    if (reason !== undefined) merged.reason = reason;
  }
  // [C-OUT-1] `permission` only when a hook gave one explicitly: Cursor's `allow` lets the action
  // run without its own approval prompt, which "no hook objected" does not.
  if (info.permission) {
    if (merged.blocked)
      merged.permission = { behavior: 'deny', ...(merged.reason ? { message: merged.reason } : {}) };
    else if (merged.decision === 'allow' && answers.some((a) => a.permission === 'allow'))
      merged.permission = { behavior: 'allow' };
  }
  const systemMessage = joined(answers.map((a) => a.systemMessage));
  if (systemMessage !== undefined) merged.systemMessage = systemMessage;
  const context = joined(answers.map((a) => a.additionalContext));
  if (context !== undefined) merged.additionalContext = context;
  if (!merged.blocked) {
    const rewrite = answers.find((a) => a.updatedInput !== undefined)?.updatedInput;
    if (rewrite !== undefined) merged.updatedInput = rewrite;
  }
  const env: Record<string, string> = {};
  for (const a of [...answers].reverse()) {
    const given = envMap.safeParse(a.hookSpecificOutput?.env);
    if (given.success) Object.assign(env, given.data);
  }
  if (Object.keys(env).length > 0) merged.env = env;
  const specific: Record<string, unknown> = {};
  const mcp = answers.find((a) => a.hookSpecificOutput?.updated_mcp_tool_output !== undefined);
  if (mcp?.hookSpecificOutput !== undefined)
    specific.updated_mcp_tool_output = mcp.hookSpecificOutput.updated_mcp_tool_output;
  const plugins = answers.flatMap((a) => {
    const given = paths.safeParse(a.hookSpecificOutput?.pluginPaths);
    return given.success ? given.data : [];
  });
  if (plugins.length > 0) specific.pluginPaths = [...new Set(plugins)];
  if (Object.keys(specific).length > 0) merged.hookSpecificOutput = specific;
  return merged;
}
