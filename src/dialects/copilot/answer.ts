/**
 * Copilot CLI's answers [A-COP-1], read as Copilot CLI 1.0.102 acts on them (copilot-facts.md §5),
 * and merged into hookwerk's agent decision [C-OUT-1]. Pure: no I/O.
 *
 * - preToolUse: `{permissionDecision: allow|deny|ask, permissionDecisionReason, modifiedArgs}`;
 *   exit 2 denies with the fixed reason `hook exited with code 2` (stderr and stdout unread); any
 *   other non-zero exit, a signal, a launch failure or too much output denies too (fail-closed:
 *   "hook errored"); only a timeout lets the tool run. A deny without a reason: "No reason provided".
 * - permissionRequest: `{behavior: allow|deny, message, interrupt}`; exit 2 denies with stdout's
 *   `message`; any other failure but a timeout denies with "Permission request hook failed".
 *   Later hooks override earlier ones. `interrupt: true` on the deny stops the agent
 *   (`continue: false`).
 * - agentStop / subagentStop: `decision: "block"` + `reason` (the next prompt); subagentStop
 *   `modifiedResponse`.
 * - userPromptSubmitted: `decision: "block"` + `reason`, `modifiedPrompt`, `additionalContext`;
 *   exit 2 is a warning only (its stderr becomes `systemMessage`), the prompt goes through.
 * - postToolUse: `decision: "block"` + `reason` replaces the tool's result.
 * - postToolUseFailure: exit 2 + stderr is guidance for the model (`additionalContext`).
 * - sessionStart, subagentStart, notification: `additionalContext`.
 * Claude's fields (`hookSpecificOutput`, `continue`, `systemMessage`…) are not Copilot's: Copilot
 * CLI ignored `hookSpecificOutput.additionalContext` under `UserPromptSubmit`; the run's record
 * names what was ignored. Plain text and invalid JSON on exit 0 are no opinion.
 */
import { z } from 'zod';
import type { FailMode } from '../../core/fail-mode.ts';
import { parseBoundedJson, TOO_DEEP } from '../../core/json-text.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import type { AgentAnswer, AgentDecision, PermissionRequestAnswer } from '../../dispatch/agent-answer.ts';
import { type Ending, outcomeOf, type RunResult } from '../../runners/run-result.ts';
import { readClaudeAnswer } from '../agent/claude-answer.ts';
import { toolArgsObject } from '../agent/tool-map.ts';
import { type CopilotEventName, type CopilotForm, copilotControl } from './events.ts';

type Json = Record<string, unknown>;
type Merged = Omit<AgentDecision, 'runs' | 'env'>;

/** Copilot CLI's fields, by what an event reads; anything else in the output is noted as ignored. */
const READS: Readonly<Record<ReturnType<typeof copilotControl>, readonly string[]>> = {
  preToolUse: ['permissionDecision', 'permissionDecisionReason', 'modifiedArgs'],
  permissionRequest: ['behavior', 'message', 'interrupt'],
  stop: ['decision', 'reason', 'modifiedResponse'],
  prompt: ['decision', 'reason', 'modifiedPrompt', 'additionalContext'],
  postToolUse: ['decision', 'reason'],
  failure: ['additionalContext'],
  context: ['additionalContext'],
  observe: [],
};

const NO_REASON = 'No reason provided';
const EXIT_2 = 'hook exited with code 2';
const PERMISSION_HOOK_FAILED = 'Permission request hook failed';

function answered(base: Ending): Ending {
  const e: Ending = { outcome: 'ok', durationMs: base.durationMs };
  if (base.exitCode !== undefined) e.exitCode = base.exitCode;
  if (base.stderrTail !== undefined) e.stderrTail = base.stderrTail;
  return e;
}

function note(e: Ending, text: string): void {
  e.reason = e.reason === undefined ? text : `${e.reason}; ${text}`;
}

