import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and the CLI as a user runs it (`node bin/hookwerk.js`, from dist/). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(REPO, 'bin', 'hookwerk.js');
/** A stack trace line: user-facing errors must never show one. */
export const STACK = /\n\s+at /;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** HOME of the child (a temp folder in gate tests: never the real ~). */
  home?: string;
  /** Extra variables, applied after the clean-up. */
  env?: Record<string, string>;
  /** `ignore` (default) or text written to a piped stdin, then EOF. */
  stdin?: 'ignore' | { text: string };
}

/**
 * The parent's environment without hookwerk's own variables, so tests never leak into each other.
 * `HOOKWERK_DAEMON=off` [G-WARM-1]: a `hookwerk hook` a test runs starts no daemon in its temp
 * home (none would outlive the test); the warm-path tests turn it on for themselves.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('ZERO_HOOK_')) delete env[key];
  delete env.HOOKWERK_DEBUG;
  delete env.HOOKWERK_TOKEN;
  delete env.LURUS_HOOK_PASS_ENV;
  delete env.HOOKWERK_DAEMON_IDLE;
  env.HOOKWERK_DAEMON = 'off';
  // [G-PERF-1] A C-client fallback would build a startup snapshot in the background for every temp
  // home: only the tests of that path (hook-snapshot.test.ts) turn it on.
  env.HOOKWERK_SNAPSHOT = 'off';
  return Object.assign(env, extra);
}

/** Runs the CLI to completion and collects its output. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const env = cleanEnv(opts.env);
  if (opts.home !== undefined) env.HOME = opts.home;
  return runProgram(process.execPath, [BIN, ...args], {
    env,
    cwd: opts.cwd ?? REPO,
    stdin: opts.stdin ?? 'ignore',
  });
}

/** Runs any program to completion with exactly `env`, and collects its output. */
export function runProgram(
  command: string,
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; stdin?: 'ignore' | { text: string } },
): Promise<CliResult> {
  const stdin = opts.stdin ?? 'ignore';
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: opts.env,
      cwd: opts.cwd,
      stdio: [stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    if (stdin !== 'ignore') child.stdin?.end(stdin.text);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
