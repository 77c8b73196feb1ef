/**
 * The process runner shared by every dialect ([P-SEC-5], [L-RUN-2..4], [X-PROC-1..3]).
 *
 * A backend starts each process (a launcher, so the agent never forks [X-PROC-1]); the process
 * leads a new process group and, where the host allows, sits in a cgroup of its own. The runner
 * decides when a run ends: once its main process has exited and every other process it started
 * is gone — killed, unless the hook keeps its children [X-PROC-2] — or at its timeout, by SIGTERM
 * to everything, SIGKILL after the grace [P-SEC-5]. A run always resolves, exactly once, with the
 * reason it ended; it never throws.
 */
import { unlinkSync, writeFileSync } from 'node:fs';
import { errorMessage } from '../files/errno.ts';
import { CappedBuffer } from './capped-buffer.ts';
import { type Containment, detectContainment, type RunContainer } from './containment.ts';
import type { ProcessEndReason, ProcessResult, ProcessSpec } from './process-types.ts';
import { DirectBackend, type SpawnBackend, type SpawnedProcess } from './spawn-backend.ts';

const DEFAULT_KILL_GRACE_MS = 5000;
const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;
/** After the leader exits, how long processes it left may hold our pipes open before we stop reading. */
const CLOSE_WAIT_MS = 50;
/** How often a run being terminated is checked for survivors. */
const GROUP_POLL_MS = 25;
/** A process stuck in uninterruptible sleep can outlive SIGKILL for a while; don't hang on it forever. */
const KILL_SETTLE_MS = 2000;
/** setTimeout fires at once for larger delays; above this a run simply has no timeout. */
const MAX_TIMER_MS = 2_147_483_647;

export interface RunProcessOptions {
  /** Aborting ends the run like a timeout: SIGTERM to everything, SIGKILL after the grace. */
  signal?: AbortSignal;
}

export interface ProcessRunnerOptions {
  /** How processes are started; default `child_process.spawn` (engines pass their launcher). */
  backend?: SpawnBackend;
  /** What contains a run's processes; default: detected (a cgroup per run where possible). */
  containment?: Containment;
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
  readonly backend: SpawnBackend;
  readonly containment: Containment;
  /** Runs in progress. */
  readonly #live = new Set<LiveRun>();

  constructor(opts: ProcessRunnerOptions = {}) {
    this.backend = opts.backend ?? new DirectBackend();
    this.containment = opts.containment ?? detectContainment();
  }

  /** Runs whose processes this runner is still responsible for. */
  get running(): number {
    return this.#live.size;
  }

