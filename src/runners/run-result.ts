/**
 * How a run ended, for every kind of hook, and the one mapping from that to a record's
 * outcome and cause (SPEC §4). Dialects read answers only from runs that ended normally;
 * everything else is decided here, once.
 */
import type { RunRecord } from '../records/run-record.ts';
import type { HttpResult } from './http-types.ts';
import type { ProcessResult } from './process-types.ts';
import type { PluginCallResult } from './wasm/plugin-runner.ts';

/**
 * An in-process hook's ending: it returned (possibly a promise that fulfilled), threw, outlived its
 * timeout, or was abandoned when the caller aborted (its own signal aborted too).
 */
export interface InProcessResult {
  kind: 'in-process';
  reason: 'returned' | 'threw' | 'timeout' | 'aborted';
  value?: unknown;
  error?: string;
  /** The record's cause when it did not return, if more precise than `exception` / `timeout` (a rule's). */
  cause?: string;
  durationMs: number;
}

type WasmResult = PluginCallResult & { kind: 'wasm'; durationMs: number };

export type RunResult = ProcessResult | HttpResult | InProcessResult | WasmResult;

/** The record fields that say how a run ended. */
export type Ending = Pick<
  RunRecord,
  'outcome' | 'durationMs' | 'exitCode' | 'signal' | 'status' | 'cause' | 'reason' | 'stderrTail'
>;

const STDERR_TAIL_CHARS = 1024;

/**
 * [AD-ALL-1] The cause of a run the caller's signal stopped (`decide(…, { signal })`): outcome
 * `error`, whichever kind of hook it was; the gates record it without a decision.
 */
export const ABORTED = 'aborted';

/**
 * [SPEC §4] The outcome of a run by itself, before any dialect reads an answer: a process that
 * exited 0, a 2xx answer, a returned function are `ok`; every other ending names its cause.
 */
export function outcomeOf(r: RunResult): Ending {
  switch (r.kind) {
    case 'process':
      return processEnding(r);
    case 'http':
      return httpEnding(r);
    case 'in-process':
      return inProcessEnding(r);
    case 'wasm':
      return wasmEnding(r);
  }
}

/** Built by assignment: on Node 20 an object spread that adds properties costs µs per call. */
function ending(durationMs: number): Ending {
  return { outcome: 'ok', durationMs };
}

function fail(e: Ending, outcome: Ending['outcome'], cause: string, reason: string): Ending {
  e.outcome = outcome;
  e.cause = cause;
  e.reason = reason;
  return e;
}

function processEnding(r: ProcessResult): Ending {
  const e = ending(r.durationMs);
  if (r.exitCode !== null) e.exitCode = r.exitCode;
  if (r.signal !== null) e.signal = r.signal;
  if (r.stderr !== '') e.stderrTail = r.stderr.slice(-STDERR_TAIL_CHARS);
  switch (r.reason) {
    case 'exit':
      if (r.exitCode === 0) return e;
      // A missing command under sh -c exits 127: say so, it is the classic silently-disabled hook.
      return fail(
        e,
        'error',
        'exit_code',
        r.exitCode === 127
          ? 'exited with code 127 (command or script not found)'
          : `exited with code ${r.exitCode}`,
      );
    case 'signal':
      return fail(e, 'error', 'signal', `killed by ${r.signal}`);
    case 'output_limit':
      return fail(e, 'error', 'output_limit', 'output over the 1 MiB limit; process group stopped');
    case 'timeout':
      return fail(e, 'timeout', 'timeout', 'timed out; process group stopped');
    case 'aborted':
      return fail(e, 'error', ABORTED, 'aborted by the caller; process group stopped');
    case 'spawn_error':
      return fail(e, 'spawn_error', r.cause ?? 'spawn_error', r.error ?? 'spawn failed');
  }
}

function httpEnding(r: HttpResult): Ending {
  const e = ending(r.durationMs);
  if (r.status !== undefined) e.status = r.status;
  switch (r.reason) {
    case 'timeout':
      return fail(e, 'timeout', 'timeout', 'timed out');
    case 'aborted':
      return fail(e, 'error', ABORTED, 'aborted by the caller; request cancelled');
    case 'transport':
      return fail(e, 'error', 'transport', r.error ?? 'transport error');
    case 'output_limit':
      return fail(e, 'error', 'output_limit', 'answer over the 1 MiB limit');
    case 'blocked_address':
      return fail(e, 'error', 'blocked_address', r.error ?? 'blocked address');
    case 'response':
      if (r.status !== undefined && r.status >= 200 && r.status <= 299) return e;
      return fail(e, 'error', 'http_status', `HTTP status ${r.status ?? 'unknown'}`);
  }
}

function inProcessEnding(r: InProcessResult): Ending {
  const e = ending(r.durationMs);
  switch (r.reason) {
    case 'returned':
      return e;
    case 'threw':
      return fail(e, 'error', r.cause ?? 'exception', r.error ?? 'threw');
    case 'timeout':
      return fail(e, 'timeout', r.cause ?? 'timeout', r.error ?? 'did not settle in time');
    case 'aborted':
      return fail(e, 'error', ABORTED, r.error ?? 'aborted by the caller; its answer is not awaited');
  }
}

function wasmEnding(r: WasmResult): Ending {
  const e = ending(r.durationMs);
  e.outcome = r.outcome;
  if (r.cause !== undefined) e.cause = r.cause;
  if (r.reason !== undefined) e.reason = r.reason;
  if (r.stderrTail !== undefined) e.stderrTail = r.stderrTail;
  return e;
}
