import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { BIN, cleanEnv, REPO } from './cli-runner.ts';
import { waitFor } from './helpers.ts';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A long-running CLI process (`worker`, `serve`): its output so far, and ways to wait for and end it. */
export interface CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** Settles once the process exited and its output streams closed. */
  readonly exit: Promise<Exit>;
  /** Resolves once `pattern` appeared on stdout or stderr; rejects if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Sends `signal` (unless it already exited) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface CliProcessOptions {
  /** HOME of the child. */
  home?: string;
  /** Variables added to the cleaned parent environment. */
  env?: Record<string, string>;
  /** The child's whole environment instead (HOME still applies). */
  fullEnv?: NodeJS.ProcessEnv;
  /** Run under `prlimit --nofile=N:N` (which execs node: the pid stays the CLI's). */
  nofile?: number;
  /** Not killed after each test: one process shared by a describe block, which stops it in `afterAll`. */
  shared?: boolean;
}

const running = new Set<CliProcess>();

afterEach(async () => {
  // Whatever a test left running is killed and waited for: no process outlives its test.
  await Promise.all([...running].map((p) => p.stop('SIGKILL')));
});

/** `node bin/hookwerk.js …args` as a child process, tracked until it exits. */
export function startCli(args: string[], opts: CliProcessOptions = {}): CliProcess {
  const env = opts.fullEnv !== undefined ? { ...opts.fullEnv } : cleanEnv(opts.env);
  if (opts.home !== undefined) env.HOME = opts.home;
  const argv = [BIN, ...args];
  const label = `hookwerk ${args[0]}`;
  const shared = opts.shared === true;
  return opts.nofile === undefined
    ? startProgram(process.execPath, argv, { env, label, shared })
    : startProgram('prlimit', [`--nofile=${opts.nofile}:${opts.nofile}`, process.execPath, ...argv], {
        env,
        label,
        shared,
      });
}

/** Any long-running program (`bwrap … hookwerk daemon`), tracked like `startCli`'s. */
export function startProgram(
  command: string,
  argv: readonly string[],
  opts: {
    env: NodeJS.ProcessEnv;
    cwd?: string;
    label?: string;
    shared?: boolean;
    /** A pipe on the child's stdin (`child.stdin`) instead of none. */
    stdin?: 'pipe';
  },
): CliProcess {
  const { env } = opts;
  const label = opts.label ?? command;
  const where = { env, cwd: opts.cwd ?? REPO };
  const child =
    opts.stdin === 'pipe'
      ? spawn(command, argv, { ...where, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(command, argv, { ...where, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  let done = false;
  const exit = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      done = true;
      running.delete(proc);
      resolve({ code, signal });
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${label}`);
  const proc: CliProcess = {
    child,
    pid,
    exit,
    stdout: () => out,
    stderr: () => err,
    async waitForOutput(pattern, timeoutMs = 15_000) {
      await waitFor(
        () => {
          if (pattern.test(out) || pattern.test(err)) return true;
          if (done) throw new Error(`${label} exited before ${pattern}:\n${out}\n${err}`);
          return false;
        },
        `${pattern} from ${label} (stdout: ${out.slice(-500)} stderr: ${err.slice(-500)})`,
        timeoutMs,
      );
    },
    async stop(signal = 'SIGTERM') {
      if (!done) child.kill(signal);
      return (await exit).code;
    },
  };
  if (opts.shared !== true) running.add(proc);
  return proc;
}
