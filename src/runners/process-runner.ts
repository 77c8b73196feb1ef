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
import { errorMessage } from '../core/errno.ts';
import { CappedBuffer } from './capped-buffer.ts';
import { type Containment, detectContainment, type RunContainer } from './containment.ts';
import { type Deadline, Deadlines } from './deadlines.ts';
import {
  DEFAULT_KILL_GRACE_MS,
  type ProcessEndReason,
  type ProcessResult,
  type ProcessSpec,
} from './process-types.ts';
import {
  DirectBackend,
  type SpawnBackend,
  type SpawnEvents,
  type SpawnedProcess,
  type SpawnRequest,
} from './spawn-backend.ts';

const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;
/** After the leader exits, how long processes it left may hold our pipes open before we stop reading. */
const CLOSE_WAIT_MS = 50;
/** How often a run being terminated is checked for survivors. */
const GROUP_POLL_MS = 25;
/** A process stuck in uninterruptible sleep can outlive SIGKILL for a while; don't hang on it forever. */
const KILL_SETTLE_MS = 2000;
/** setTimeout fires at once for larger delays; above this a run simply has no timeout. */
const MAX_TIMER_MS = 2_147_483_647;
/** Every run's timeout, on one timer (a Node timer per run costs the agent's loop ~9 µs). */
const timeouts = new Deadlines();

interface RunProcessOptions {
  /**
   * Aborting ends the run as a timeout does (SIGTERM to everything, SIGKILL after the grace), with
   * reason `aborted`; an aborted signal starts nothing.
   */
  signal?: AbortSignal;
}

interface ProcessRunnerOptions {
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
    const run = new ProcessRun(spec, opts, this.backend, this.containment.create(spec.keepChildren === true));
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

/**
 * One run's state machine: started → (output)* → exited → its other processes gone → ended.
 * A class, and it is its own SpawnEvents: one object per run on the agent's event loop, where
 * closures would be a dozen.
 */
class ProcessRun implements LiveRun, SpawnEvents {
  readonly done: Promise<ProcessResult>;
  readonly #start = performance.now();
  readonly #container: RunContainer;
  readonly #abortSignal: AbortSignal | undefined;
  readonly #stdout: CappedBuffer;
  readonly #stderr: CappedBuffer;
  readonly #killGraceMs: number;
  readonly #keepChildren: boolean;
  #resolve!: (result: ProcessResult) => void;
  #spawned: SpawnedProcess | undefined;
  #pid: number | undefined;
  #finished = false;
  #exited = false;
  #closed = false;
  #capped = false;
  #gone = false;
  /** What the launcher told at exit: nothing of the run (group or cgroup) was left. */
  #goneAtExit = false;
  #exitCode: number | null = null;
  #exitSignal: NodeJS.Signals | null = null;
  #killReason: ProcessEndReason | undefined;
  #termSentAt = 0;
  #killSentAt: number | undefined;
  #timeout: Deadline | undefined;
  /** Made only for a run that has a signal: a run without one allocates no listener. */
  #onAbort: (() => void) | undefined;
  #closeWaitTimer: NodeJS.Timeout | undefined;
  #pollTimer: NodeJS.Timeout | undefined;

