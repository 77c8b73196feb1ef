/**
 * The Claude Code dialect's answers [§5]: how one hook's ending (exit code + stdout + stderr, an
 * HTTP answer, an in-process return) reads as an `AgentAnswer` [C-ANS-1..3, C-RUN-4], and how the
 * answers of one event merge into one decision [C-ANS-4, C-OUT-1]. Pure: no I/O, no processes.
 *
 * Decisions taken where SPEC §5 is silent (each is repeated where it is implemented):
 * - Exit 2, or `decision: "block"`, on an event that cannot block [C-EV-1] blocks nothing; the run
 *   is recorded as outcome `error`, cause `exit_2_ignored` / `block_ignored`, `failed: "open"`,
 *   so "why didn't my hook block?" has an answer (a `deny` outcome would claim a denial that did
 *   not happen). Its other JSON fields (context, systemMessage, continue…) still count.
 * - `failMode: "closed"` turns every failure into a block: timeout, spawn error, signal, output
 *   limit, exit codes other than 0 and 2 without valid JSON output [C-RUN-4], and also invalid
 *   JSON output and, for HTTP, a non-2xx status, a transport error or a non-JSON 2xx body (a
 *   closed guard that answers garbage must not let the action through). On an event that cannot
 *   block there is nothing to close: the failure is recorded with `failed: "open"`.
 * - [C-ANS-3] A `hookSpecificOutput` without `hookEventName`, or naming another event, makes the
 *   whole JSON output invalid (cause `invalid_answer`), as Claude Code 2.1 rejects it: nothing of
 *   it counts, and `failMode: "closed"` blocks.
 * - [C-ANS-2] Exit 2 blocks with stderr as the reason — and, as the real Claude Code 2.1.197 does
 *   (`npm run differential`), valid JSON on stdout still counts: a JSON deny's (or `block`'s)
 *   reason wins over stderr, its `additionalContext` and `systemMessage` are kept, `continue` is
 *   not; JSON that fails the output check (no `hookEventName`…) makes the exit 2 a non-blocking
 *   error — the tool runs. A JSON allow still blocks, with stderr.
 * - A known field of the wrong type (or an unknown enum value, e.g. `decision: "deny"`) is
 *   ignored, never fatal; the run's `reason` says which fields were ignored.
 * - Plain stdout on an event where it is not context is kept (a preview) in the run's `reason`.
 */
import { z } from 'zod';
import { parseBoundedJson, TOO_DEEP } from '../../core/json-text.ts';
import type {
  AgentAnswer,
  AgentDecision,
  Permission,
  PermissionRequestAnswer,
} from '../../dispatch/agent-answer.ts';
import { type Ending, outcomeOf, type RunResult } from '../../runners/run-result.ts';
import { claudeCanBlock, claudePlainTextIsContext } from './claude-events.ts';

type ClaudeFailMode = 'open' | 'closed';

/** The merged decision before the engine adds `runs` and `env`. */
type ClaudeMergedDecision = Omit<AgentDecision, 'runs' | 'env'>;

// ---------------------------------------------------------------------------------------------
// Reading the JSON output [C-ANS-3]: field by field, each checked with zod's safeParse, so a
// wrong-typed field is dropped (and noted) without spoiling the rest.

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object, kept as it is (no copy: `updatedInput` must reach the tool unchanged). */
const objectSchema = z.custom<JsonObject>(isJsonObject);
const stringSchema = z.string();
const booleanSchema = z.boolean();
const permissionSchema = z.enum(['allow', 'deny', 'ask', 'defer']);
const topDecisionSchema = z.enum(['block', 'approve']);
const behaviorSchema = z.enum(['allow', 'deny']);

/**
 * One known field. Absent and `null` are both "not given"; any other value that fails its schema
 * is noted and ignored.
 */
