import type { LurusHook } from '../config/lurus.ts';
import type { LurusEnvelope } from '../events/lurus.ts';
import type { RunRecord } from '../records.ts';
import type { HttpResult } from '../runners/http-types.ts';
import type { ProcessResult } from '../runners/process-types.ts';

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
  return {
    decision,
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof additionalContext === 'string' && additionalContext !== '' ? { additionalContext } : {}),
  };
}

/** [L-ANS-3] A failure decides by failMode: allow (open, default) or deny (closed); its cause is kept. */
function failure(
  hook: Pick<LurusHook, 'failMode'>,
  outcome: 'error' | 'timeout' | 'spawn_error',
  cause: string,
  reason: string,
  extra: Partial<HookVerdict>,
): HookVerdict {
  return {
    durationMs: 0,
    ...extra,
    outcome,
    cause,
    reason,
    decision: hook.failMode === 'closed' ? 'deny' : 'allow',
    failed: hook.failMode,
  };
}

function fromAnswer(answer: Answer, extra: Partial<HookVerdict>): HookVerdict {
  return {
    durationMs: 0,
    ...extra,
    outcome: answer.decision === 'deny' ? 'deny' : 'ok',
    decision: answer.decision,
    ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    ...(answer.additionalContext !== undefined ? { additionalContext: answer.additionalContext } : {}),
  };
}

/** [L-ANS-2, L-ANS-3] Reads a command hook's ending into a verdict. */
export function commandVerdict(hook: Pick<LurusHook, 'failMode'>, r: ProcessResult): HookVerdict {
  const extra: Partial<HookVerdict> = {
    durationMs: r.durationMs,
    ...(r.exitCode !== null ? { exitCode: r.exitCode } : {}),
    ...(r.signal !== null ? { signal: r.signal } : {}),
    ...(r.stderr !== '' ? { stderrTail: r.stderr.slice(-STDERR_TAIL_CHARS) } : {}),
  };
  switch (r.reason) {
    case 'timeout':
      return failure(hook, 'timeout', 'timeout', 'timed out; process group stopped', extra);
    case 'spawn_error':
      return failure(hook, 'spawn_error', 'spawn_error', r.error ?? 'spawn failed', extra);
    case 'output_limit':
      return failure(
        hook,
        'error',
        'output_limit',
        'output over the 1 MiB limit; process group stopped',
        extra,
      );
    case 'signal':
      return failure(hook, 'error', 'signal', `killed by ${r.signal}`, extra);
    case 'exit':
      break;
  }
  if (r.exitCode === 2) {
    // Exit 2 is an explicit deny, not a failure: its reason is stderr, else stdout.
    const reason = r.stderr.trim() || r.stdout.trim() || 'denied (exit 2)';
    return { ...extra, durationMs: r.durationMs, outcome: 'deny', decision: 'deny', reason };
  }
  if (r.exitCode !== 0) {
    // A missing script under sh -c exits 127: say so, it is the classic silently-disabled guard.
    const why =
      r.exitCode === 127
        ? 'exited with code 127 (command or script not found)'
        : `exited with code ${r.exitCode}`;
    return failure(hook, 'error', 'exit_code', why, extra);
  }
  const answer = parseAnswer(r.stdout);
  if ('invalid' in answer) return failure(hook, 'error', 'invalid_answer', answer.invalid, extra);
  return fromAnswer(answer, extra);
}

/** [L-ANS-3] The script a command hook runs is missing: a failure (not run), decided by failMode. */
export function missingScriptVerdict(hook: Pick<LurusHook, 'failMode'>, script: string): HookVerdict {
  return failure(hook, 'error', 'missing_script', `script ${script} not found; the hook was not run`, {});
}

/** [L-RUN-5, L-ANS-3] Reads an HTTP hook's ending into a verdict. */
export function httpVerdict(hook: Pick<LurusHook, 'failMode'>, r: HttpResult): HookVerdict {
  const extra: Partial<HookVerdict> = {
    durationMs: r.durationMs,
    ...(r.status !== undefined ? { status: r.status } : {}),
  };
  switch (r.reason) {
    case 'timeout':
      return failure(hook, 'timeout', 'timeout', 'timed out', extra);
    case 'transport':
      return failure(hook, 'error', 'transport', r.error ?? 'transport error', extra);
    case 'output_limit':
      return failure(hook, 'error', 'output_limit', 'answer over the 1 MiB limit', extra);
    case 'response':
      break;
  }
  if (r.status === undefined || r.status < 200 || r.status > 299) {
    return failure(hook, 'error', 'http_status', `HTTP status ${r.status ?? 'unknown'}`, extra);
  }
  const answer = parseAnswer(r.body);
  if ('invalid' in answer) return failure(hook, 'error', 'invalid_answer', answer.invalid, extra);
  return fromAnswer(answer, extra);
}
