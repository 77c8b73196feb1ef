/**
 * Codex CLI's answers [A-CDX-1], as Codex CLI 0.171 reads them (research/codex-facts.md; the
 * parser is `hooks/src/engine/output_parser.rs` with the `deny_unknown_fields` wire types of
 * `hooks/src/schema.rs`): how one hook's ending reads as an `AgentAnswer`, and how the answers of
 * one event merge into one decision [C-OUT-1]. Pure: no I/O, no processes.
 *
 * Codex is stricter than Claude Code, and hookwerk follows it (the tool as it runs wins over SPEC):
 * - stdout is JSON output only when it is an object with **no unknown field** (at any level) and,
 *   where there is a `hookSpecificOutput`, a `hookEventName`; anything else that looks like JSON
 *   (`{…` / `[…`), and every output Codex calls "unsupported", makes the run **failed**: nothing
 *   of it counts and the action goes on (outcome `error`, cause `invalid_answer`, `failed: "open"`).
 * - Exit 2 blocks only with a non-empty stderr, which is the reason; stdout is then ignored. Exit 2
 *   with an empty stderr, and exit 2 on an event that cannot block (SessionStart…), are failures.
 * - Any other exit code is a failure, whatever stdout holds.
 * - PreToolUse: `permissionDecision: "deny"` + a non-empty `permissionDecisionReason`, or the old
 *   `decision: "block"` + a non-empty `reason`, blocks; `permissionDecision: "allow"` counts only
 *   with `updatedInput` (the rewrite); `ask`, `allow` alone, `decision: "approve"`, a reason without
 *   a decision, `updatedInput` without allow, `continue: false`, `stopReason`, `suppressOutput`
 *   are unsupported.
 * - PostToolUse: `decision: "block"` + reason (or exit 2) replaces the tool's output with the
 *   reason; `continue: false` replaces it with `stopReason` (default `PostToolUse hook stopped
 *   execution`) and the turn goes on, so it is a block here too, never `continue: false`.
 * - Stop / SubagentStop: a block is the prompt that keeps the agent going; plain stdout is a failure.
 * - UserPromptSubmit, SessionStart, SubagentStart: plain stdout is context.
 * - PermissionRequest: `decision.behavior` allow / deny (`message`, default `PermissionRequest hook
 *   denied approval`); exit 2 denies with stderr; `updatedInput`, `updatedPermissions`,
 *   `interrupt: true` are unsupported.
 * hookwerk's own `failMode: "closed"` turns a failure into a block on events that can block.
 */
import { z } from 'zod';
import { parseBoundedJson, TOO_DEEP } from '../../core/json-text.ts';
import type { AgentAnswer, AgentDecision, PermissionRequestAnswer } from '../../dispatch/agent-answer.ts';
import { type Ending, outcomeOf, type RunResult } from '../../runners/run-result.ts';
import { readClaudeAnswer } from '../agent/claude-answer.ts';
import { CODEX_EVENT_NAMES, codexCanBlock, codexPlainTextIsContext } from './events.ts';

type FailMode = 'open' | 'closed';
type JsonObject = Record<string, unknown>;

/** Codex's default message of a PermissionRequest deny without one. */
const DEFAULT_DENY_MESSAGE = 'PermissionRequest hook denied approval';
const POST_TOOL_USE_STOPPED = 'PostToolUse hook stopped execution';

// ---------------------------------------------------------------------------------------------
// The wire shapes (every object strict: Codex's `deny_unknown_fields`)

const text = z.string().nullish();
const universal = {
  continue: z.boolean().optional(),
  stopReason: text,
  suppressOutput: z.boolean().optional(),
  systemMessage: text,
};
const [firstEvent, ...otherEvents] = CODEX_EVENT_NAMES;
const hookEventName = z.enum([firstEvent ?? 'PreToolUse', ...otherEvents]);
const contextOnly = z.strictObject({ hookEventName, additionalContext: text }).nullish();

