/** SIGKILL this long after SIGTERM, unless the spec says otherwise [P-SEC-5]. */
export const DEFAULT_KILL_GRACE_MS = 5000;

/** Why a process run ended. Always set: a result never leaves this open. `aborted`: the caller's signal. */
export type ProcessEndReason = 'exit' | 'signal' | 'timeout' | 'spawn_error' | 'output_limit' | 'aborted';

export interface ProcessSpec {
  /** Executable: absolute path, or a name looked up in `env.PATH` (never through a shell). */
  command: string;
  args: readonly string[];
  /** The complete environment of the child; nothing of the parent's is added. */
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** Written to stdin, then stdin is closed. Without it stdin is /dev/null (immediate EOF). */
  stdin?: string | Buffer;
  /**
   * A file written (mode 0600, never over an existing one) before the spawn and removed once the
   * run has ended, however it ended [P-PAY-2]. A failed write is a `spawn_error` (cause `payload_file`).
   */
  payloadFile?: { path: string; text: string };
  timeoutMs: number;
  /** Grace period between SIGTERM and SIGKILL to the group. Default 5000. */
  killGraceMs?: number;
  /** Cap per stream (stdout, stderr). Default 1 MiB. Reaching it ends the run: reason `output_limit`. */
  maxOutputBytes?: number;
  /**
   * [X-PROC-2] Leave the processes the hook starts running: they are neither killed nor waited
   * for (nor read) once the main process has exited. Default: they are killed.
   */
  keepChildren?: boolean;
}

export interface ProcessResult {
  kind: 'process';
  reason: ProcessEndReason;
  /** Exit code of the leader, when it exited by itself. */
  exitCode: number | null;
  /** Signal that ended the leader, if any (also set for `timeout` / `output_limit` kills). */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to the end of the run, in ms (fractional). */
  durationMs: number;
  pid?: number;
  /** For `spawn_error`: the system's message (e.g. `spawn ./x ENOENT`). */
  error?: string;
  /** For `spawn_error` before the spawn itself: what could not be prepared (`payload_file`). */
  cause?: string;
}