/** stdout as Copilot CLI reads it: a JSON object, or nothing (plain text, invalid JSON: no opinion). */
function stdoutJson(stdout: string, e: Ending): Json | undefined {
  const text = stdout.trim();
  if (text === '') return undefined;
  if (!text.startsWith('{')) {
    note(e, `plain-text stdout is no answer: ${JSON.stringify(text.slice(0, 120))}`);
    return undefined;
  }
  const parsed = parseBoundedJson(text);
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    note(
      e,
      `stdout is not a JSON object (${parsed.ok ? 'not an object' : parsed.tooDeep ? TOO_DEEP : parsed.why}): no answer`,
    );
    return undefined;
  }
  return parsed.value;
}

/** One field of the output when it has the type; a wrong-typed one is noted and dropped. */
function field<T>(obj: Json, key: string, schema: z.ZodType<T>, ignored: string[]): T | undefined {
  if (!Object.hasOwn(obj, key) || obj[key] === null) return undefined;
  const parsed = schema.safeParse(obj[key]);
  if (parsed.success) return parsed.data;
  ignored.push(key);
  return undefined;
}

const str = z.string();
const bool = z.boolean();
const decisionSchema = z.enum(['allow', 'deny', 'ask']);
const blockSchema = z.enum(['block', 'allow']);
const behaviorSchema = z.enum(['allow', 'deny']);

/** [A-COP-1] The answer in one JSON output, on exit 0 (and permissionRequest's exit 2). */
function fromJson(event: CopilotEventName, obj: Json, e: Ending, form: CopilotForm): AgentAnswer {
  const control = copilotControl(event);
  // [A-COP-1] Hooks of the VS Code form (PascalCase keys, .claude/settings.json) may answer
  // preToolUse in hookSpecificOutput too, as `npm run differential` showed 1.0.102 does.
  const hso = control === 'preToolUse' && form === 'vscode' ? vscodePreToolUse(obj) : undefined;
  const reads = hso !== undefined ? [...READS[control], 'hookSpecificOutput'] : READS[control];
  const ignored: string[] = [];
  const unread = Object.keys(obj).filter((k) => !reads.includes(k));
  const answer: AgentAnswer = { ending: e };
  const context = reads.includes('additionalContext')
    ? field(obj, 'additionalContext', str, ignored)
    : undefined;
  if (context !== undefined && context !== '') answer.additionalContext = context;
  switch (control) {
    case 'preToolUse': {
      const decision =
        field(obj, 'permissionDecision', decisionSchema, ignored) ??
        (hso !== undefined ? field(hso, 'permissionDecision', decisionSchema, ignored) : undefined);
      const reason =
        field(obj, 'permissionDecisionReason', str, ignored) ??
        (hso !== undefined ? field(hso, 'permissionDecisionReason', str, ignored) : undefined);
      const rawArgs = obj.modifiedArgs ?? hso?.updatedInput;
      if (rawArgs !== undefined && rawArgs !== null) {
        const args = toolArgsObject(rawArgs);
        if (args !== undefined) answer.updatedInput = args;
        else ignored.push('modifiedArgs');
      }
      if (decision !== undefined) answer.permission = decision;
      if (reason !== undefined) answer.permissionReason = reason;
      if (decision === 'deny') {
        answer.block = true;
        answer.reason = reason !== undefined && reason !== '' ? reason : NO_REASON;
        e.outcome = 'deny';
        e.reason = answer.reason;
      } else if (reason !== undefined) e.reason = reason;
      break;
    }
    case 'permissionRequest': {
      const behavior = field(obj, 'behavior', behaviorSchema, ignored);
      if (behavior !== undefined) {
        const p: PermissionRequestAnswer = { behavior };
        const message = field(obj, 'message', str, ignored);
        const interrupt = field(obj, 'interrupt', bool, ignored);
        if (message !== undefined) p.message = message;
        if (interrupt !== undefined) p.interrupt = interrupt;
        answer.permissionRequest = p;
        if (behavior === 'deny') {
          e.outcome = 'deny';
          if (message !== undefined) e.reason = message;
        }
      }
      break;
    }
    case 'stop':
    case 'prompt':
    case 'postToolUse': {
      const decision = field(obj, 'decision', blockSchema, ignored);
      const reason = field(obj, 'reason', str, ignored);
      if (decision === 'block') {
        answer.block = true;
        if (reason !== undefined) answer.reason = reason;
        e.outcome = 'deny';
        if (reason !== undefined) e.reason = reason;
      }
      const extra: Json = {};
      if (control === 'prompt') {
        const prompt = field(obj, 'modifiedPrompt', str, ignored);
        if (prompt !== undefined) extra.modifiedPrompt = prompt;
      }
      if (control === 'stop' && event === 'subagentStop') {
        const response = field(obj, 'modifiedResponse', str, ignored);
        if (response !== undefined) extra.modifiedResponse = response;
      }
      if (Object.keys(extra).length > 0) answer.hookSpecificOutput = extra;
      break;
    }
    default:
      break;
  }
  if (ignored.length > 0) note(e, `ignored (wrong type or value): ${ignored.join(', ')}`);
  if (unread.length > 0) note(e, `not read by Copilot CLI on ${event}: ${unread.join(', ')}`);
  return answer;
}