const preToolUse = z.strictObject({
  ...universal,
  decision: z.enum(['approve', 'block']).nullish(),
  reason: text,
  hookSpecificOutput: z
    .strictObject({
      hookEventName,
      permissionDecision: z.enum(['allow', 'deny', 'ask']).nullish(),
      permissionDecisionReason: text,
      updatedInput: z.unknown().optional(),
      additionalContext: text,
    })
    .nullish(),
});
const permissionRequest = z.strictObject({
  ...universal,
  hookSpecificOutput: z
    .strictObject({
      hookEventName,
      decision: z
        .strictObject({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: z.unknown().optional(),
          updatedPermissions: z.unknown().optional(),
          message: text,
          interrupt: z.boolean().optional(),
        })
        .nullish(),
    })
    .nullish(),
});
const postToolUse = z.strictObject({
  ...universal,
  decision: z.literal('block').nullish(),
  reason: text,
  hookSpecificOutput: z
    .strictObject({ hookEventName, additionalContext: text, updatedMCPToolOutput: z.unknown().optional() })
    .nullish(),
});
const promptSubmit = z.strictObject({
  ...universal,
  decision: z.literal('block').nullish(),
  reason: text,
  hookSpecificOutput: contextOnly,
});
const stop = z.strictObject({ ...universal, decision: z.literal('block').nullish(), reason: text });
const withContext = z.strictObject({ ...universal, hookSpecificOutput: contextOnly });
const universalOnly = z.strictObject(universal);

/** Every field any event's output may carry (each event's schema admits its own subset). */
interface Wire {
  continue?: boolean | undefined;
  stopReason?: string | null | undefined;
  suppressOutput?: boolean | undefined;
  systemMessage?: string | null | undefined;
  decision?: 'approve' | 'block' | null | undefined;
  reason?: string | null | undefined;
  hookSpecificOutput?:
    | {
        hookEventName: string;
        additionalContext?: string | null | undefined;
        permissionDecision?: 'allow' | 'deny' | 'ask' | null | undefined;
        permissionDecisionReason?: string | null | undefined;
        updatedInput?: unknown;
        updatedMCPToolOutput?: unknown;
        decision?:
          | {
              behavior: 'allow' | 'deny';
              updatedInput?: unknown;
              updatedPermissions?: unknown;
              message?: string | null | undefined;
              interrupt?: boolean | undefined;
            }
          | null
          | undefined;
      }
    | null
    | undefined;
}

/** The wire schema of each event's output. */
function schemaOf(event: string): z.ZodType<Partial<Wire>> {
  switch (event) {
    case 'PreToolUse':
      return preToolUse;
    case 'PermissionRequest':
      return permissionRequest;
    case 'PostToolUse':
      return postToolUse;
    case 'UserPromptSubmit':
      return promptSubmit;
    case 'Stop':
    case 'SubagentStop':
      return stop;
    case 'SessionStart':
    case 'SubagentStart':
      return withContext;
    default:
      return universalOnly;
  }
}

// ---------------------------------------------------------------------------------------------
// Endings

/** The ending of a run that answered (no failure cause). */
function answered(base: Ending): Ending {
  const e: Ending = { outcome: 'ok', durationMs: base.durationMs };
  if (base.exitCode !== undefined) e.exitCode = base.exitCode;
  if (base.signal !== undefined) e.signal = base.signal;
  if (base.stderrTail !== undefined) e.stderrTail = base.stderrTail;
  return e;
}

/** A run Codex marks `Failed`: no decision; hookwerk's `failMode: "closed"` blocks instead. */
function failure(event: string, e: Ending, failMode: FailMode): AgentAnswer {
  if (failMode !== 'closed' || !codexCanBlock(event)) return { ending: e, failed: 'open' };
  const reason = `hook failed (${e.reason ?? e.cause ?? e.outcome}); failMode "closed" blocks`;
  return {
    ending: e,
    failed: 'closed',
    block: true,
    reason,
    ...(event === 'PreToolUse' ? { permission: 'deny' as const } : {}),
  };
}

function failed(event: string, base: Ending, cause: string, why: string, failMode: FailMode): AgentAnswer {
  const e = answered(base);
  e.outcome = 'error';
  e.cause = cause;
  e.reason = why;
  return failure(event, e, failMode);
}

function trimmed(value: string | null | undefined): string | undefined {
  const t = value?.trim();
  return t === undefined || t === '' ? undefined : t;
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(s: string, max = 200): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

// ---------------------------------------------------------------------------------------------
// Reading one run

/**
 * One hook's ending read as Codex CLI reads it (see the file comment). Runs that are not
 * processes (an in-process `use()` hook, which Codex has no equivalent of) are read as Claude
 * Code reads them.
 */
export function readCodexAnswer(
  event: string,
  result: RunResult,
  failMode: FailMode = 'open',
  input: Readonly<Record<string, unknown>> = {},
): AgentAnswer {
  if (result.kind !== 'process') return readClaudeAnswer(event, result, failMode);
  const base = outcomeOf(result);
  if (result.reason !== 'exit') return failure(event, base, failMode);
  if (result.exitCode === 0) return fromStdout(event, result.stdout, base, failMode, isMcpTool(input));
  if (result.exitCode === 2) return fromExit2(event, result.stderr, base, failMode);
  const line = result.stderr
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line !== undefined) base.reason = `${base.reason ?? 'failed'}: ${line}`;
  return failure(event, base, failMode);
}

