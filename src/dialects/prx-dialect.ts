import { randomBytes } from 'node:crypto';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PrxEventInstance } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { runProcess } from '../runners/process-runner.ts';
import type { ProcessResult } from '../runners/process-types.ts';
import { bwrapArgv } from '../sandbox/bwrap.ts';
import type { PrxAction } from '../sources/prx-source.ts';

/** [P-SEC-1] The only PATH a PRX hook sees. */
export const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';
/** [P-PAY-1] Above this many UTF-8 bytes the envelope is not put in ZERO_HOOK_PAYLOAD. */
export const MAX_ENV_PAYLOAD_BYTES = 8192;
const STDERR_TAIL_CHARS = 1024;

/** [P-SEC-1, P-PAY-1, P-PAY-4, P-BUS-4] The hook's environment, built from nothing. */
export function buildPrxEnv(
  action: PrxAction,
  ev: PrxEventInstance,
  payloadFile: string,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: SAFE_PATH,
    ZERO_HOOK_EVENT: ev.envelope.event,
    ZERO_HOOK_SESSION: ev.envelope.session_id,
    ZERO_HOOK_TIMESTAMP: ev.envelope.timestamp,
    ZERO_HOOK_DEPTH: String(ev.depth),
    ZERO_HOOK_PAYLOAD_FILE: payloadFile,
  };
  const json = ev.json;
  // Length in UTF-16 units bounds the UTF-8 size from below: only measure bytes when it could be close.
  if (json.length <= MAX_ENV_PAYLOAD_BYTES && Buffer.byteLength(json, 'utf8') <= MAX_ENV_PAYLOAD_BYTES) {
    env.ZERO_HOOK_PAYLOAD = json;
  }
  return Object.assign(env, action.env);
}

let fileCounter = 0;
const fileTag = randomBytes(4).toString('hex');

/**
 * Runs one PRX shell action for one event: temp payload file (0600), env, optional stdin,
 * then the process runner. The temp file is removed however the run ends [P-PAY-2].
 */
export async function runPrxAction(
  action: PrxAction,
  ev: PrxEventInstance,
  tmpDir: string,
): Promise<
  Pick<RunRecord, 'outcome' | 'durationMs' | 'exitCode' | 'signal' | 'cause' | 'reason' | 'stderrTail'>
> {
  const payloadFile = path.join(tmpDir, `payload-${fileTag}-${++fileCounter}.json`);
  const started = performance.now();
  try {
    // Synchronous on purpose: a few µs for a small file, where the async API costs several
    // thread-pool round trips; the spawn that follows blocks the loop for longer anyway.
    writeFileSync(payloadFile, ev.json, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    return {
      outcome: 'spawn_error',
      durationMs: performance.now() - started,
      cause: 'payload_file',
      reason: `cannot write payload file: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  try {
    const env = buildPrxEnv(action, ev, payloadFile);
    let command = action.command;
    let args = action.args;
    // [P-SEC-7] Under bwrap the runner spawns bwrap (the group leader) with the same env and cwd.
    if (action.sandbox !== undefined) {
      ({ command, args } = bwrapArgv({
        sandbox: action.sandbox,
        command,
        args,
        cwd: action.cwd,
        env,
        payloadFile,
      }));
    }
    const result = await runProcess({
      command,
      args,
      env,
      cwd: action.cwd,
      ...(action.stdinJson ? { stdin: `${ev.json}\n` } : {}),
      timeoutMs: action.timeoutMs,
    });
    return recordFromProcess(result);
  } finally {
    try {
      unlinkSync(payloadFile);
    } catch {
      // Already gone (a hook may delete it itself): nothing to clean up.
    }
  }
}

/** Maps why a process ended onto the record's outcome and cause (SPEC §4). */
export function recordFromProcess(
  r: ProcessResult,
): Pick<RunRecord, 'outcome' | 'durationMs' | 'exitCode' | 'signal' | 'cause' | 'reason' | 'stderrTail'> {
  const base = {
    durationMs: r.durationMs,
    ...(r.exitCode !== null ? { exitCode: r.exitCode } : {}),
    ...(r.signal !== null ? { signal: r.signal } : {}),
    ...(r.stderr.length > 0 ? { stderrTail: r.stderr.slice(-STDERR_TAIL_CHARS) } : {}),
  };
  switch (r.reason) {
    case 'exit':
      return r.exitCode === 0
        ? { outcome: 'ok', ...base }
        : { outcome: 'error', cause: 'exit_code', reason: `exited with code ${r.exitCode}`, ...base };
    case 'signal':
      return { outcome: 'error', cause: 'signal', reason: `killed by ${r.signal}`, ...base };
    case 'output_limit':
      return {
        outcome: 'error',
        cause: 'output_limit',
        reason: 'output over the 1 MiB limit; process group stopped',
        ...base,
      };
    case 'timeout':
      return { outcome: 'timeout', cause: 'timeout', reason: 'timed out; process group stopped', ...base };
    case 'spawn_error':
      return { outcome: 'spawn_error', cause: 'spawn_error', reason: r.error ?? 'spawn failed', ...base };
  }
}