function field<T>(
  obj: JsonObject,
  key: string,
  schema: z.ZodType<T>,
  notes: string[],
  path = '',
): T | undefined {
  if (!Object.hasOwn(obj, key)) return undefined;
  const value = obj[key];
  if (value === null || value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  notes.push(`${path}${key}`);
  return undefined;
}

/** What the JSON output says, before it meets the exit code; `invalid`: why none of it counts. */
interface ClaudeOutput {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  suppressOutput?: boolean;
  decision?: 'block' | 'approve';
  reason?: string;
  additionalContext?: string;
  permissionDecision?: Permission;
  permissionDecisionReason?: string;
  updatedInput?: JsonObject;
  permissionRequest?: PermissionRequestAnswer;
  /** Fields present but ignored (wrong type, unknown value, another event's output). */
  ignored: string[];
}

type ReadOutput = ClaudeOutput | { invalid: string };

function readOutput(event: string, obj: JsonObject): ReadOutput {
  const ignored: string[] = [];
  const out: ClaudeOutput = { ignored };
  out.continue = field(obj, 'continue', booleanSchema, ignored);
  out.stopReason = field(obj, 'stopReason', stringSchema, ignored);
  out.systemMessage = field(obj, 'systemMessage', stringSchema, ignored);
  out.suppressOutput = field(obj, 'suppressOutput', booleanSchema, ignored);
  out.decision = field(obj, 'decision', topDecisionSchema, ignored);
  out.reason = field(obj, 'reason', stringSchema, ignored);
  const hso = field(obj, 'hookSpecificOutput', objectSchema, ignored);
  if (hso === undefined) return out;
  const p = 'hookSpecificOutput.';
  // [C-ANS-3] Claude Code's schema requires the event's own name here: without it, or with
  // another event's, the whole output is invalid (a missing one is no licence to decide).
  const hookEventName = field(hso, 'hookEventName', stringSchema, ignored, p);
  if (hookEventName === undefined) {
    const given = hso.hookEventName !== undefined && hso.hookEventName !== null;
    return {
      invalid: `JSON output is invalid: hookSpecificOutput.hookEventName is ${given ? 'not a string' : 'missing'}`,
    };
  }
  if (hookEventName !== event)
    return {
      invalid: `JSON output is invalid: hookSpecificOutput.hookEventName is ${JSON.stringify(hookEventName)}, not ${JSON.stringify(event)}`,
    };
  out.additionalContext = field(hso, 'additionalContext', stringSchema, ignored, p);
  if (event === 'PreToolUse') {
    out.permissionDecision = field(hso, 'permissionDecision', permissionSchema, ignored, p);
    out.permissionDecisionReason = field(hso, 'permissionDecisionReason', stringSchema, ignored, p);
    out.updatedInput = field(hso, 'updatedInput', objectSchema, ignored, p);
  } else if (event === 'PermissionRequest') {
    out.permissionRequest = readPermissionRequest(hso, ignored);
  }
  return out;
}

function readPermissionRequest(hso: JsonObject, ignored: string[]): PermissionRequestAnswer | undefined {
  const d = field(hso, 'decision', objectSchema, ignored, 'hookSpecificOutput.');
  if (d === undefined) return undefined;
  const p = 'hookSpecificOutput.decision.';
  const behavior = field(d, 'behavior', behaviorSchema, ignored, p);
  if (behavior === undefined) {
    if (!Object.hasOwn(d, 'behavior')) ignored.push(`${p}behavior (missing)`);
    return undefined;
  }
  const answer: PermissionRequestAnswer = { behavior };
  const updatedInput = field(d, 'updatedInput', objectSchema, ignored, p);
  const message = field(d, 'message', stringSchema, ignored, p);
  const interrupt = field(d, 'interrupt', booleanSchema, ignored, p);
  if (updatedInput !== undefined) answer.updatedInput = updatedInput;
  if (message !== undefined) answer.message = message;
  if (interrupt !== undefined) answer.interrupt = interrupt;
  return answer;
}

type ParsedText =
  | { kind: 'empty' }
  | { kind: 'json'; value: JsonObject }
  | { kind: 'invalid_json'; why: string }
  | { kind: 'text'; text: string };

/**
 * [C-ANS-1] stdout: JSON when its first non-space character is `{`, else plain text. [C-ANS-3]
 * JSON nested past MAX_HOOK_JSON_DEPTH is invalid: refused before it is parsed, so no deep value
 * reaches the decision (whose JSON.stringify would throw and lose every other hook's answer).
 */
function parseStdout(stdout: string): ParsedText {
  const text = stdout.trim();
  if (text === '') return { kind: 'empty' };
  if (!text.startsWith('{')) return { kind: 'text', text };
  const parsed = parseBoundedJson(text);
  if (!parsed.ok)
    return {
      kind: 'invalid_json',
      why: parsed.tooDeep
        ? `stdout JSON is ${TOO_DEEP}`
        : `stdout starts with "{" but is not valid JSON (${parsed.why})`,
    };
  // Starts with `{` and parsed: always an object; checked all the same.
  return isJsonObject(parsed.value)
    ? { kind: 'json', value: parsed.value }
    : { kind: 'invalid_json', why: 'stdout starts with "{" but is not valid JSON (not an object)' };
}

// ---------------------------------------------------------------------------------------------
// Endings

/** The ending of a run that answered: how it ended (code, status, stderr), with no failure cause. */
function answeredEnding(base: Ending): Ending {
  const e: Ending = { outcome: 'ok', durationMs: base.durationMs };
  if (base.exitCode !== undefined) e.exitCode = base.exitCode;
  if (base.signal !== undefined) e.signal = base.signal;
  if (base.status !== undefined) e.status = base.status;
  if (base.stderrTail !== undefined) e.stderrTail = base.stderrTail;
  return e;
}

function firstLine(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t !== '') return t;
  }
  return undefined;
}