/**
 * The VS Code form's PreToolUse answer, `hookSpecificOutput: {permissionDecision,
 * permissionDecisionReason, updatedInput}` — read without `hookEventName` (1.0.102 did), each field
 * only where Copilot's own top-level one is absent.
 */
function vscodePreToolUse(obj: Json): Json | undefined {
  const hso = obj.hookSpecificOutput;
  return isPlainObject(hso) ? hso : undefined;
}

/** A run that failed (exit code other than 0 and 2, signal, launch failure, output limit, timeout). */
function failed(event: CopilotEventName, base: Ending, failMode: FailMode, timedOut: boolean): AgentAnswer {
  const control = copilotControl(event);
  const closes =
    (control === 'preToolUse' || control === 'permissionRequest') && (!timedOut || failMode === 'closed');
  if (!closes) return { ending: base, failed: 'open' };
  const e: Ending = { ...base, outcome: 'deny' };
  if (control === 'permissionRequest') {
    e.reason = `${PERMISSION_HOOK_FAILED} (${base.reason ?? base.cause ?? 'failed'})`;
    return {
      ending: e,
      failed: 'closed',
      permissionRequest: { behavior: 'deny', message: PERMISSION_HOOK_FAILED },
    };
  }
  const reason = `preToolUse hook errored (${base.reason ?? base.cause ?? 'failed'})`;
  e.reason = reason;
  return { ending: e, failed: 'closed', block: true, permission: 'deny', reason, permissionReason: reason };
}

/** [A-COP-1] One hook's run read as Copilot CLI reads it (see the file comment). */
export function readCopilotAnswer(
  event: CopilotEventName,
  result: RunResult,
  failMode: FailMode,
  form: CopilotForm = 'copilot',
): AgentAnswer {
  if (result.kind !== 'process') return readClaudeAnswer(event, result, failMode);
  const base = outcomeOf(result);
  if (result.reason !== 'exit') return failed(event, base, failMode, result.reason === 'timeout');
  const control = copilotControl(event);
  if (result.exitCode === 0) {
    const e = answered(base);
    const obj = stdoutJson(result.stdout, e);
    return obj === undefined ? { ending: e } : fromJson(event, obj, e, form);
  }
  if (result.exitCode !== 2) return failed(event, base, failMode, false);
  const stderr = result.stderr.trim();
  const e = answered(base);
  switch (control) {
    case 'preToolUse':
      e.outcome = 'deny';
      e.reason = EXIT_2;
      return { ending: e, block: true, permission: 'deny', reason: EXIT_2, permissionReason: EXIT_2 };
    case 'permissionRequest': {
      // stdout's JSON is merged into the deny: its `message` (and `interrupt`) count.
      const obj = stdoutJson(result.stdout, e) ?? {};
      const ignored: string[] = [];
      const p: PermissionRequestAnswer = { behavior: 'deny' };
      const message = field(obj, 'message', str, ignored);
      const interrupt = field(obj, 'interrupt', bool, ignored);
      if (message !== undefined) p.message = message;
      if (interrupt !== undefined) p.interrupt = interrupt;
      e.outcome = 'deny';
      e.reason = message ?? EXIT_2;
      if (ignored.length > 0) note(e, `ignored (wrong type or value): ${ignored.join(', ')}`);
      return { ending: e, permissionRequest: p };
    }
    case 'prompt':
      // A warning (`! <stderr>`) only: the prompt still goes through.
      if (stderr !== '') return { ending: e, systemMessage: stderr };
      return { ending: e };
    case 'failure':
      if (stderr !== '') return { ending: e, additionalContext: stderr };
      return { ending: e };
    default:
      return { ending: base, failed: 'open' };
  }
}