  run(spec: ProcessSpec, opts: RunProcessOptions = {}): Promise<ProcessResult> {
    // A launcher writes (and removes) the payload file itself, off the agent's event loop.
    if (spec.payloadFile === undefined || this.backend.writesPayloadFiles) return this.#start(spec, opts);
    const file = spec.payloadFile.path;
    try {
      // Synchronous on purpose: a few µs for a small file, where the async API costs several
      // thread-pool round trips.
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
    return this.#start(spec, opts).finally(() => removeFile(file));
  }

  /**
   * Terminates every run in progress (SIGTERM → grace → SIGKILL) and resolves when all of them
   * have ended; they resolve with reason `timeout`.
   */
  async terminateAll(): Promise<void> {
    const runs = [...this.#live];
    for (const run of runs) run.terminate();
    await Promise.all(runs.map((run) => run.done));
  }

  /** Stops the launcher and removes the engine's cgroup folder (after terminateAll). */
  async close(): Promise<void> {
    await this.backend.close();
    this.containment.close();
  }

  #start(spec: ProcessSpec, opts: RunProcessOptions): Promise<ProcessResult> {
    const run = startRun(spec, opts, this.backend, this.containment.create(spec.keepChildren === true));
    this.#live.add(run);
    run.done.then(() => this.#live.delete(run));
    return run.done;
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone (a hook may delete it itself): nothing to clean up.
  }
}

/** One run's state machine: started → (output)* → exited → its other processes gone → ended. */
function startRun(
  spec: ProcessSpec,
  opts: RunProcessOptions,
  backend: SpawnBackend,
  container: RunContainer,
): LiveRun {
  const start = performance.now();
  const abortSignal = opts.signal;
  let resolveRun!: (result: ProcessResult) => void;
  const done = new Promise<ProcessResult>((resolve) => {
    resolveRun = resolve;
  });
  if (abortSignal?.aborted) {
    container.release();
    resolveRun(notStarted(start, 'timeout'));
    return { terminate() {}, done };
  }

  const stdout = new CappedBuffer(spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const stderr = new CappedBuffer(spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const killGraceMs = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const keepChildren = spec.keepChildren === true;

  let pid: number | undefined;
  let spawned: SpawnedProcess | undefined;
  let finished = false;
  let exited = false;
  let closed = false;
  let capped = false;
  let gone = false;
  let exitCode: number | null = null;
  let exitSignal: NodeJS.Signals | null = null;
  let killReason: ProcessEndReason | undefined;
  let termSentAt = 0;
  let killSentAt: number | undefined;
  let timeoutTimer: NodeJS.Timeout | undefined;
  let closeWaitTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;

  const finish = (failure?: { message: string; cause?: string }): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timeoutTimer);
    clearTimeout(closeWaitTimer);
    clearInterval(pollTimer);
    abortSignal?.removeEventListener('abort', onAbort);
    // Processes left behind may still hold the pipes; we stop listening rather than wait for them.
    spawned?.detach();
    container.release(gone ? true : undefined);
    if (failure !== undefined) {
      const result = notStarted(start, 'spawn_error', failure.message);
      if (failure.cause !== undefined) result.cause = failure.cause;
      if (pid !== undefined) result.pid = pid;
      resolveRun(result);
      return;
    }
    const reason: ProcessEndReason =
      killReason ?? (capped ? 'output_limit' : exitSignal !== null ? 'signal' : 'exit');
    const result: ProcessResult = {
      kind: 'process',
      reason,
      exitCode,
      signal: exitSignal,
      stdout: stdout.text(),
      stderr: stderr.text(),
      durationMs: performance.now() - start,
    };
    if (pid !== undefined) result.pid = pid;
    resolveRun(result);
  };

  /** What the launcher told at exit: nothing of the run (group or cgroup) was left. */
  let goneAtExit = false;
  const allGone = (): boolean => {
    if (!gone && pid !== undefined) gone = goneAtExit || container.empty(pid);
    return gone;
  };

  /** Ends the run once its conditions hold: leader exited, its other processes gone (unless kept), pipes closed. */
  const settle = (): void => {
    if (finished || !exited) return;
    if (!keepChildren && !allGone()) return;
    if (closed || keepChildren) finish();
    else closeWaitTimer ??= setTimeout(finish, CLOSE_WAIT_MS);
  };

  const poll = (): void => {
    if (finished) return;
    if (exited && allGone()) {
      settle();
      return;
    }
    const now = performance.now();
    if (killSentAt === undefined) {
      if (now - termSentAt >= killGraceMs) {
        if (pid !== undefined) container.signal(pid, 'SIGKILL');
        killSentAt = now;
      }
    } else if (now - killSentAt >= KILL_SETTLE_MS) {
      finish();
    }
  };

  const startKill = (reason: ProcessEndReason): void => {
    if (finished || killReason !== undefined || pid === undefined) return;
    // A leader that exited by itself ended the run normally; what it left is reaped below.
    if (exited) return;
    killReason = reason;
    clearTimeout(timeoutTimer);
    termSentAt = performance.now();
    container.signal(pid, 'SIGTERM');
    pollTimer = setInterval(poll, GROUP_POLL_MS);
  };

  function onAbort(): void {
    startKill('timeout');
  }

  const onOverflow = (): void => {
    capped = true;
    // Closing our end makes a writer that ignores SIGTERM fail with EPIPE instead of spinning.
    spawned?.stopOutput();
    closed = true;
    startKill('output_limit');
  };

  spawned = backend.spawn(
    {
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd,
      ...(spec.stdin !== undefined ? { stdin: spec.stdin } : {}),
      ...(container.procs !== undefined ? { cgroupProcs: container.procs } : {}),
      ...(spec.payloadFile !== undefined && backend.writesPayloadFiles
        ? { payloadFile: spec.payloadFile }
        : {}),
    },
    {
      started(p) {
        pid = p;
        if (spec.timeoutMs < MAX_TIMER_MS) {
          timeoutTimer = setTimeout(() => startKill('timeout'), Math.max(0, spec.timeoutMs));
        }
        abortSignal?.addEventListener('abort', onAbort, { once: true });
      },
      failed(message, cause) {
        // The launcher died: whatever the run had started goes with it [X-PROC-2].
        if (cause === 'launcher_died') container.signal(pid, 'SIGKILL');
        finish(cause !== undefined ? { message, cause } : { message });
      },
      stdout(chunk) {
        if (!capped && !stdout.push(chunk)) onOverflow();
      },
      stderr(chunk) {
        if (!capped && !stderr.push(chunk)) onOverflow();
      },
      exited(code, signal, leftAlive) {
        exited = true;
        // The launcher already looked, off our event loop: nothing of the run is left.
        goneAtExit = leftAlive === false;
        exitCode = code;
        exitSignal = signal;
        if (killReason === undefined) clearTimeout(timeoutTimer);
        // [X-PROC-2] What the hook started goes with it, unless it asked to keep it.
        if (!keepChildren && killReason === undefined && pid !== undefined && !allGone()) {
          container.signal(pid, 'SIGKILL');
          killSentAt = performance.now();
          pollTimer ??= setInterval(poll, GROUP_POLL_MS);
        }
        settle();
      },
      closed() {
        closed = true;
        settle();
      },
    },
  );
  return { terminate: () => startKill('timeout'), done };
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