/** Exit 2: a block whose reason is stderr, when stderr says something and the event can block. */
function fromExit2(event: string, stderr: string, base: Ending, failMode: FailMode): AgentAnswer {
  const reason = trimmed(stderr);
  if (reason === undefined)
    return failed(
      event,
      base,
      'exit_2_without_stderr',
      'exit 2 with an empty stderr blocks nothing in Codex',
      failMode,
    );
  const e = answered(base);
  if (event === 'PermissionRequest') {
    e.outcome = 'deny';
    e.reason = reason;
    return { ending: e, permissionRequest: { behavior: 'deny', message: reason } };
  }
  if (!codexCanBlock(event)) {
    e.outcome = 'error';
    e.cause = 'exit_2_ignored';
    e.reason = `exit 2 ignored: ${event} cannot block (stderr: ${preview(reason, 120)})`;
    return { ending: e, failed: 'open' };
  }
  return blockAnswer(event, e, reason);
}

function blockAnswer(event: string, e: Ending, reason: string): AgentAnswer {
  e.outcome = 'deny';
  e.reason = reason;
  const answer: AgentAnswer = { ending: e, block: true, reason };
  if (event === 'PreToolUse') {
    answer.permission = 'deny';
    answer.permissionReason = reason;
  }
  return answer;
}

/** Exit 0: nothing, plain text, or JSON output. */
function fromStdout(
  event: string,
  stdout: string,
  base: Ending,
  failMode: FailMode,
  mcp: boolean,
): AgentAnswer {
  const out = stdout.trim();
  if (out === '') return { ending: answered(base) };
  if (!out.startsWith('{') && !out.startsWith('[')) {
    const e = answered(base);
    if (codexPlainTextIsContext(event)) return { ending: e, additionalContext: out };
    if (event === 'Stop' || event === 'SubagentStop')
      return failed(
        event,
        base,
        'invalid_answer',
        `${event} hook returned plain text, not JSON output`,
        failMode,
      );
    e.reason = `plain-text stdout ignored on ${event}: ${preview(out)}`;
    return { ending: e };
  }
  const parsed = parseBoundedJson(out);
  if (!parsed.ok)
    return failed(
      event,
      base,
      'invalid_answer',
      parsed.tooDeep ? `stdout JSON is ${TOO_DEEP}` : `stdout is not valid JSON (${parsed.why})`,
      failMode,
    );
  if (!isJsonObject(parsed.value))
    return failed(event, base, 'invalid_answer', 'stdout JSON is not an object', failMode);
  const wire = schemaOf(event).safeParse(parsed.value);
  if (!wire.success) {
    const issue = wire.error.issues[0];
    const where =
      issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
    const why = (issue?.message ?? 'invalid').replace(/\s*\n\s*/g, ' ');
    return failed(
      event,
      base,
      'invalid_answer',
      `JSON output is invalid for Codex: ${where}${why}`,
      failMode,
    );
  }
  const unsupported = unsupportedOf(event, wire.data, mcp);
  if (unsupported !== undefined) return failed(event, base, 'invalid_answer', unsupported, failMode);
  return fromWire(event, wire.data, answered(base));
}

