/**
 * Hooks started by a launcher process [X-PROC-1]: the C launcher (posix-style fork+exec in a
 * small process, built at install where a C compiler exists) or, without one, a small Node
 * launcher. The agent forks once, to start the launcher; after that each hook run costs it a
 * frame written to a pipe. The launcher's own environment is empty [X-PROC-4].
 *
 * If the launcher dies, runs in flight end as `spawn_error` (cause `launcher_died`), their
 * process groups are killed, and the next run starts a new launcher. If no launcher can be
 * started, the engine falls back to `child_process.spawn` and says so once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, existsSync, constants as fsConstants } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../records/logger.ts';
import {
  EVT_EOF,
  EVT_EXIT,
  EVT_FAILED,
  EVT_STARTED,
  EVT_STDERR,
  EVT_STDOUT,
  encodeDetach,
  encodeSignal,
  encodeSpawn,
  FrameReader,
} from './launcher-frames.ts';
import {
  DirectBackend,
  type SpawnBackend,
  type SpawnEvents,
  type SpawnedProcess,
  type SpawnRequest,
} from './spawn-backend.ts';

/** Which launcher to use: `auto` (C if built, else Node), or one of them, or none (`direct`). */
export type LauncherChoice = 'auto' | 'native' | 'node' | 'direct';

/** Restarts within this window are counted; past the limit the engine gives up on launchers. */
const RESTART_WINDOW_MS = 10_000;
const MAX_RESTARTS = 5;

/** The package folder: this file is `src/runners/…` or `dist/runners/…`. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Built by `npm run build` (scripts/build-launcher.js) where a C compiler exists. */
export function nativeLauncherPath(): string {
  return path.join(PACKAGE_ROOT, 'dist', 'native', 'hookwerk-launcher');
}

/** The compiled Node launcher (tests run from src/, so it is always taken from dist/). */
export function nodeLauncherPath(): string {
  return path.join(PACKAGE_ROOT, 'dist', 'runners', 'node-launcher.js');
}

function executable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The backend an engine uses: `HOOKWERK_LAUNCHER` (native|node|direct) overrides `choice`. */
export function selectBackend(choice: LauncherChoice = 'auto', logger?: Logger): SpawnBackend {
  const env = process.env.HOOKWERK_LAUNCHER;
  const wanted: LauncherChoice = env === 'native' || env === 'node' || env === 'direct' ? env : choice;
  if (wanted === 'direct') return new DirectBackend();
  const native = nativeLauncherPath();
  if (wanted !== 'node' && executable(native)) {
    // The engine's pid: a launcher that finds another parent (the engine died first) exits.
    return new LauncherBackend({
      kind: 'posix_spawn launcher',
      command: native,
      args: [String(process.pid)],
      logger,
    });
  }
  const script = nodeLauncherPath();
  if (!existsSync(script)) {
    logger?.warn(`no launcher is built (${script} is missing); hooks are started with child_process.spawn`);
    return new DirectBackend();
  }
  return new LauncherBackend({
    kind: 'node launcher',
    command: process.execPath,
    args: [script, String(process.pid)],
    logger,
  });
}

interface InFlight {
  events: SpawnEvents;
  command: string;
  cwd: string;
  pid?: number;
  exited: boolean;
  eofs: number;
  detached: boolean;
  outputStopped: boolean;
}

interface LauncherOptions {
  kind: string;
  command: string;
  args: readonly string[];
  logger: Logger | undefined;
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>();
for (const [name, num] of Object.entries(osConstants.signals)) {
  if (isSignal(name)) SIGNAL_NAMES.set(num, name);
}
/** The fewest payload bytes (id included) of each event type; an unknown type has none. */
const MIN_EVENT_BYTES = new Map<number, number>([
  [EVT_STARTED, 8],
  [EVT_FAILED, 12],
  [EVT_STDOUT, 4],
  [EVT_STDERR, 4],
  [EVT_EXIT, 12],
  [EVT_EOF, 5],
]);
const ERRNO_NAMES = new Map<number, string>();
for (const [name, num] of Object.entries(osConstants.errno)) ERRNO_NAMES.set(num, name);

function isSignal(name: string): name is NodeJS.Signals {
  return name.startsWith('SIG');
}

export class LauncherBackend implements SpawnBackend {
  readonly kind: string;
  /** Until the launcher is found unusable (then the direct fallback writes them in the runner). */
  get writesPayloadFiles(): boolean {
    return this.#fallback === undefined;
  }
  readonly #opts: LauncherOptions;
  #child: ChildProcess | undefined;
  #reader = new FrameReader();
  #nextId = 1;
  readonly #runs = new Map<number, InFlight>();
  #restarts: number[] = [];
  #fallback: DirectBackend | undefined;
  #closed = false;
  #corked = false;

