/**
 * How a hook process is started. The process runner decides when a run ends and what is killed;
 * a backend only starts the process and reports what happens to it. Two kinds:
 * - a launcher (runners/launcher-backend.ts, node-launcher.ts): a small separate process starts hooks, so the agent's own
 *   process never forks [X-PROC-1];
 * - `direct`: `child_process.spawn` from the agent's process, the fallback when no launcher can run.
 */
import { type StdioOptions, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeFile } from 'node:fs';
import { errorCode, errorMessage } from '../core/errno.ts';
import { makeRunCgroup } from './containment.ts';

export interface SpawnRequest {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  stdin?: string | Buffer;
  /**
   * `cgroup.procs` of the run's cgroup: the backend makes its folder right before the start
   * (`makeRunCgroup`; one that exists already is not used) and the process joins it (before exec
   * where the backend can). A launcher removes it after the exit (once the exit event is out) when
   * nothing of the run is left.
   */
  cgroupProcs?: string;
  /** [X-PROC-2] Its other processes may outlive it: the C launcher's orphan killing spares them. */
  keepChildren?: boolean;
  /** [P-PAY-2] Only to backends that `writesPayloadFiles`: written before the start, removed at exit. */
  payloadFile?: { path: string; text: string };
}

/** What a backend reports about one process; every run gets `started` or `failed` first. */
export interface SpawnEvents {
  started(pid: number): void;
  /** It could not be started; `message` reads like Node's (`spawn x ENOENT`). */
  failed(message: string, cause?: string): void;
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /**
   * `leftAlive`: whether some process of its group or of its cgroup is left, when the backend
   * looked (a launcher does, off the agent's event loop; the agent then skips both probes).
   */
  exited(code: number | null, signal: NodeJS.Signals | null, leftAlive?: boolean): void;
  /** Both output streams reached their end. */
  closed(): void;
}

export interface SpawnedProcess {
  /**
   * Signal its process group, for a caller that has no pid yet (a launcher may report it late);
   * nothing once it has exited.
   */
  signal(signal: 'SIGTERM' | 'SIGKILL'): void;
  /** Stop reading its output (over the cap): its exit is still reported. */
  stopOutput(): void;
  /** Stop reading its output (processes left behind may hold the pipes) and let go of it. */
  detach(): void;
}

export interface SpawnBackend {
  /** `posix_spawn launcher`, `node launcher` or `direct`. */
  readonly kind: string;
  /** The backend writes and removes payload files itself (off the agent's event loop). */
  readonly writesPayloadFiles: boolean;
  spawn(req: SpawnRequest, events: SpawnEvents): SpawnedProcess;
  /** Stops the launcher, if any (its remaining processes are killed). */
  close(): Promise<void>;
}

const NOTHING: SpawnedProcess = { signal() {}, stopOutput() {}, detach() {} };

/** O_CLOEXEC as `/proc/<pid>/fdinfo` shows it (the generic Linux value). */
const O_CLOEXEC = 0o2000000;

/**
 * [X-PROC-5] Descriptors above 2 that this process holds without close-on-exec (inherited by the
 * agent, or opened by native code; Node's own are close-on-exec): `child_process.spawn` would pass
 * them on, and Node cannot close them in the child.
 */
function inheritableDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) found.push(fd);
    } catch {
      // gone meanwhile (the directory's own descriptor)
    }
  }
  return found.sort((a, b) => a - b);
}

/** `child_process.spawn` in the agent's process: the fallback [X-PROC-1]. */
export class DirectBackend implements SpawnBackend {
  readonly kind = 'direct';
  readonly writesPayloadFiles = false;
  /** stdio for a run without and with stdin; built at the first run, see #stdio. */
  #stdio: [StdioOptions, StdioOptions] | undefined;
  #devNull: number | undefined;

  /**
   * [X-PROC-5] Each descriptor the agent holds without close-on-exec gets /dev/null in the child
   * instead (Node can dup onto a position, not close it). Looked for once, at the first run: one
   * opened later is passed on (docs/hook-processes.md).
   */
  #stdioFor(withStdin: boolean): StdioOptions {
    if (this.#stdio === undefined) {
      const leaked = inheritableDescriptors();
      const extra: Array<'ignore' | number> = [];
      if (leaked.length > 0) {
        this.#devNull = openSync('/dev/null', 'r');
        for (let fd = 3; fd <= (leaked.at(-1) ?? 2); fd++) extra.push('ignore');
        for (const fd of leaked) extra[fd - 3] = this.#devNull;
      }
      this.#stdio = [
        ['ignore', 'pipe', 'pipe', ...extra],
        ['pipe', 'pipe', 'pipe', ...extra],
      ];
    }
    return this.#stdio[withStdin ? 1 : 0];
  }

  spawn(req: SpawnRequest, events: SpawnEvents): SpawnedProcess {
    // [X-PROC-2] The run's cgroup, made now for this run alone; the runner removes it after.
    const procs =
      req.cgroupProcs !== undefined && makeRunCgroup(req.cgroupProcs) ? req.cgroupProcs : undefined;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(req.command, req.args, {
        cwd: req.cwd,
        env: req.env,
        detached: true,
        stdio: this.#stdioFor(req.stdin !== undefined),
      });
    } catch (err) {
      // Invalid arguments (e.g. a NUL byte) and some errno values throw synchronously.
      queueMicrotask(() => events.failed(errorMessage(err)));
      return NOTHING;
    }
    const destroy = () => {
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    if (child.pid === undefined) {
      // ENOENT, EACCES, a bad cwd…: Node reports these through one 'error' event on the next tick.
      child.once('error', (err) => events.failed(describeSpawnError(err, req.cwd)));
      destroy();
      return NOTHING;
    }
    const pid = child.pid;
    if (procs !== undefined) joinCgroup(procs, pid);
    events.started(pid);
    let open = 2;
    const eof = () => {
      if (--open === 0) events.closed();
    };
    child.stdout
      ?.on('data', (c: Buffer) => events.stdout(c))
      .on('end', eof)
      .on('error', ignore);
    child.stderr
      ?.on('data', (c: Buffer) => events.stderr(c))
      .on('end', eof)
      .on('error', ignore);
    child.on('error', ignore); // spawn failures are handled above; we never use child.kill()
    child.on('exit', (code, signal) => events.exited(code, signal));
    if (req.stdin !== undefined && child.stdin) {
      // A hook may exit without reading its input (EPIPE): not a failure of the run.
      child.stdin.on('error', ignore);
      child.stdin.end(req.stdin);
    }
    return {
      signal(signal) {
        // Reported as started at once, so the runner knows the pid; for completeness.
        if (child.exitCode === null && child.signalCode === null) {
          try {
            process.kill(-pid, signal);
          } catch {
            // gone
          }
        }
      },
      stopOutput() {
        child.stdout?.destroy();
        child.stderr?.destroy();
      },
      detach: destroy,
    };
  }

  async close(): Promise<void> {
    if (this.#devNull !== undefined) closeSync(this.#devNull);
    this.#devNull = undefined;
    this.#stdio = undefined;
  }
}

/**
 * After the fact (the process is already running): a small window for it to fork first. In the
 * thread pool: on cgroup v2 this write waits ~250 µs for the kernel's cgroup lock, which would be
 * the agent's event loop's time (a direct run would cost 1.2× a raw spawn instead of ~1.0×).
 */
function joinCgroup(procs: string, pid: number): void {
  writeFile(procs, String(pid), () => {
    // An error: gone already, or the cgroup went away; the process group still contains it.
  });
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
