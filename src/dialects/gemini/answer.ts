/**
 * The Gemini CLI dialect's answers [G-ANS-1]: how one command hook's ending becomes an
 * `AgentAnswer`, how the answers of one event become one decision [C-OUT-1], and how, in
 * `sequential` mode, one hook's output feeds the next hook's input. Pure: no I/O.
 *
 * Behaviour follows Gemini CLI's code (google-gemini/gemini-cli 5411f113,
 * `packages/core/src/hooks/` and the call sites that read the merged output, checked against the
 * 0.61.0 bundle), not its docs.
 *
 * Reading one hook (exit code, then output):
 * - The text read is stdout trimmed, or stderr trimmed when stdout is empty, whatever the exit code.
 * - JSON: an object (a JSON string holding JSON is decoded once more) is the output, and its
 *   `decision` decides whatever the exit code was: exit 2 with `{"decision":"allow"}` allows,
 *   exit 1 with `{"decision":"deny"}` blocks. A JSON number, boolean or null is no output at all.
 * - Plain text: exit 0 → allow, the text is a `systemMessage`; exit 1 → allow, the message is
 *   `Warning: <text>`; any other code → deny, the text is the reason.
 * - No text: no output. Even exit 2 does not block without a word on stdout or stderr.
 * - JSON nested deeper than 64 levels [C-ANS-3]: an invalid answer (hookwerk's, see `tooDeep`).
 * - A non-zero exit is recorded as an error (`cause: exit_code`) unless the hook blocked.
 * - Timeout, failed launch, death by a signal, output over the limit: no answer, as [C-RUN-4];
 *   with failMode `closed` a block (on events that can block).
 *
 * What a block means, per event (from the code that fires each event):
 * - BeforeTool: the tool does not run; the model gets "Tool execution blocked: <reason>". `ask`
 *   forces the user's confirmation. `tool_input` rewrites the arguments (only when not blocked).
 * - AfterTool: the tool ran, but the model gets "Tool result blocked: <reason>" instead of its
 *   result. Otherwise `additionalContext` is appended to the result and `tailToolCallRequest` runs.
 * - BeforeAgent: the turn is dropped, the prompt is not kept in history (`continue: false` stops
 *   but keeps it). Otherwise `additionalContext` is appended to the prompt.
 * - AfterAgent: the answer is rejected and the reason is sent as a new prompt (a retry, with
 *   `stop_hook_active: true`); `clearContext` is honoured only together with a block or a stop.
 * - BeforeModel: the model is not called; `llm_response`, if given, stands in for its reply (and
 *   is ignored without a block). Otherwise `llm_request` is applied.
 * - AfterModel: the stream ends after the current chunk (still passed on). Otherwise
 *   `llm_response` replaces the chunk.
 * - BeforeToolSelection, SessionStart, SessionEnd, PreCompress, Notification: no block and no stop.
 *   SessionStart reads `additionalContext` and `systemMessage`; BeforeToolSelection `toolConfig`;
 *   the other three nothing (their `systemMessage` is still shown).
 * On every event that can block, `continue: false` stops the agent, and is checked first.
 *
 * Where Gemini CLI's docs say otherwise, the code wins here:
 * - Docs: exit codes other than 0 and 2 are warnings. Code: only 1 is; 3 and up block like 2
 *   (with plain text), and JSON output decides whatever the exit code.
 * - Docs: stderr is never parsed as JSON. Code: with stdout empty, stderr is read as the output
 *   (JSON, or plain text: on exit 0 a stderr log line becomes a systemMessage).
 * - Docs: `decision` is allow or deny/block. Code: also `approve` (allow) and `ask` (BeforeTool).
 * - Docs: BeforeModel's `llm_response` skips the model call on its own. Code: only with a block.
 * - Docs: an AfterModel block discards the chunk. Code: the chunk is passed on, then the turn stops.
 * - Docs: `sequential` applies to its own group. Code: one sequential group makes the whole event
 *   sequential (the engine's concern; see `applyGeminiOutputToInput`).
 * - Docs: `tool_input` merges with the model's arguments. Code (0.61's scheduler,
 *   `evaluateBeforeToolHook`): the tool is rebuilt from `tool_input` alone, so it **replaces** the
 *   arguments and a partial one leaves out what it omits (the tool then usually fails its own
 *   validation and does not run). Several hooks' `hookSpecificOutput`s are merged key by key, so
 *   the last `tool_input` (configuration order) is the one used, whole [G-ANS-1].
 * - Docs: `reason` is a string. Code: any value that is not empty, 0 or false is shown, as text
 *   (`123` → "123"); so is `stopReason` [G-ANS-1].
 * Also kept from the code: several hooks' texts join with `\n`, `reason` joins every hook's reason
 * (not only the blocking ones'), `stopReason` joins every stopping hook's, and `additionalContext`
 * is escaped (`<` → `&lt;`, `>` → `&gt;`) before it reaches the model.
 */
