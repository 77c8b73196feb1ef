import type { LurusEnvelope } from '../events/lurus-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { HttpResult } from '../runners/http-types.ts';
import type { ProcessResult } from '../runners/process-types.ts';
import type { LurusHook } from '../sources/lurus-source.ts';

/** [L-RUN-3] Variables a command hook may inherit, besides those named in LURUS_HOOK_PASS_ENV. */
const ENV_ALLOWLIST = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'TERM', 'TMPDIR', 'TZ']);
const STDERR_TAIL_CHARS = 1024;

/** [L-RUN-3] The environment of a command hook: the allowlist, `LC_*`, and the names in LURUS_HOOK_PASS_ENV. */
export function lurusHookEnv(parent: NodeJS.ProcessEnv): Record<string, string> {
  const pass = new Set(
    (parent.LURUS_HOOK_PASS_ENV ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (ENV_ALLOWLIST.has(key) || key.startsWith('LC_') || pass.has(key)) env[key] = value;
  }
  return env;
}

export function lurusEnvelope(
  event: LurusEnvelope['event'],
  context: LurusEnvelope['context'],
  cwd: string,
): LurusEnvelope {
  return { event, context, cwd };
}

/** What one hook said, before it is folded into the decision. */
export type HookVerdict = Pick<
  RunRecord,
  | 'outcome'
  | 'durationMs'
  | 'exitCode'
  | 'signal'
  | 'status'
  | 'cause'
  | 'reason'
  | 'stderrTail'
  | 'additionalContext'
> & { decision: 'allow' | 'deny'; failed?: 'open' | 'closed' };

type Answer = { decision: 'allow' | 'deny'; reason?: string; additionalContext?: string };

/**
 * [L-ANS-1] The answer on stdout (or an HTTP body). Whole text first; failing that, the last
 * non-empty line, so a hook that logs to stdout before answering still counts.
 */
export function parseAnswer(text: string): Answer | { invalid: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { invalid: 'empty answer' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    const lines = trimmed.split('\n');
    const last = lines[lines.length - 1]!.trim();
    try {
      if (lines.length < 2) throw new Error('single line');
      value = JSON.parse(last);
    } catch {
      return { invalid: `answer is not JSON: ${JSON.stringify(trimmed.slice(0, 80))}` };
    }
  }
  return readAnswer(value);
}

/** Checks an answer value (parsed JSON, or what an in-process hook returned). */
export function readAnswer(value: unknown): Answer | { invalid: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { invalid: 'answer is not an object' };
  const decision: unknown = Reflect.get(value, 'decision');
  if (decision !== 'allow' && decision !== 'deny') {
    return { invalid: `unknown decision ${JSON.stringify(decision ?? null)} (expected "allow" or "deny")` };
  }
  const reason: unknown = Reflect.get(value, 'reason');
  const additionalContext: unknown = Reflect.get(value, 'additionalContext');
  // Built field by field: conditional spreads cost µs per call on Node 20 (in-process hooks are µs-scale).
  const answer: Answer = { decision };
  if (typeof reason === 'string') answer.reason = reason;
  if (typeof additionalContext === 'string' && additionalContext !== '')
    answer.additionalContext = additionalContext;
  return answer;
}

/** [L-ANS-3] A failure decides by failMode: allow (open, default) or deny (closed); its cause is kept. */
/**
 * Verdicts are built by assigning onto one object: on Node 20 an object spread that adds
 * properties makes a new hidden class per call (µs each, and GC pressure on the gate's hot path).
 */
function base(durationMs: number): HookVerdict {
  return { outcome: 'ok', decision: 'allow', durationMs };
}

/** [L-ANS-3] A failure decides by failMode: allow (open, default) or deny (closed); its cause is kept. */
function failure(
  hook: Pick<LurusHook, 'failMode'>,
  v: HookVerdict,
  outcome: 'error' | 'timeout' | 'spawn_error',
  cause: string,
  reason: string,
): HookVerdict {
  v.outcome = outcome;
  v.cause = cause;
  v.reason = reason;
  v.decision = hook.failMode === 'closed' ? 'deny' : 'allow';
  v.failed = hook.failMode;
  return v;
}

function fromAnswer(answer: Answer, v: HookVerdict): HookVerdict {
  v.outcome = answer.decision === 'deny' ? 'deny' : 'ok';
  v.decision = answer.decision;
  if (answer.reason !== undefined) v.reason = answer.reason;
  if (answer.additionalContext !== undefined) v.additionalContext = answer.additionalContext;
  return v;
}

/** [L-ANS-2, L-ANS-3] Reads a command hook's ending into a verdict. */
export function commandVerdict(hook: Pick<LurusHook, 'failMode'>, r: ProcessResult): HookVerdict {
  const v = base(r.durationMs);
  if (r.exitCode !== null) v.exitCode = r.exitCode;
  if (r.signal !== null) v.signal = r.signal;
  if (r.stderr !== '') v.stderrTail = r.stderr.slice(-STDERR_TAIL_CHARS);
  switch (r.reason) {
    case 'timeout':
      return failure(hook, v, 'timeout', 'timeout', 'timed out; process group stopped');
    case 'spawn_error':
      return failure(hook, v, 'spawn_error', 'spawn_error', r.error ?? 'spawn failed');
    case 'output_limit':
      return failure(hook, v, 'error', 'output_limit', 'output over the 1 MiB limit; process group stopped');
    case 'signal':
      return failure(hook, v, 'error', 'signal', `killed by ${r.signal}`);
    case 'exit':
      break;
  }
  if (r.exitCode === 2) {
    // Exit 2 is an explicit deny, not a failure: its reason is stderr, else stdout.
    v.outcome = 'deny';
    v.decision = 'deny';
    v.reason = r.stderr.trim() || r.stdout.trim() || 'denied (exit 2)';
    return v;
  }
  if (r.exitCode !== 0) {
    // A missing command under sh -c exits 127: say so, it is the classic silently-disabled guard.
    const why =
      r.exitCode === 127
        ? 'exited with code 127 (command or script not found)'
        : `exited with code ${r.exitCode}`;
    return failure(hook, v, 'error', 'exit_code', why);
  }
  const answer = parseAnswer(r.stdout);
  if ('invalid' in answer) return failure(hook, v, 'error', 'invalid_answer', answer.invalid);
  return fromAnswer(answer, v);
}

/** [L-ANS-3] The script a command hook runs is missing: a failure (not run), decided by failMode. */
export function missingScriptVerdict(hook: Pick<LurusHook, 'failMode'>, script: string): HookVerdict {
  return failure(
    hook,
    base(0),
    'error',
    'missing_script',
    `script ${script} not found; the hook was not run`,
  );
}

/** [L-RUN-5, L-ANS-3] Reads an HTTP hook's ending into a verdict. */
export function httpVerdict(hook: Pick<LurusHook, 'failMode'>, r: HttpResult): HookVerdict {
  const v = base(r.durationMs);
  if (r.status !== undefined) v.status = r.status;
  switch (r.reason) {
    case 'timeout':
      return failure(hook, v, 'timeout', 'timeout', 'timed out');
    case 'transport':
      return failure(hook, v, 'error', 'transport', r.error ?? 'transport error');
    case 'output_limit':
      return failure(hook, v, 'error', 'output_limit', 'answer over the 1 MiB limit');
    case 'response':
      break;
  }
  if (r.status === undefined || r.status < 200 || r.status > 299) {
    return failure(hook, v, 'error', 'http_status', `HTTP status ${r.status ?? 'unknown'}`);
  }
  const answer = parseAnswer(r.body);
  if ('invalid' in answer) return failure(hook, v, 'error', 'invalid_answer', answer.invalid);
  return fromAnswer(answer, v);
}
