/**
 * The Lurus gate dialect [§2.4, §2.5]: what a hook gets (env, stdin JSON, HTTP body) and how its
 * ending becomes a verdict. The runners run; this file only builds requests and reads answers.
 */
import { existsSync } from 'node:fs';
import { parseBoundedJson, TOO_DEEP } from '../../core/json-text.ts';
import { type Answer, failedVerdict, type HookVerdict, readAnswer } from '../../dispatch/hook-verdict.ts';
import type { LurusEnvelope } from '../../events/lurus-events.ts';
import type { FailMode, InProcessGateHook, LurusGateHook } from '../../registry/hook-definition.ts';
import { HookCallInfo, runInProcess } from '../../runners/in-process-runner.ts';
import { withinDeadline } from '../../runners/run-budget.ts';
import { type Ending, outcomeOf, type RunResult } from '../../runners/run-result.ts';
import type { Runners } from '../../runners/runners.ts';

/**
 * [L-ANS-1] The answer on stdout (or an HTTP body). Whole text first; failing that, the last
 * non-empty line, so a hook that logs to stdout before answering still counts. JSON nested past
 * MAX_HOOK_JSON_DEPTH is an invalid answer [C-ANS-3], found before it is parsed.
 */
function parseAnswer(text: string): Answer | { invalid: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { invalid: 'empty answer' };
  let parsed = parseBoundedJson(trimmed);
  if (!parsed.ok && !parsed.tooDeep) {
    const lines = trimmed.split('\n');
    const last = lines[lines.length - 1]?.trim() ?? '';
    parsed = lines.length < 2 ? parsed : parseBoundedJson(last);
  }
  if (!parsed.ok)
    return {
      invalid: parsed.tooDeep
        ? `answer is ${TOO_DEEP}`
        : `answer is not JSON: ${JSON.stringify(trimmed.slice(0, 80))}`,
    };
  return readAnswer(parsed.value);
}

/** A verdict from an answer, as one literal (the in-process path is µs-scale). */
function answered(answer: Answer, e: Ending): HookVerdict {
  const v: HookVerdict = {
    outcome: answer.decision === 'deny' ? 'deny' : 'ok',
    durationMs: e.durationMs,
    decision: answer.decision,
  };
  if (e.exitCode !== undefined) v.exitCode = e.exitCode;
  if (e.status !== undefined) v.status = e.status;
  if (e.stderrTail !== undefined) v.stderrTail = e.stderrTail;
  if (answer.reason !== undefined) v.reason = answer.reason;
  if (answer.additionalContext !== undefined) v.additionalContext = answer.additionalContext;
  return v;
}

function invalid(failMode: FailMode, e: Ending, why: string): HookVerdict {
  e.outcome = 'error';
  e.cause = 'invalid_answer';
  e.reason = why;
  return failedVerdict(failMode, e);
}

/** [L-ANS-2, L-ANS-3] A command's, an HTTP call's or a function's ending, read as a verdict. */
function verdictOf(failMode: FailMode, r: RunResult): HookVerdict {
  if (r.kind === 'in-process' && r.reason === 'returned') {
    // The common in-process answer, without building an ending first.
    if (r.value === undefined) return { outcome: 'ok', durationMs: r.durationMs, decision: 'allow' };
    const answer = readAnswer(r.value);
    if (!('invalid' in answer)) return answered(answer, { outcome: 'ok', durationMs: r.durationMs });
  }
  const e = outcomeOf(r);
  if (r.kind === 'process' && r.reason === 'exit' && r.exitCode === 2) {
    // Exit 2 is an explicit deny, not a failure: its reason is stderr, else stdout.
    e.outcome = 'deny';
    e.cause = undefined;
    e.reason = r.stderr.trim() || r.stdout.trim() || 'denied (exit 2)';
    return Object.assign(e, { decision: 'deny' as const });
  }
  if (e.outcome !== 'ok') return failedVerdict(failMode, e);
  let answer: Answer | { invalid: string };
  switch (r.kind) {
    case 'process':
      answer = parseAnswer(r.stdout);
      break;
    case 'http':
      answer = parseAnswer(r.body);
      break;
    case 'in-process':
      // Same contract as a command's stdout: a hand-built object is checked like outside JSON.
      if (r.value === undefined) return Object.assign(e, { decision: 'allow' as const });
      answer = readAnswer(r.value);
      break;
    case 'wasm':
      return invalid(failMode, e, 'a WASM plugin cannot answer a gate event');
  }
  if ('invalid' in answer) return invalid(failMode, e, answer.invalid);
  return answered(answer, e);
}

/** What an in-process gate hook gets besides the context. */
class GateCallInfo extends HookCallInfo {
  constructor(
    readonly event: LurusEnvelope['event'],
    readonly cwd: string,
  ) {
    super();
  }
}

/**
 * Runs one gate hook for one event: builds its request, hands it to the runner of its kind,
 * reads the verdict. `json()` serializes the envelope once per decision, only if a hook needs it.
 * `signal` (the decide's) stops the run [AD-ALL-1]; it has ended by `deadline`, the decide's
 * budget [G-FAIL-4].
 */
export function runGateHook(
  hook: LurusGateHook,
  envelope: LurusEnvelope,
  json: () => string,
  runners: Runners,
  signal: AbortSignal | undefined,
  deadline?: number,
): HookVerdict | Promise<HookVerdict> {
  const failMode = hook.failMode;
  const read = (r: RunResult) => verdictOf(failMode, r);
  const opts = signal === undefined ? undefined : { signal };
  const budget = withinDeadline(hook.timeoutMs, deadline);
  switch (hook.kind) {
    case 'process':
      if (hook.script !== undefined && !existsSync(hook.script)) return missingScript(failMode, hook.script);
      return runners.process
        .run(
          {
            command: '/bin/sh',
            args: ['-c', hook.command],
            env: hook.env,
            cwd: hook.cwd,
            stdin: `${json()}\n`,
            ...budget,
            ...(hook.keepChildren === true ? { keepChildren: true } : {}),
          },
          opts,
        )
        .then(read);
    case 'http':
      return runners.http
        .run(
          {
            url: hook.url,
            method: hook.method,
            headers: hook.headers,
            body: json(),
            timeoutMs: budget.timeoutMs,
            ...(hook.allowLinkLocal === true ? { allowLinkLocal: true } : {}),
          },
          opts,
        )
        .then(read);
    case 'in-process': {
      // A synchronous answer stays synchronous: the gate then decides without a microtask per hook.
      const r = callInProcess(hook, envelope, signal, budget.timeoutMs);
      return r instanceof Promise ? r.then(read) : read(r);
    }
  }
}

function callInProcess(
  hook: InProcessGateHook,
  envelope: LurusEnvelope,
  signal: AbortSignal | undefined,
  timeoutMs: number,
) {
  return runInProcess(
    hook.fn,
    envelope.context,
    new GateCallInfo(envelope.event, envelope.cwd),
    timeoutMs,
    undefined,
    signal,
  );
}

/**
 * [L-ANS-3] The script a command hook runs is missing: a failure (not run), decided by failMode.
 * Under dash `sh missing.sh` exits 2, which would otherwise read as a deny.
 */
function missingScript(failMode: FailMode, script: string): HookVerdict {
  return failedVerdict(failMode, {
    outcome: 'error',
    durationMs: 0,
    cause: 'missing_script',
    reason: `script ${script} not found; the hook was not run`,
  });
}