function preview(text: string, max = 200): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

function addNote(e: Ending, note: string): void {
  e.reason = e.reason === undefined ? note : `${e.reason}; ${note}`;
}

/**
 * [C-RUN-4] A run that gave no decision (timeout, spawn error, signal, output limit, another exit
 * code, an unreadable answer): the action proceeds, unless `failMode` is `closed` and the event
 * can block; then it blocks, with a reason naming the failure. The ending is the failure's own
 * (`outcomeOf()`'s outcome and cause), never `deny`.
 */
function failure(event: string, e: Ending, failMode: ClaudeFailMode): AgentAnswer {
  if (failMode !== 'closed' || !claudeCanBlock(event)) return { ending: e, failed: 'open' };
  const reason = `hook failed (${e.reason ?? e.cause ?? e.outcome}); failMode "closed" blocks`;
  const answer: AgentAnswer = { ending: e, failed: 'closed', block: true, reason };
  if (event === 'PreToolUse') {
    answer.permission = 'deny';
    answer.permissionReason = reason;
  }
  return answer;
}

function invalidAnswer(event: string, base: Ending, why: string, failMode: ClaudeFailMode): AgentAnswer {
  const e = answeredEnding(base);
  e.outcome = 'error';
  e.cause = 'invalid_answer';
  e.reason = why;
  return failure(event, e, failMode);
}

// ---------------------------------------------------------------------------------------------
// From the output to an answer

/**
 * [C-ANS-3] An answer from JSON output (exit 0, another exit code with valid JSON, a 2xx body, an
 * in-process return). How PreToolUse's verdict relates to blocking: `permissionDecision: "deny"`,
 * and the old `decision: "block"`, set `permission: "deny"` **and** `block: true` (PreToolUse can
 * block), so on PreToolUse `permission === "deny"` ⇔ `block`. `permissionDecision` wins over the
 * old top-level `decision` when both are given.
 */
function fromOutput(event: string, out: ClaudeOutput, base: Ending): AgentAnswer {
  const e = answeredEnding(base);
  const answer: AgentAnswer = { ending: e };
  if (out.continue !== undefined) answer.continue = out.continue;
  if (out.stopReason !== undefined) answer.stopReason = out.stopReason;
  if (out.systemMessage !== undefined && out.systemMessage !== '') answer.systemMessage = out.systemMessage;
  if (out.suppressOutput !== undefined) answer.suppressOutput = out.suppressOutput;
  if (out.additionalContext !== undefined && out.additionalContext !== '')
    answer.additionalContext = out.additionalContext;
  if (out.updatedInput !== undefined) answer.updatedInput = out.updatedInput;

  if (event === 'PreToolUse') {
    let permission = out.permissionDecision;
    let permissionReason = out.permissionDecisionReason ?? out.reason;
    if (permission === undefined && out.decision !== undefined) {
      // The old form: approve → allow, block → deny.
      permission = out.decision === 'approve' ? 'allow' : 'deny';
      permissionReason = out.reason ?? out.permissionDecisionReason;
    }
    if (permission !== undefined) answer.permission = permission;
    if (permissionReason !== undefined) answer.permissionReason = permissionReason;
    if (permission === 'deny') {
      answer.block = true;
      if (permissionReason !== undefined) answer.reason = permissionReason;
      e.outcome = 'deny';
    }
    if (permissionReason !== undefined) e.reason = permissionReason;
  } else if (out.decision === 'block') {
    if (claudeCanBlock(event)) {
      answer.block = true;
      if (out.reason !== undefined) answer.reason = out.reason;
      e.outcome = 'deny';
      if (out.reason !== undefined) e.reason = out.reason;
    } else {
      // Recorded, not blocking: the event cannot block [C-EV-1].
      e.outcome = 'error';
      e.cause = 'block_ignored';
      e.reason = `decision "block" ignored: ${event} cannot block${out.reason === undefined ? '' : ` (reason: ${out.reason})`}`;
      answer.failed = 'open';
    }
  }

  if (out.permissionRequest !== undefined) {
    answer.permissionRequest = out.permissionRequest;
    if (out.permissionRequest.behavior === 'deny') {
      e.outcome = 'deny';
      if (out.permissionRequest.message !== undefined) e.reason = out.permissionRequest.message;
    }
  }
  if (out.ignored.length > 0) addNote(e, `ignored: ${out.ignored.join(', ')}`);
  return answer;
}