/** What Codex rejects in output that has the right shape; undefined when it is all supported. */
function unsupportedOf(event: string, w: Partial<Wire>, mcp: boolean): string | undefined {
  const hso = w.hookSpecificOutput ?? undefined;
  if (event === 'PreToolUse' || event === 'PermissionRequest') {
    if (w.continue === false) return `${event} hook returned unsupported continue:false`;
    if (w.stopReason != null) return `${event} hook returned unsupported stopReason`;
    if (w.suppressOutput === true) return `${event} hook returned unsupported suppressOutput`;
  }
  if (event === 'PostToolUse' && w.suppressOutput === true)
    return 'PostToolUse hook returned unsupported suppressOutput';
  if (event === 'PostToolUse' && !mcp && w.hookSpecificOutput?.updatedMCPToolOutput != null)
    return 'PostToolUse hook returned updatedMCPToolOutput for a tool that is not an MCP tool';
  if (event === 'PreToolUse') {
    const updated = hso?.updatedInput ?? undefined;
    if (updated !== undefined && !isJsonObject(updated))
      return 'PreToolUse hook returned updatedInput that is not an object';
    const own =
      hso !== undefined &&
      (hso.permissionDecision != null || hso.permissionDecisionReason != null || updated !== undefined);
    if (own) {
      const decision = hso?.permissionDecision ?? undefined;
      if (updated !== undefined && decision !== 'allow')
        return 'PreToolUse hook returned updatedInput without permissionDecision:allow';
      if (decision === 'allow' && updated === undefined)
        return 'PreToolUse hook returned unsupported permissionDecision:allow';
      if (decision === 'ask') return 'PreToolUse hook returned unsupported permissionDecision:ask';
      if (decision === 'deny' && trimmed(hso?.permissionDecisionReason) === undefined)
        return 'PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason';
      if (decision === undefined)
        return 'PreToolUse hook returned permissionDecisionReason without permissionDecision';
      return undefined;
    }
    if (w.decision === 'approve') return 'PreToolUse hook returned unsupported decision:approve';
    if (w.decision === 'block' && trimmed(w.reason) === undefined)
      return 'PreToolUse hook returned decision:block without a non-empty reason';
    if (w.decision == null && w.reason != null) return 'PreToolUse hook returned reason without decision';
    return undefined;
  }
  if (event === 'PermissionRequest') {
    const d = hso?.decision ?? undefined;
    if (d?.updatedInput != null) return 'PermissionRequest hook returned unsupported updatedInput';
    if (d?.updatedPermissions != null)
      return 'PermissionRequest hook returned unsupported updatedPermissions';
    if (d?.interrupt === true) return 'PermissionRequest hook returned unsupported interrupt:true';
    return undefined;
  }
  if (w.decision === 'block' && trimmed(w.reason) === undefined)
    return `${event} hook returned decision:block without a non-empty reason`;
  if (event === 'PostToolUse' && w.decision == null && w.continue !== false && w.reason != null)
    return 'PostToolUse hook returned reason without decision';
  return undefined;
}

/** Supported output, read into an answer. */
function fromWire(event: string, w: Partial<Wire>, e: Ending): AgentAnswer {
  const hso = w.hookSpecificOutput ?? undefined;
  const answer: AgentAnswer = { ending: e };
  const context = hso?.additionalContext;
  if (trimmed(context) !== undefined && context != null) answer.additionalContext = context;
  if (w.systemMessage != null && w.systemMessage !== '') answer.systemMessage = w.systemMessage;
  if (event === 'PreToolUse') {
    if (hso?.permissionDecision === 'deny')
      return Object.assign(blockAnswer(event, e, trimmed(hso.permissionDecisionReason) ?? ''), pick(answer));
    if (w.decision === 'block')
      return Object.assign(blockAnswer(event, e, trimmed(w.reason) ?? ''), pick(answer));
    const updated = hso?.updatedInput;
    if (hso?.permissionDecision === 'allow' && isJsonObject(updated)) {
      answer.permission = 'allow';
      answer.updatedInput = updated;
      e.reason = 'allow with updatedInput: the rewritten input runs';
    }
    return answer;
  }
  if (event === 'PermissionRequest') {
    const d = hso?.decision ?? undefined;
    if (d === undefined) return answer;
    const request: PermissionRequestAnswer = { behavior: d.behavior };
    if (d.behavior === 'deny') {
      request.message = trimmed(d.message) ?? DEFAULT_DENY_MESSAGE;
      e.outcome = 'deny';
      e.reason = request.message;
    }
    answer.permissionRequest = request;
    return answer;
  }
  if (event === 'PostToolUse') {
    const mcp = hso?.updatedMCPToolOutput;
    if (mcp !== undefined && mcp !== null) answer.hookSpecificOutput = { updatedMCPToolOutput: mcp };
    if (w.decision === 'block')
      return Object.assign(blockAnswer(event, e, trimmed(w.reason) ?? ''), pick(answer));
    if (w.continue === false)
      return Object.assign(
        blockAnswer(event, e, trimmed(w.stopReason) ?? POST_TOOL_USE_STOPPED),
        pick(answer),
      );
    return answer;
  }
  if (w.decision === 'block' && codexCanBlock(event))
    return Object.assign(blockAnswer(event, e, trimmed(w.reason) ?? ''), pick(answer));
  if (w.continue === false) {
    answer.continue = false;
    const reason = trimmed(w.stopReason);
    if (reason !== undefined) answer.stopReason = reason;
    e.reason = `continue: false${reason !== undefined ? ` (${reason})` : ''}`;
  }
  return answer;
}

