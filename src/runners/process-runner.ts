/**
 * The process runner shared by every dialect ([P-SEC-5], [L-RUN-2..4]).
 *
 * Each run spawns its command as the leader of a new process group, so a timeout can reach
 * every descendant with one signal. A run always resolves, exactly once, with the reason it
 * ended; it never throws.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { errorCode, errorMessage } from '../files/errno.ts';
import { CappedBuffer } from './capped-buffer.ts';
import type { ProcessEndReason, ProcessResult, ProcessSpec } from './process-types.ts';

const DEFAULT_KILL_GRACE_MS = 5000;
const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;
/** After the leader exits, how long leftover background processes may hold our pipes open. */
const CLOSE_WAIT_MS = 50;
/** How often a group being terminated is checked for survivors. */
const GROUP_POLL_MS = 25;
/** A process stuck in uninterruptible sleep can outlive SIGKILL for a while; don't hang on it forever. */
const KILL_SETTLE_MS = 2000;
/** setTimeout fires at once for larger delays; above this a run simply has no timeout. */
const MAX_TIMER_MS = 2_147_483_647;

export interface RunProcessOptions {
  /** Aborting ends the run like a timeout: SIGTERM to the group, SIGKILL after the grace. */
  signal?: AbortSignal;
}

interface LiveRun {
  terminate(): void;
  done: Promise<ProcessResult>;
}

/**
 * Starts hook processes and owns them until they end: each runner knows its runs in progress,
 * so an engine stops exactly its own processes on shutdown.
 */
export class ProcessRunner {
  /** Runs in progress, by process group id (= the leader's pid). */
  readonly #live = new Map<number, LiveRun>();

  /** Runs whose process group this runner is still responsible for. */
  get running(): number {
    return this.#live.size;
  }