/** [C-ANS-3] JSON output read as an answer, or the invalid answer it is. */
function fromJson(event: string, value: JsonObject, base: Ending, failMode: ClaudeFailMode): AgentAnswer {
  const out = readOutput(event, value);
  return 'invalid' in out ? invalidAnswer(event, base, out.invalid, failMode) : fromOutput(event, out, base);
}

/** [C-ANS-1] Exit 0 (or an in-process string): JSON, plain text, or nothing. */
function fromStdout(event: string, stdout: string, base: Ending, failMode: ClaudeFailMode): AgentAnswer {
  const parsed = parseStdout(stdout);
  switch (parsed.kind) {
    case 'empty':
      return { ending: answeredEnding(base) };
    case 'json':
      return fromJson(event, parsed.value, base, failMode);
    case 'invalid_json':
      return invalidAnswer(event, base, parsed.why, failMode);
    case 'text': {
      const e = answeredEnding(base);
      if (claudePlainTextIsContext(event)) return { ending: e, additionalContext: parsed.text };
      e.reason = `plain-text stdout only recorded on ${event}: ${preview(parsed.text)}`;
      return { ending: e };
    }
  }
}

/**
 * [C-ANS-2] Exit 2 blocks where the event can block, with stderr (trimmed) as the reason. As the
 * real Claude Code 2.1.197 does (checked side by side, `npm run differential`), JSON output on
 * stdout is still read: output that fails the check (a `hookSpecificOutput` without its
 * `hookEventName`…) turns the block into a non-blocking error, as on exit 0; valid output keeps its
 * context and message, and a deny's or `block`'s own reason wins over stderr. `continue: false`
 * does not stop the agent on exit 2. Plain or empty stdout is ignored. On an event that cannot
 * block the run is recorded as an error (`exit_2_ignored`) and blocks nothing — see the file
 * comment.
 */
function fromExit2(
  event: string,
  stdout: string,
  stderr: string,
  base: Ending,
  failMode: ClaudeFailMode,
): AgentAnswer {
  const e = answeredEnding(base);
  const answer: AgentAnswer = { ending: e };
  const stderrText = stderr.trim();
  if (!claudeCanBlock(event)) {
    const said = firstLine(stderrText);
    e.outcome = 'error';
    e.cause = 'exit_2_ignored';
    e.reason = `exit 2 ignored: ${event} cannot block${said === undefined ? '' : ` (${said})`}`;
    answer.failed = 'open';
    return answer;
  }
  const parsed = parseStdout(stdout);
  const out = parsed.kind === 'json' ? readOutput(event, parsed.value) : undefined;
  if (out !== undefined && 'invalid' in out) return invalidAnswer(event, base, out.invalid, failMode);
  let reason = stderrText !== '' ? stderrText : 'blocked by hook (exit 2)';
  if (out !== undefined) {
    const denied =
      event === 'PreToolUse'
        ? out.permissionDecision === 'deny' ||
          (out.permissionDecision === undefined && out.decision === 'block')
        : out.decision === 'block';
    const own = event === 'PreToolUse' ? (out.permissionDecisionReason ?? out.reason) : out.reason;
    if (denied && own !== undefined && own !== '') reason = own;
    if (out.additionalContext !== undefined && out.additionalContext !== '')
      answer.additionalContext = out.additionalContext;
    if (out.systemMessage !== undefined && out.systemMessage !== '') answer.systemMessage = out.systemMessage;
    if (out.ignored.length > 0) addNote(e, `ignored: ${out.ignored.join(', ')}`);
  }
  answer.block = true;
  answer.reason = reason;
  if (event === 'PreToolUse') {
    answer.permission = 'deny';
    answer.permissionReason = reason;
  }
  e.outcome = 'deny';
  e.reason = e.reason === undefined ? reason : `${reason}; ${e.reason}`;
  return answer;
}