/** The context fields of an answer, to carry over onto a block. */
function pick(a: AgentAnswer): Partial<AgentAnswer> {
  const out: Partial<AgentAnswer> = {};
  if (a.additionalContext !== undefined) out.additionalContext = a.additionalContext;
  if (a.systemMessage !== undefined) out.systemMessage = a.systemMessage;
  if (a.hookSpecificOutput !== undefined) out.hookSpecificOutput = a.hookSpecificOutput;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Merging

function joined(values: readonly (string | undefined)[]): string | undefined {
  const kept = values.filter((v): v is string => v !== undefined && v !== '');
  return kept.length === 0 ? undefined : kept.join('\n');
}

/**
 * [A-CDX-1, C-OUT-1] The answers of one event, in configuration order, merged as Codex merges
 * them: any block wins (over allow and rewrite), and the reason is the **first** blocking hook's
 * in configuration order (Codex does not join them); a PermissionRequest deny wins over allow,
 * with the first deny's message; `updatedInput` from the last hook that rewrote (only when
 * nothing blocked); every `additionalContext` and `systemMessage` joined with `\n`, in
 * configuration order; `continue: false` when any hook said so, with the first `stopReason`.
 * `updatedMCPToolOutput` (PostToolUse on an MCP tool; on another tool the run failed): the last
 * hook's that gave one.
 */
export function mergeCodexAnswers(
  event: string,
  answers: readonly AgentAnswer[],
  input: Record<string, unknown>,
): Omit<AgentDecision, 'runs' | 'env'> {
  const canBlock = codexCanBlock(event);
  const firstBlock = canBlock ? answers.find((a) => a.block === true) : undefined;
  const merged: Omit<AgentDecision, 'runs' | 'env'> = { decision: 'allow', blocked: false, continue: true };
  if (firstBlock !== undefined) {
    merged.decision = 'deny';
    merged.blocked = true;
    if (firstBlock.reason !== undefined) merged.reason = firstBlock.reason;
  } else if (event === 'PreToolUse') {
    for (const a of answers) if (a.updatedInput !== undefined) merged.updatedInput = a.updatedInput;
  }
  if (event === 'PermissionRequest') {
    const given = answers.flatMap((a) => (a.permissionRequest !== undefined ? [a.permissionRequest] : []));
    const deny = given.find((p) => p.behavior === 'deny');
    if (deny !== undefined) {
      merged.decision = 'deny';
      merged.permission = { behavior: 'deny', message: deny.message ?? DEFAULT_DENY_MESSAGE };
      merged.reason = merged.permission.message;
    } else if (given.length > 0) merged.permission = { behavior: 'allow' };
  }
  const stopper = answers.find((a) => a.continue === false);
  if (stopper !== undefined) {
    merged.continue = false;
    const reason = answers.find((a) => a.continue === false && a.stopReason !== undefined)?.stopReason;
    if (reason !== undefined) merged.stopReason = reason;
  }
  const context = joined(answers.map((a) => a.additionalContext));
  if (context !== undefined) merged.additionalContext = context;
  const message = joined(answers.map((a) => a.systemMessage));
  if (message !== undefined) merged.systemMessage = message;
  if (event === 'PostToolUse' && isMcpTool(input)) {
    let mcp: unknown;
    for (const x of answers)
      if (x.hookSpecificOutput?.updatedMCPToolOutput !== undefined)
        mcp = x.hookSpecificOutput.updatedMCPToolOutput;
    if (mcp !== undefined) merged.hookSpecificOutput = { updatedMCPToolOutput: mcp };
  }
  return merged;
}

/** An MCP tool (`mcp__server__tool`): the only kind whose output a PostToolUse hook may replace. */
function isMcpTool(input: Readonly<Record<string, unknown>>): boolean {
  return typeof input.tool_name === 'string' && input.tool_name.startsWith('mcp__');
}