import { z } from 'zod';
import { parseBoundedJson, TOO_DEEP } from '../../core/json-text.ts';
import type { AgentAnswer, AgentDecision, Permission } from '../../dispatch/agent-answer.ts';
import type { ProcessResult } from '../../runners/process-types.ts';
import { type Ending, outcomeOf } from '../../runners/run-result.ts';
import { GEMINI_EVENTS, type GeminiEventName, geminiCanBlock } from './events.ts';

type GeminiFailMode = 'open' | 'closed';

/** The merged decision of one event, before run records and env are added. */
type GeminiDecision = Omit<AgentDecision, 'runs' | 'env'>;

// ---------------------------------------------------------------------------------------------
// One hook

/**
 * [G-ANS-1] A reason as Gemini CLI shows it: any value it counts (not empty, 0, false or null)
 * becomes text the way its template strings make it (`123` → "123", `true` → "true", an object
 * "[object Object]").
 */
const ReasonText = z
  .unknown()
  // Gemini CLI tests the value for truth (`output.reason ||`), then pastes it into text.
  .transform((value) => (value ? String(value) : undefined))
  .catch(undefined);

/** JSON output fields; a field of the wrong type is ignored, never fatal (reasons: made text). */
const HookOutput = z.object({
  decision: z.enum(['allow', 'deny', 'block', 'ask', 'approve']).optional().catch(undefined),
  reason: ReasonText,
  continue: z.boolean().optional().catch(undefined),
  stopReason: ReasonText,
  systemMessage: z.string().optional().catch(undefined),
  suppressOutput: z.boolean().optional().catch(undefined),
  hookSpecificOutput: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

type HookOutput = z.infer<typeof HookOutput>;

const JsonObject = z.record(z.string(), z.unknown());

const ToolConfig = z.object({
  mode: z.string().optional().catch(undefined),
  allowedFunctionNames: z.array(z.string()).optional().catch(undefined),
});

function asObject(value: unknown): Record<string, unknown> | undefined {
  const parsed = JsonObject.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** What a hook printed, as Gemini CLI reads it; `too_deep`: JSON nested past the bound [C-ANS-3]. */
type GeminiOutput =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'too_deep' }
  | { kind: 'none' };

const NONE: GeminiOutput = { kind: 'none' };

/**
 * The hook's output as Gemini CLI reads it: stdout, else stderr (both trimmed); JSON when it
 * parses to an object (a JSON string is decoded once more); plain text when it does not parse.
 * JSON (or a JSON string's JSON) nested past MAX_HOOK_JSON_DEPTH is `too_deep`, found before it
 * is parsed, so no such value reaches the decision.
 */
export function readGeminiOutput(stdout: string, stderr: string): GeminiOutput {
  const text = stdout.trim() || stderr.trim();
  if (text === '') return NONE;
  let parsed = parseBoundedJson(text);
  if (parsed.ok && typeof parsed.value === 'string') parsed = parseBoundedJson(parsed.value);
  if (!parsed.ok) return parsed.tooDeep ? { kind: 'too_deep' } : { kind: 'text', text };
  const value = parsed.value;
  return typeof value === 'object' && value !== null ? { kind: 'json', value } : NONE;
}

function permissionOf(decision: HookOutput['decision']): Permission | undefined {
  switch (decision) {
    case 'allow':
    case 'approve':
      return 'allow';
    case 'deny':
    case 'block':
      return 'deny';
    case 'ask':
      return 'ask';
    case undefined:
      return undefined;
  }
}

/** Sets `permission` (and `block` where the event can block) on the answer. */
function decide(event: GeminiEventName, answer: AgentAnswer, permission: Permission | undefined): void {
  if (permission === undefined) return;
  answer.permission = permission;
  if (permission === 'deny' && geminiCanBlock(event)) answer.block = true;
}

function readJson(event: GeminiEventName, value: unknown, answer: AgentAnswer): void {
  const parsed = HookOutput.safeParse(value);
  // An array is an output without fields, as in Gemini CLI.
  if (!parsed.success) return;
  const out = parsed.data;
  decide(event, answer, permissionOf(out.decision));
  if (out.reason) answer.reason = out.reason;
  if (out.continue !== undefined) answer.continue = out.continue;
  if (out.stopReason) answer.stopReason = out.stopReason;
  if (out.systemMessage) answer.systemMessage = out.systemMessage;
  if (out.suppressOutput !== undefined) answer.suppressOutput = out.suppressOutput;
  const specific = out.hookSpecificOutput;
  if (specific === undefined) return;
  answer.hookSpecificOutput = specific;
  const context = specific['additionalContext'];
  if (typeof context === 'string' && context !== '') answer.additionalContext = context;
  if (GEMINI_EVENTS[event].rewritesToolInput) {
    const toolInput = asObject(specific['tool_input']);
    if (toolInput !== undefined) answer.updatedInput = toolInput;
  }
}

function readText(event: GeminiEventName, text: string, exitCode: number, answer: AgentAnswer): void {
  if (exitCode === 0) {
    decide(event, answer, 'allow');
    answer.systemMessage = text;
  } else if (exitCode === 1) {
    decide(event, answer, 'allow');
    answer.systemMessage = `Warning: ${text}`;
  } else {
    decide(event, answer, 'deny');
    answer.reason = text;
  }
}

/** [C-RUN-4] No answer; under failMode `closed` a block, where the event can block. */
function failed(event: GeminiEventName, failMode: GeminiFailMode, ending: Ending): AgentAnswer {
  const answer: AgentAnswer = { ending, failed: failMode };
  if (failMode === 'closed' && geminiCanBlock(event)) {
    answer.block = true;
    answer.permission = 'deny';
    if (ending.reason !== undefined) answer.reason = ending.reason;
  }
  return answer;
}

/**
 * [C-ANS-3] Output nested too deep is an invalid answer (cause `invalid_answer`): no decision,
 * or a block under failMode `closed`. An exit code that blocks with plain text (2 and up) still
 * blocks: the hook said so by its exit code, and its output only failed to say why.
 */
function tooDeep(
  event: GeminiEventName,
  failMode: GeminiFailMode,
  ending: Ending,
  exitCode: number,
): AgentAnswer {
  ending.outcome = 'error';
  ending.cause = 'invalid_answer';
  ending.reason = `output is ${TOO_DEEP}`;
  if (exitCode < 2) return failed(event, failMode, ending);
  const answer: AgentAnswer = { ending };
  decide(event, answer, 'deny');
  if (answer.block === true) {
    answer.reason = `blocked by hook (exit ${exitCode}); its output is ${TOO_DEEP}`;
    ending.outcome = 'deny';
    ending.cause = undefined;
    ending.reason = answer.reason;
  }
  return answer;
}

/**
 * [G-ANS-1] One command hook's ending, read as Gemini CLI reads it (see the file comment). A run
 * that did not exit by itself (timeout, launch failure, signal, output limit) gives no answer but
 * its failure, which blocks under failMode `closed` [C-RUN-4].
 */
export function readGeminiAnswer(
  event: GeminiEventName,
  result: ProcessResult,
  failMode: GeminiFailMode,
): AgentAnswer {
  const ending = outcomeOf(result);
  if (result.reason !== 'exit' || result.exitCode === null) return failed(event, failMode, ending);
  const answer: AgentAnswer = { ending };
  const out = readGeminiOutput(result.stdout, result.stderr);
  if (out.kind === 'too_deep') return tooDeep(event, failMode, ending, result.exitCode);
  if (out.kind === 'json') readJson(event, out.value, answer);
  else if (out.kind === 'text') readText(event, out.text, result.exitCode, answer);
  if (answer.block === true) {
    ending.outcome = 'deny';
    ending.cause = undefined;
    ending.reason = answer.reason ?? 'blocked';
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Several hooks

function joined(texts: readonly (string | undefined)[]): string | undefined {
  const kept = texts.filter((t): t is string => t !== undefined && t !== '');
  return kept.length === 0 ? undefined : kept.join('\n');
}

/** Gemini CLI escapes hook context before it reaches the model, against tag injection. */
function escapeContext(text: string): string {
  return text.replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * [G-ANS-1] The `tool_input` Gemini CLI rebuilds the tool from: its aggregator merges the hooks'
 * `hookSpecificOutput`s key by key, so the last hook that gave a `tool_input` key decides, and
 * only an object is used (a later `null` or string takes an earlier object's place, and then no
 * rewrite happens).
 */
function lastToolInput(answers: readonly AgentAnswer[]): Record<string, unknown> | undefined {
  let last: unknown;
  for (const a of answers) {
    const specific = a.hookSpecificOutput;
    if (specific !== undefined && Object.hasOwn(specific, 'tool_input')) last = specific['tool_input'];
  }
  return asObject(last);
}

/** Merges every answer's `hookSpecificOutput`, key by key, later answers winning; `skip` left out. */
function mergedSpecific(answers: readonly AgentAnswer[], skip?: string): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const a of answers)
    if (a.hookSpecificOutput !== undefined) merged = { ...merged, ...a.hookSpecificOutput };
  return skip === undefined
    ? merged
    : Object.fromEntries(Object.entries(merged).filter(([key]) => key !== skip));
}

/** [G-ANS-1] BeforeToolSelection: NONE > ANY > AUTO; the union of the allowed names, sorted. */
function mergedToolConfig(answers: readonly AgentAnswer[]): Record<string, unknown> | undefined {
  let seen = false;
  let none = false;
  let any = false;
  const names = new Set<string>();
  for (const a of answers) {
    const parsed = ToolConfig.safeParse(a.hookSpecificOutput?.['toolConfig']);
    if (!parsed.success) continue;
    seen = true;
    if (parsed.data.mode === 'NONE') none = true;
    else if (parsed.data.mode === 'ANY') any = true;
    for (const name of parsed.data.allowedFunctionNames ?? []) names.add(name);
  }
  if (!seen) return undefined;
  if (none) return { mode: 'NONE', allowedFunctionNames: [] };
  return { mode: any ? 'ANY' : 'AUTO', allowedFunctionNames: [...names].sort() };
}

/** What the answers said, folded by the event's strategy, before the event's capabilities apply. */
interface Folded {
  permission: Permission | undefined;
  stop: boolean;
  reason: string | undefined;
  stopReason: string | undefined;
  context: string | undefined;
  specific: Record<string, unknown>;
}

/** The `or` strategy: any deny, then any ask; `continue: false` sticks; texts joined in order. */
function foldOr(answers: readonly AgentAnswer[]): Folded {
  let deny = false;
  let ask = false;
  let stop = false;
  let clearContext = false;
  for (const a of answers) {
    if (a.permission === 'deny') deny = true;
    else if (a.permission === 'ask') ask = true;
    if (a.continue === false) stop = true;
    if (a.hookSpecificOutput?.['clearContext'] === true) clearContext = true;
  }
  // clearContext: any hook's `true` counts, whatever later hooks say.
  const specific = mergedSpecific(answers, 'clearContext');
  if (clearContext) specific['clearContext'] = true;
  return {
    permission: deny ? 'deny' : ask ? 'ask' : undefined,
    stop,
    reason: joined(answers.map((a) => a.reason)),
    stopReason: joined(answers.map((a) => (a.continue === false ? a.stopReason : undefined))),
    context: joined(answers.map((a) => a.additionalContext)),
    specific,
  };
}

/** The `replace` strategy: each field as the last answer that set it left it. */
function foldReplace(answers: readonly AgentAnswer[]): Folded {
  let permission: Permission | undefined;
  let go: boolean | undefined;
  let reason: string | undefined;
  let stopReason: string | undefined;
  for (const a of answers) {
    if (a.permission !== undefined) permission = a.permission;
    if (a.continue !== undefined) go = a.continue;
    if (a.reason !== undefined) reason = a.reason;
    if (a.stopReason !== undefined) stopReason = a.stopReason;
  }
  const specific = mergedSpecific(answers);
  const context = specific['additionalContext'];
  return {
    permission,
    stop: go === false,
    reason,
    stopReason,
    context: typeof context === 'string' && context !== '' ? context : undefined,
    specific,
  };
}

/** Copies the named keys of `from` that are present (and objects, or `true` for flags). */
function pick(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const key of keys) {
    const value = key === 'clearContext' ? (from[key] === true ? true : undefined) : asObject(from[key]);
    if (value === undefined) continue;
    out[key] = value;
    any = true;
  }
  return any ? out : undefined;
}

/**
 * The `hookSpecificOutput` keys Gemini CLI acts on for this event and outcome: BeforeModel's
 * `llm_response` only with a block, its `llm_request` only without; AfterAgent's `clearContext`
 * only with a block or a stop; the others only when the action goes ahead.
 */
function specificFor(
  event: GeminiEventName,
  specific: Record<string, unknown>,
  blocked: boolean,
  stopped: boolean,
): Record<string, unknown> | undefined {
  const ahead = !blocked && !stopped;
  switch (event) {
    case 'BeforeModel':
      if (stopped) return undefined;
      return pick(specific, blocked ? ['llm_response'] : ['llm_request']);
    case 'AfterModel':
      return ahead ? pick(specific, ['llm_response']) : undefined;
    case 'AfterAgent':
      return ahead ? undefined : pick(specific, ['clearContext']);
    case 'AfterTool':
      return ahead ? pick(specific, ['tailToolCallRequest']) : undefined;
    default:
      return undefined;
  }
}

/**
 * [G-ANS-1, C-OUT-1] The answers of one event (in configuration order) merged by Gemini CLI's
 * strategy for that event (`GEMINI_EVENTS[event].merge`), then limited to what the event honours:
 * - `or` (BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart): any deny blocks, else any
 *   ask asks (BeforeTool only), else allow; any `continue: false` stops; every reason, stop reason,
 *   system message and context joined with `\n` in configuration order.
 * - `replace` (BeforeModel, AfterModel): each field as the last hook that set it left it.
 * - `union` (BeforeToolSelection): only `toolConfig`: NONE > ANY > AUTO, allowed names united and
 *   sorted. `simple` (SessionEnd, PreCompress, Notification): nothing is acted on.
 * `systemMessage` joins every hook's message on every event (Gemini CLI shows each one).
 * `updatedInput` (BeforeTool): the tool's new arguments, whole: the last `tool_input` in
 * configuration order, as it was given. It **replaces** the tool's input, as in Gemini CLI 0.61:
 * keys it omits are not taken from the model's arguments (`_toolInput`, the tool's current input,
 * is not merged in; the parameter stays so that callers need not change).
 * A hook that failed under failMode `closed` blocks whatever the strategy.
 */
export function mergeGeminiAnswers(
  event: GeminiEventName,
  answers: readonly AgentAnswer[],
  _toolInput?: Record<string, unknown>,
): GeminiDecision {
  const info = GEMINI_EVENTS[event];
  const decision: GeminiDecision = { decision: 'allow', blocked: false, continue: true };
  const systemMessage = joined(answers.map((a) => a.systemMessage));
  if (systemMessage !== undefined) decision.systemMessage = systemMessage;

  if (info.merge === 'union') {
    const toolConfig = mergedToolConfig(answers);
    if (toolConfig !== undefined) decision.hookSpecificOutput = { toolConfig };
    return decision;
  }
  if (info.merge === 'simple') return decision;

  const folded = info.merge === 'or' ? foldOr(answers) : foldReplace(answers);
  const closed = answers.some((a) => a.failed === 'closed');
  const stopped = info.canStop && folded.stop;
  const blocked = info.canBlock && (folded.permission === 'deny' || closed);
  if (stopped) {
    decision.continue = false;
    // Gemini CLI's stop message: the stop reason, else the reason.
    const stopReason = folded.stopReason ?? folded.reason;
    if (stopReason !== undefined) decision.stopReason = stopReason;
  }
  if (blocked) {
    decision.blocked = true;
    decision.decision = 'deny';
  } else if (info.canAsk && folded.permission === 'ask') {
    decision.decision = 'ask';
  }
  if (decision.decision !== 'allow' && folded.reason !== undefined) decision.reason = folded.reason;

  const ahead = !blocked && !stopped;
  if (info.context && folded.context !== undefined && ahead)
    decision.additionalContext = escapeContext(folded.context);
  if (info.rewritesToolInput && ahead) {
    const updated = lastToolInput(answers);
    if (updated !== undefined) decision.updatedInput = updated;
  }
  const specific = specificFor(event, folded.specific, blocked, stopped);
  if (specific !== undefined) decision.hookSpecificOutput = specific;
  return decision;
}

// ---------------------------------------------------------------------------------------------
// Sequential mode

/** Gemini CLI folds only the output of a hook that exited 0 in time. */
function succeeded(answer: AgentAnswer): boolean {
  return answer.failed === undefined && answer.ending.exitCode === 0;
}

/**
 * [G-RUN-1] `sequential: true`: the input the next hook gets, after this hook's answer, as Gemini
 * CLI folds it (only for a hook that exited 0):
 * - BeforeTool: `tool_input` merged into the input's `tool_input`;
 * - BeforeModel: `llm_request` merged into the input's `llm_request`;
 * - BeforeAgent: `additionalContext` appended to the `prompt` after a blank line.
 * Other events, and answers without such output, leave the input as it is (the same object);
 * otherwise a new object is returned and `input` is not changed. No hook is skipped: a block does
 * not end the sequence.
 */
export function applyGeminiOutputToInput(
  event: GeminiEventName,
  input: Record<string, unknown>,
  answer: AgentAnswer,
): Record<string, unknown> {
  if (!succeeded(answer)) return input;
  switch (event) {
    case 'BeforeTool': {
      if (answer.updatedInput === undefined || !Object.hasOwn(input, 'tool_input')) return input;
      return { ...input, tool_input: { ...asObject(input['tool_input']), ...answer.updatedInput } };
    }
    case 'BeforeModel': {
      const request = asObject(answer.hookSpecificOutput?.['llm_request']);
      if (request === undefined || !Object.hasOwn(input, 'llm_request')) return input;
      return { ...input, llm_request: { ...asObject(input['llm_request']), ...request } };
    }
    case 'BeforeAgent': {
      const prompt = input['prompt'];
      if (answer.additionalContext === undefined || typeof prompt !== 'string') return input;
      return { ...input, prompt: `${prompt}\n\n${answer.additionalContext}` };
    }
    default:
      return input;
  }
}