/**
 * Reads one hook's run as Claude Code would [C-ANS-1..3, C-RUN-4]:
 * - exit 0: stdout decides (JSON, plain text, or empty = no objection); invalid JSON, or JSON
 *   whose `hookSpecificOutput` lacks this event's `hookEventName`, is a non-blocking error (cause
 *   `invalid_answer`) [C-ANS-3];
 * - exit 2: blocks where the event can block, stderr the reason — a valid JSON deny's own reason,
 *   context and message still count, invalid JSON output is a non-blocking error [C-ANS-2];
 * - another exit code: a non-blocking error (cause `exit_code`, reason: first stderr line), unless
 *   stdout is valid JSON output (no known field ill-typed), which then decides as on exit 0;
 * - timeout, spawn error, signal, output limit: no decision;
 * - HTTP: a 2xx JSON body decides as stdout; an empty 2xx body is no objection; any other status,
 *   a transport error, a non-JSON 2xx body is a non-blocking error;
 * - in-process: `undefined`/`null` is no objection, an object is the JSON output, a string is
 *   read as stdout on exit 0.
 * Every failure is allowed, or blocks under `failMode: "closed"` (on events that can block).
 * stderr is never parsed as JSON. The ending is always complete (`outcomeOf()` for failures).
 */
export function readClaudeAnswer(
  event: string,
  result: RunResult,
  failMode: ClaudeFailMode = 'open',
): AgentAnswer {
  const base = outcomeOf(result);
  switch (result.kind) {
    case 'process': {
      if (result.reason !== 'exit') return failure(event, base, failMode);
      if (result.exitCode === 0) return fromStdout(event, result.stdout, base, failMode);
      if (result.exitCode === 2) return fromExit2(event, result.stdout, result.stderr, base, failMode);
      // Another code: valid JSON output (every known field well-typed, as Claude Code's schema
      // check) decides as on exit 0; anything else is the exit-code failure.
      const parsed = parseStdout(result.stdout);
      const out = parsed.kind === 'json' ? readOutput(event, parsed.value) : undefined;
      if (out !== undefined && !('invalid' in out) && out.ignored.length === 0)
        return fromOutput(event, out, base);
      const line = firstLine(result.stderr);
      if (line !== undefined) base.reason = line;
      if (out !== undefined)
        addNote(
          base,
          `stdout JSON not valid output (${'invalid' in out ? out.invalid : out.ignored.join(', ')})`,
        );
      return failure(event, base, failMode);
    }
    case 'http': {
      if (base.outcome !== 'ok') return failure(event, base, failMode);
      const body = result.body.trim();
      if (body === '') return { ending: answeredEnding(base) };
      const parsed = parseBoundedJson(body);
      if (!parsed.ok) {
        const why = parsed.tooDeep ? TOO_DEEP : `not JSON: ${preview(body, 80)}`;
        return invalidAnswer(event, base, `HTTP ${result.status} body is ${why}`, failMode);
      }
      const value = parsed.value;
      if (!isJsonObject(value))
        return invalidAnswer(event, base, `HTTP ${result.status} body is not a JSON object`, failMode);
      return fromJson(event, value, base, failMode);
    }
    case 'in-process': {
      if (base.outcome !== 'ok') return failure(event, base, failMode);
      const value = result.value;
      if (value === undefined || value === null) return { ending: answeredEnding(base) };
      if (typeof value === 'string') return fromStdout(event, value, base, failMode);
      if (isJsonObject(value)) return fromJson(event, value, base, failMode);
      return invalidAnswer(
        event,
        base,
        `returned ${Array.isArray(value) ? 'an array' : typeof value}, not an object`,
        failMode,
      );
    }
    case 'wasm':
      if (base.outcome !== 'ok') return failure(event, base, failMode);
      return invalidAnswer(event, base, 'a WASM plugin cannot answer a gate event', failMode);
  }
}

// ---------------------------------------------------------------------------------------------
// Merging [C-ANS-4, C-OUT-1]

const PERMISSION_RANK: Readonly<Record<Permission, number>> = { allow: 0, ask: 1, defer: 2, deny: 3 };

function joined(values: readonly (string | undefined)[]): string | undefined {
  const kept = values.filter((v): v is string => v !== undefined && v !== '');
  return kept.length === 0 ? undefined : kept.join('\n');
}

/**
 * [C-ANS-4] PermissionRequest: any `deny` wins over `allow`. A deny keeps the messages of
 * every denying hook (joined, configuration order) and interrupts if any of them says so; an
 * allow takes `updatedInput` from the last allowing hook, in configuration order, that gave one.
 */