function joined(values: readonly (string | undefined)[]): string | undefined {
  const kept = values.filter((v): v is string => v !== undefined && v !== '');
  return kept.length === 0 ? undefined : kept.join('\n');
}

/**
 * [A-COP-1, C-OUT-1] The answers of one event, in run order (a preToolUse run stops at its first
 * deny), as one decision:
 * - preToolUse: `blocked` on a deny, with its reason; else `ask` when a hook asked (their reasons
 *   joined), else `allow`; `updatedInput` from the last `modifiedArgs`;
 * - permissionRequest: the last hook that gave a `behavior` decides (`permission`), as Copilot CLI
 *   lets later hooks override earlier ones; a deny makes the decision `deny` (not `blocked`: as
 *   Claude's PermissionRequest) with its message as `reason`, and its `interrupt` stops the agent;
 * - the events that block (stop, prompt, postToolUse): `blocked` when any hook blocked, reasons
 *   joined in order; `modifiedPrompt` / `modifiedResponse` from the last hook that gave one;
 * - `additionalContext` and `systemMessage` (prompt warnings) joined in order.
 */
export function mergeCopilotAnswers(event: CopilotEventName, answers: readonly AgentAnswer[]): Merged {
  const control = copilotControl(event);
  const merged: Merged = { decision: 'allow', blocked: false, continue: true };
  const canBlock =
    control === 'preToolUse' || control === 'stop' || control === 'prompt' || control === 'postToolUse';
  const blockers = canBlock ? answers.filter((a) => a.block === true) : [];
  if (blockers.length > 0) {
    merged.blocked = true;
    merged.decision = 'deny';
    const reason = joined(blockers.map((a) => a.reason));
    if (reason !== undefined) merged.reason = reason;
  } else if (control === 'preToolUse') {
    const asks = answers.filter((a) => a.permission === 'ask');
    if (asks.length > 0) {
      merged.decision = 'ask';
      const reason = joined(asks.map((a) => a.permissionReason));
      if (reason !== undefined) merged.reason = reason;
    }
  }
  if (control === 'permissionRequest') {
    let last: PermissionRequestAnswer | undefined;
    for (const a of answers) if (a.permissionRequest !== undefined) last = a.permissionRequest;
    if (last !== undefined) {
      merged.permission = last;
      if (last.behavior === 'deny') {
        merged.decision = 'deny';
        if (last.message !== undefined) merged.reason = last.message;
        if (last.interrupt === true) {
          merged.continue = false;
          merged.stopReason = last.message ?? 'interrupted by a permissionRequest hook';
        }
      }
    }
  }
  for (const a of answers) if (a.updatedInput !== undefined) merged.updatedInput = a.updatedInput;
  let extra: Json | undefined;
  for (const a of answers)
    if (a.hookSpecificOutput !== undefined) extra = { ...extra, ...a.hookSpecificOutput };
  if (extra !== undefined) merged.hookSpecificOutput = extra;
  const context = joined(answers.map((a) => a.additionalContext));
  if (context !== undefined) merged.additionalContext = context;
  const message = joined(answers.map((a) => a.systemMessage));
  if (message !== undefined) merged.systemMessage = message;
  return merged;
}

/** [A-COP-1] The first preToolUse deny stops the chain: later hooks do not run. */
export function copilotStopsAfter(event: string, answer: AgentAnswer): boolean {
  return event === 'preToolUse' && answer.block === true;
}