  constructor(spec: ProcessSpec, opts: RunProcessOptions, backend: SpawnBackend, container: RunContainer) {
    this.#container = container;
    this.#abortSignal = opts.signal;
    this.done = new Promise<ProcessResult>((resolve) => {
      this.#resolve = resolve;
    });
    const max = spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.#stdout = new CappedBuffer(max);
    this.#stderr = new CappedBuffer(max);
    this.#killGraceMs = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.#keepChildren = spec.keepChildren === true;
    if (this.#abortSignal?.aborted) {
      this.#finished = true;
      container.release();
      this.#resolve(notStarted(this.#start, 'aborted'));
      return;
    }
    const req: SpawnRequest = { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd };
    if (spec.stdin !== undefined) req.stdin = spec.stdin;
    if (container.procs !== undefined) req.cgroupProcs = container.procs;
    if (this.#keepChildren) req.keepChildren = true;
    if (spec.payloadFile !== undefined && backend.writesPayloadFiles) req.payloadFile = spec.payloadFile;
    this.#spawned = backend.spawn(req, this);
    // The timeout counts from the request (the launcher starts it within µs); a run that failed
    // to start has finished already.
    if (this.#finished) return;
    if (spec.timeoutMs < MAX_TIMER_MS)
      this.#timeout = timeouts.add(Math.max(0, spec.timeoutMs), this.#onTimeout);
    if (this.#abortSignal !== undefined) {
      this.#onAbort = () => this.#startKill('aborted');
      this.#abortSignal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  terminate(): void {
    this.#startKill('timeout');
  }

  // --- SpawnEvents (from the backend) ---

  started(pid: number): void {
    this.#pid = pid;
  }

  failed(message: string, cause?: string): void {
    // The launcher died: whatever the run had started goes with it [X-PROC-2].
    if (cause === 'launcher_died') this.#container.signal(this.#pid, 'SIGKILL');
    this.#finish(cause !== undefined ? { message, cause } : { message });
  }

  stdout(chunk: Buffer): void {
    if (!this.#capped && !this.#stdout.push(chunk)) this.#onOverflow();
  }

  stderr(chunk: Buffer): void {
    if (!this.#capped && !this.#stderr.push(chunk)) this.#onOverflow();
  }

  exited(code: number | null, signal: NodeJS.Signals | null, leftAlive?: boolean): void {
    this.#exited = true;
    // The launcher already looked, off our event loop: nothing of the run is left.
    this.#goneAtExit = leftAlive === false;
    this.#exitCode = code;
    this.#exitSignal = signal;
    if (this.#killReason === undefined) this.#timeout?.cancel();
    // [X-PROC-2] What the hook started goes with it, unless it asked to keep it.
    if (
      !this.#keepChildren &&
      this.#killReason === undefined &&
      this.#pid !== undefined &&
      !this.#allGone()
    ) {
      this.#container.signal(this.#pid, 'SIGKILL');
      this.#killSentAt = performance.now();
      this.#pollTimer ??= setInterval(() => this.#poll(), GROUP_POLL_MS);
    }
    this.#settle();
  }

  closed(): void {
    this.#closed = true;
    this.#settle();
  }

  // --- the state machine ---

  #onTimeout = (): void => this.#startKill('timeout');

  #finish(failure?: { message: string; cause?: string }): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#timeout?.cancel();
    clearTimeout(this.#closeWaitTimer);
    clearInterval(this.#pollTimer);
    if (this.#onAbort !== undefined) this.#abortSignal?.removeEventListener('abort', this.#onAbort);
    // Processes left behind may still hold the pipes; we stop listening rather than wait for them.
    this.#spawned?.detach();
    // [X-PROC-2] A launcher removes the cgroup of a run it found nothing left of at the exit.
    this.#container.release(this.#gone ? true : undefined, this.#goneAtExit && !this.#keepChildren);
    const pid = this.#pid;
    if (failure !== undefined) {
      const result = notStarted(this.#start, 'spawn_error', failure.message);
      if (failure.cause !== undefined) result.cause = failure.cause;
      if (pid !== undefined) result.pid = pid;
      this.#resolve(result);
      return;
    }
    const reason: ProcessEndReason =
      this.#killReason ?? (this.#capped ? 'output_limit' : this.#exitSignal !== null ? 'signal' : 'exit');
    const result: ProcessResult = {
      kind: 'process',
      reason,
      exitCode: this.#exitCode,
      signal: this.#exitSignal,
      stdout: this.#stdout.text(),
      stderr: this.#stderr.text(),
      durationMs: performance.now() - this.#start,
    };
    if (pid !== undefined) result.pid = pid;
    this.#resolve(result);
  }

  #allGone(): boolean {
    if (!this.#gone && this.#pid !== undefined)
      this.#gone = this.#goneAtExit || this.#container.empty(this.#pid);
    return this.#gone;
  }

  /** Ends the run once its conditions hold: leader exited, its other processes gone (unless kept), pipes closed. */
  #settle(): void {
    if (this.#finished || !this.#exited) return;
    if (!this.#keepChildren && !this.#allGone()) return;
    if (this.#closed || this.#keepChildren) this.#finish();
    else this.#closeWaitTimer ??= setTimeout(() => this.#finish(), CLOSE_WAIT_MS);
  }

  /**
   * Signals everything of the run. Its pid may not be known yet (a launcher reports it late when
   * the run has a cgroup): the cgroup is signalled, and the launcher signals the group for us.
   */
  #signal(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.#pid === undefined) this.#spawned?.signal(signal);
    this.#container.signal(this.#pid, signal);
  }

  #poll(): void {
    if (this.#finished) return;
    if (this.#exited && this.#allGone()) {
      this.#settle();
      return;
    }
    const now = performance.now();
    if (this.#killSentAt === undefined) {
      if (now - this.#termSentAt >= this.#killGraceMs) {
        this.#signal('SIGKILL');
        this.#killSentAt = now;
      }
    } else if (now - this.#killSentAt >= KILL_SETTLE_MS) {
      this.#finish();
    }
  }

  #startKill(reason: ProcessEndReason): void {
    if (this.#finished || this.#killReason !== undefined || this.#spawned === undefined) return;
    // A leader that exited by itself ended the run normally; what it left is reaped below.
    if (this.#exited) return;
    this.#killReason = reason;
    this.#timeout?.cancel();
    this.#termSentAt = performance.now();
    this.#signal('SIGTERM');
    this.#pollTimer = setInterval(() => this.#poll(), GROUP_POLL_MS);
  }

  #onOverflow(): void {
    this.#capped = true;
    // Closing our end makes a writer that ignores SIGTERM fail with EPIPE instead of spinning.
    this.#spawned?.stopOutput();
    this.#closed = true;
    this.#startKill('output_limit');
  }
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