function mergePermissionRequests(answers: readonly AgentAnswer[]): PermissionRequestAnswer | undefined {
  const given = answers.flatMap((a) => (a.permissionRequest === undefined ? [] : [a.permissionRequest]));
  if (given.length === 0) return undefined;
  const denies = given.filter((p) => p.behavior === 'deny');
  if (denies.length > 0) {
    const merged: PermissionRequestAnswer = { behavior: 'deny' };
    const message = joined(denies.map((p) => p.message));
    if (message !== undefined) merged.message = message;
    if (denies.some((p) => p.interrupt === true)) merged.interrupt = true;
    return merged;
  }
  const merged: PermissionRequestAnswer = { behavior: 'allow' };
  for (const p of given) if (p.updatedInput !== undefined) merged.updatedInput = p.updatedInput;
  return merged;
}

/**
 * [C-ANS-4, C-OUT-1] Merges the answers of one event, given **in configuration order** (not finish
 * order), into one decision, deterministically:
 * - `blocked` when the event can block and any hook blocked. A permission `deny` (PreToolUse
 *   `permissionDecision: "deny"`, the old `decision: "block"`, exit 2) always comes with
 *   `block: true` from `readClaudeAnswer`, and is counted as a block here even when a hand-built
 *   answer forgot the flag: on an event that can block, a `deny` permission ⇔ `blocked`.
 * - `decision`: `deny` whenever blocked; else the most restrictive permission given (deny > defer
 *   > ask > allow), `allow` when none was. On PermissionRequest (which cannot block) a merged
 *   `behavior: "deny"` makes the decision `deny` too, still with `blocked: false`. On other events
 *   that cannot block, a `deny` is never the decision (nothing was denied).
 * - `reason`: when blocked, the reasons of the blocking hooks; for `ask` / `defer`, the reasons of
 *   the hooks that asked or deferred; for an explicit `allow` (beyond SPEC), the reasons of the
 *   hooks that allowed; for a PermissionRequest deny, the deny messages. Joined with `\n`.
 * - `additionalContext`, `systemMessage`: every hook's, joined with `\n`, configuration order.
 * - `updatedInput`: the last hook in configuration order that gave one.
 * - `continue: false` when any hook said so; `stopReason`: the first one given by a hook that
 *   said `continue: false`.
 */
export function mergeClaudeAnswers(event: string, answers: readonly AgentAnswer[]): ClaudeMergedDecision {
  const canBlock = claudeCanBlock(event);
  const blocks = (a: AgentAnswer) => a.block === true || a.permission === 'deny';
  const blocked = canBlock && answers.some(blocks);

  let top: Permission | undefined;
  for (const a of answers) {
    if (a.permission === undefined || (a.permission === 'deny' && !canBlock)) continue;
    if (top === undefined || PERMISSION_RANK[a.permission] > PERMISSION_RANK[top]) top = a.permission;
  }
  const permission = mergePermissionRequests(answers);

  let decision: Permission;
  let reason: string | undefined;
  if (blocked) {
    decision = 'deny';
    reason = joined(answers.filter(blocks).map((a) => a.reason ?? a.permissionReason));
  } else if (permission?.behavior === 'deny') {
    decision = 'deny';
    reason = permission.message;
  } else {
    decision = top ?? 'allow';
    if (decision === 'ask' || decision === 'defer') {
      reason = joined(
        answers
          .filter((a) => a.permission === 'ask' || a.permission === 'defer')
          .map((a) => a.permissionReason ?? a.reason),
      );
    } else if (top === 'allow') {
      reason = joined(answers.filter((a) => a.permission === 'allow').map((a) => a.permissionReason));
    }
  }

  const merged: ClaudeMergedDecision = { decision, blocked, continue: true };
  if (reason !== undefined) merged.reason = reason;
  const stopper = answers.find((a) => a.continue === false && a.stopReason !== undefined);
  if (answers.some((a) => a.continue === false)) {
    merged.continue = false;
    if (stopper?.stopReason !== undefined) merged.stopReason = stopper.stopReason;
  }
  const systemMessage = joined(answers.map((a) => a.systemMessage));
  if (systemMessage !== undefined) merged.systemMessage = systemMessage;
  const additionalContext = joined(answers.map((a) => a.additionalContext));
  if (additionalContext !== undefined) merged.additionalContext = additionalContext;
  for (const a of answers) if (a.updatedInput !== undefined) merged.updatedInput = a.updatedInput;
  if (permission !== undefined) merged.permission = permission;
  return merged;
}