  run(spec: ProcessSpec, opts: RunProcessOptions = {}): Promise<ProcessResult> {
    if (spec.payloadFile === undefined) return startRun(spec, opts, this.#live);
    const file = spec.payloadFile.path;
    try {
      // Synchronous on purpose: a few µs for a small file, where the async API costs several
      // thread-pool round trips; the spawn that follows blocks the loop for longer anyway.
      writeFileSync(file, spec.payloadFile.text, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      const result = notStarted(
        performance.now(),
        'spawn_error',
        `cannot write payload file: ${errorMessage(err)}`,
      );
      result.cause = 'payload_file';
      return Promise.resolve(result);
    }
    return startRun(spec, opts, this.#live).finally(() => removeFile(file));
  }

  /**
   * Terminates every run in progress (SIGTERM → grace → SIGKILL to each group) and resolves when
   * all of them have ended; they resolve with reason `timeout`.
   */
  async terminateAll(): Promise<void> {
    const runs = [...this.#live.values()];
    for (const run of runs) run.terminate();
    await Promise.all(runs.map((run) => run.done));
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone (a hook may delete it itself): nothing to clean up.
  }
}

function startRun(
  spec: ProcessSpec,
  opts: RunProcessOptions,
  liveRuns: Map<number, LiveRun>,
): Promise<ProcessResult> {
  const start = performance.now();
  const abortSignal = opts.signal;
  if (abortSignal?.aborted) return Promise.resolve(notStarted(start, 'timeout'));

  let child: ChildProcess;
  try {
    child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
  } catch (err) {
    // Invalid arguments (e.g. a NUL byte) and some errno values throw synchronously.
    return Promise.resolve(notStarted(start, 'spawn_error', errorMessage(err)));
  }

  const pid = child.pid;
  if (pid === undefined) {
    // ENOENT, EACCES, a bad cwd…: Node reports these through one 'error' event on the next tick.
    return new Promise((resolve) => {
      child.once('error', (err) => {
        resolve(notStarted(start, 'spawn_error', describeSpawnError(err, spec.cwd)));
      });
      destroyStdio(child);
    });
  }

  const stdoutStream = child.stdout!;
  const stderrStream = child.stderr!;
  const stdout = new CappedBuffer(spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const stderr = new CappedBuffer(spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const killGraceMs = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;

  let finished = false;
  let exited = false;
  let closed = false;
  let capped = false;
  let groupEmpty = false;
  let exitCode: number | null = null;
  let exitSignal: NodeJS.Signals | null = null;
  let killReason: ProcessEndReason | undefined;
  let termSentAt = 0;
  let killSentAt: number | undefined;
  let timeoutTimer: NodeJS.Timeout | undefined;
  let closeWaitTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let resolveRun!: (result: ProcessResult) => void;
  const done = new Promise<ProcessResult>((resolve) => {
    resolveRun = resolve;
  });

  const finish = (): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timeoutTimer);
    clearTimeout(closeWaitTimer);
    clearInterval(pollTimer);
    abortSignal?.removeEventListener('abort', onAbort);
    liveRuns.delete(pid);
    // Leftover processes may still hold the pipes; we stop listening rather than wait for them.
    if (!closed) destroyStdio(child);
    else child.stdin?.destroy();
    const reason: ProcessEndReason =
      killReason ?? (capped ? 'output_limit' : exitSignal !== null ? 'signal' : 'exit');
    resolveRun({
      kind: 'process',
      reason,
      exitCode,
      signal: exitSignal,
      stdout: stdout.text(),
      stderr: stderr.text(),
      durationMs: performance.now() - start,
      pid,
    });
  };

  const groupGone = (): boolean => {
    if (!groupEmpty) groupEmpty = !groupHasLiveMember(pid);
    return groupEmpty;
  };

  /** Ends the run once its conditions hold: leader exited, group empty (when we kill), pipes closed. */
  const settle = (): void => {
    if (finished || !exited) return;
    if (killReason !== undefined && !groupGone()) return;
    if (closed) finish();
    else closeWaitTimer ??= setTimeout(finish, CLOSE_WAIT_MS);
  };

  const pollGroup = (): void => {
    if (finished) return;
    if (exited && groupGone()) {
      settle();
      return;
    }
    const now = performance.now();
    if (killSentAt === undefined) {
      if (now - termSentAt >= killGraceMs) {
        signalGroup(pid, 'SIGKILL');
        killSentAt = now;
      }
    } else if (now - killSentAt >= KILL_SETTLE_MS) {
      finish();
    }
  };

  const startKill = (reason: ProcessEndReason): void => {
    // A leader that already exited by itself ended the run normally: its leftovers are not ours to kill.
    if (finished || exited || killReason !== undefined) return;
    killReason = reason;
    clearTimeout(timeoutTimer);
    termSentAt = performance.now();
    signalGroup(pid, 'SIGTERM');
    pollTimer = setInterval(pollGroup, GROUP_POLL_MS);
  };

  function onAbort(): void {
    startKill('timeout');
  }

  const onOverflow = (stream: Readable): void => {
    capped = true;
    // Closing our end makes a writer that ignores SIGTERM fail with EPIPE instead of spinning.
    stream.destroy();
    startKill('output_limit');
  };

  stdoutStream.on('data', (chunk: Buffer) => {
    if (!stdout.push(chunk)) onOverflow(stdoutStream);
  });
  stderrStream.on('data', (chunk: Buffer) => {
    if (!stderr.push(chunk)) onOverflow(stderrStream);
  });
  stdoutStream.on('error', ignore);
  stderrStream.on('error', ignore);
  child.on('error', ignore); // only spawn failures matter, handled above; we never use child.kill()
  child.on('exit', (code, signal) => {
    exited = true;
    exitCode = code;
    exitSignal = signal;
    if (killReason === undefined) clearTimeout(timeoutTimer);
    settle();
  });
  child.on('close', () => {
    closed = true;
    settle();
  });

  if (spec.stdin !== undefined) {
    const stdin = child.stdin!;
    // A hook may exit without reading its input (EPIPE/ECONNRESET); that is not a failure of the run.
    stdin.on('error', ignore);
    stdin.end(spec.stdin);
  }

  if (spec.timeoutMs < MAX_TIMER_MS) {
    timeoutTimer = setTimeout(() => startKill('timeout'), Math.max(0, spec.timeoutMs));
  }
  abortSignal?.addEventListener('abort', onAbort, { once: true });
  liveRuns.set(pid, { terminate: () => startKill('timeout'), done });
  return done;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone. EPERM: nothing more we are allowed to do.
  }
}

/**
 * True while some process of the group is alive. Zombies do not count: where PID 1 does not reap
 * orphans (containers), `kill(-pgid, 0)` keeps succeeding for them forever.
 */
function groupHasLiveMember(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    if (errorCode(err) === 'ESRCH') return false;
  }
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // no /proc to tell zombies apart: trust kill(0)
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue; // not a pid directory
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // exited while we scanned
    }
    // `pid (comm) state ppid pgrp …`; comm may contain spaces and parens, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    const state = fields[0];
    if (Number(fields[2]) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

function destroyStdio(child: ChildProcess): void {
  child.stdin?.destroy();
  child.stdout?.destroy();
  child.stderr?.destroy();
}

function notStarted(start: number, reason: ProcessEndReason, error?: string): ProcessResult {
  const result: ProcessResult = {
    kind: 'process',
    reason,
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    durationMs: performance.now() - start,
  };
  if (error !== undefined) result.error = error;
  return result;
}

/** Node reports a missing cwd as `spawn <command> ENOENT`, which blames the command; say which it was. */
function describeSpawnError(err: Error, cwd: string): string {
  if (errorCode(err) !== 'ENOENT') return err.message;
  try {
    if (statSync(cwd).isDirectory()) return err.message;
  } catch {
    // cwd missing: fall through
  }
  return `${err.message} (cwd ${cwd} is not a directory)`;
}

function ignore(): void {}