  constructor(opts: LauncherOptions) {
    this.kind = opts.kind;
    this.#opts = opts;
  }

  /** Launcher restarts so far (after a crash). */
  get restarts(): number {
    return this.#restarts.length;
  }

  /** The launcher's pid, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  spawn(req: SpawnRequest, events: SpawnEvents): SpawnedProcess {
    if (this.#fallback !== undefined) return this.#fallback.spawn(req, events);
    const child = this.#launcher();
    if (child === undefined) return this.#fallbackBackend().spawn(req, events);
    const id = this.#nextId++;
    const run: InFlight = {
      events,
      command: req.command,
      cwd: req.cwd,
      exited: false,
      eofs: 0,
      detached: false,
      outputStopped: false,
    };
    this.#runs.set(id, run);
    this.#send(child, encodeSpawn(id, req));
    this.#refState();
    return {
      signal: (signal) => {
        if (run.exited || this.#runs.get(id) !== run) return;
        const num = osConstants.signals[signal];
        this.#child?.stdin?.write(encodeSignal(id, num));
      },
      stopOutput: () => {
        if (run.detached || run.outputStopped) return;
        run.outputStopped = true;
        // The launcher closes its ends of the pipes; the exit is still reported.
        this.#child?.stdin?.write(encodeDetach(id));
      },
      detach: () => {
        if (run.detached) return;
        run.detached = true;
        if (this.#runs.get(id) === run) {
          this.#runs.delete(id);
          this.#child?.stdin?.write(encodeDetach(id));
          this.#refState();
        }
      },
    };
  }

  /**
   * Writes a request. Requests made in one go (the hooks of one event start in one loop turn) are
   * corked and leave in one writev at the end of the turn: one syscall and one launcher wake-up.
   */
  #send(child: ChildProcess, frame: Buffer): void {
    const stdin = child.stdin;
    if (stdin === null) return;
    if (!this.#corked) {
      this.#corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.#corked = false;
        stdin.uncork();
      });
    }
    stdin.write(frame);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const child = this.#child;
    this.#child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      // Waited for: the launcher is otherwise unref'd, so nothing else holds the event loop here.
      child.ref();
      // Closing its stdin tells it to kill what is left and exit.
      child.stdin?.end();
    });
  }

  /** The running launcher, started on first use and again after a crash; undefined if it cannot run. */
  #launcher(): ChildProcess | undefined {
    if (this.#child !== undefined) return this.#child;
    if (this.#closed) return undefined;
    const now = Date.now();
    this.#restarts = this.#restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.#restarts.length >= MAX_RESTARTS) return undefined;
    let child: ChildProcess;
    try {
      // [X-PROC-4] An empty environment: a hook reading /proc/$PPID/environ learns nothing.
      child = spawn(this.#opts.command, this.#opts.args, { env: {}, stdio: ['pipe', 'pipe', 'inherit'] });
    } catch {
      return undefined;
    }
    if (child.pid === undefined) {
      child.once('error', () => {});
      return undefined;
    }
    this.#child = child;
    this.#reader = new FrameReader();
    child.stdin?.on('error', () => {});
    child.stdout?.on('data', (chunk: Buffer) => this.#onData(child, chunk));
    child.once('exit', () => this.#onLauncherExit(child));
    // The launcher must never keep the agent alive: it only matters while runs are in flight.
    child.unref();
    this.#refState();
    return child;
  }

  #fallbackBackend(): DirectBackend {
    if (this.#fallback === undefined) {
      this.#fallback = new DirectBackend();
      this.#opts.logger?.warn(
        `the ${this.kind} could not be started; hooks are started with child_process.spawn from now on`,
      );
    }
    return this.#fallback;
  }

  /** Holds the event loop open while runs are in flight (like a child process would), not otherwise. */
  #refState(): void {
    const child = this.#child;
    if (child === undefined) return;
    const busy = this.#runs.size > 0;
    for (const s of [child.stdout, child.stdin]) {
      if (s && 'ref' in s && typeof s.ref === 'function' && 'unref' in s && typeof s.unref === 'function') {
        if (busy) s.ref();
        else s.unref();
      }
    }
  }

  #onData(child: ChildProcess, chunk: Buffer): void {
    try {
      this.#reader.each(chunk, this.#onFrame);
    } catch {
      // A malformed stream: the launcher is unusable; its exit fails the runs in flight.
      child.kill('SIGKILL');
      return;
    }
    this.#refState();
  }

  /** One event, read in place (see launcher-frames.ts for the layout); throws on a malformed one. */
  #onFrame = (type: number, b: Buffer, start: number, end: number): void => {
    const size = end - start;
    if (size < 4 || size < (MIN_EVENT_BYTES.get(type) ?? Number.POSITIVE_INFINITY)) {
      throw new Error(`launcher stream: bad event ${type} of ${size} bytes`);
    }
    const id = b.readUInt32LE(start);
    const run = this.#runs.get(id);
    if (run === undefined) return; // detached, or already over
    switch (type) {
      case EVT_STARTED: {
        const pid = b.readInt32LE(start + 4);
        run.pid = pid;
        run.events.started(pid);
        return;
      }
      case EVT_FAILED: {
        this.#runs.delete(id);
        const errno = b.readInt32LE(start + 4);
        const n = b.readUInt32LE(start + 8);
        const stage = b.toString('utf8', start + 12, Math.min(end, start + 12 + n));
        if (stage === 'payload_file')
          run.events.failed(`cannot write payload file: ${ERRNO_NAMES.get(errno) ?? errno}`, 'payload_file');
        else run.events.failed(failureMessage(errno, stage, run));
        return;
      }
      case EVT_STDOUT:
        if (!run.outputStopped) run.events.stdout(b.subarray(start + 4, end));
        return;
      case EVT_STDERR:
        if (!run.outputStopped) run.events.stderr(b.subarray(start + 4, end));
        return;
      case EVT_EXIT: {
        const code = b.readInt32LE(start + 4);
        const signal = b.readInt32LE(start + 8);
        const leftAlive = size >= 16 ? b.readInt32LE(start + 12) !== 0 : true;
        run.exited = true;
        this.#forgetIfOver(id, run);
        run.events.exited(
          code < 0 ? null : code,
          signal === 0 ? null : (SIGNAL_NAMES.get(signal) ?? 'SIGKILL'),
          leftAlive,
        );
        return;
      }
      case EVT_EOF:
        run.eofs++;
        this.#forgetIfOver(id, run);
        if (run.eofs === 2) run.events.closed();
        return;
    }
  };

  /**
   * The launcher forgets a run once it exited and its output ended; so do we, before telling the
   * runner, whose detach() then has nothing to send.
   */
  #forgetIfOver(id: number, run: InFlight): void {
    if (run.exited && (run.eofs === 2 || run.outputStopped)) this.#runs.delete(id);
  }

  #onLauncherExit(child: ChildProcess): void {
    if (this.#child === child) this.#child = undefined;
    if (!this.#closed) this.#restarts.push(Date.now());
    const runs = [...this.#runs.values()];
    this.#runs.clear();
    for (const run of runs) {
      // What it started may still run, unwatched now: its group goes [X-PROC-2].
      if (run.pid !== undefined) killGroup(run.pid);
      run.events.failed('the launcher process died during the run', 'launcher_died');
    }
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** Reads like Node's own spawn errors (`spawn ./x ENOENT`), naming what failed. */
function failureMessage(errno: number, stage: string, run: { command: string; cwd: string }): string {
  const name = ERRNO_NAMES.get(errno) ?? `errno ${errno}`;
  switch (stage) {
    case 'exec':
      return `spawn ${run.command} ${name}`;
    case 'chdir':
      return `spawn ${run.command} ${name} (cwd ${run.cwd} is not a directory)`;
    default:
      return `spawn ${run.command}: ${stage} failed (${name})`;
  }
}
