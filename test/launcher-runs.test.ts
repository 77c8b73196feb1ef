/**
 * The process runner over each launcher [X-PROC-1], where the launcher may report a run's pid late
 * (it holds STARTED, output and EOF of a run that has a cgroup until its EXIT, so that a short hook
 * costs the agent one wake-up): timeouts and aborts that come before the pid still kill the whole
 * run [P-SEC-5], and a request the launcher cannot read fails that run only.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LauncherBackend, selectBackend } from '../src/runners/launcher-backend.ts';
import { ProcessRunner } from '../src/runners/process-runner.ts';
import type { ProcessSpec } from '../src/runners/process-types.ts';
import { processAlive, tempDir, waitFor } from './helpers.ts';
import { backendOf } from './launcher-choice.ts';

const KINDS = ['native', 'node', 'direct'] as const;
const runners = new Map<string, ProcessRunner>();
function runnerFor(kind: (typeof KINDS)[number]): ProcessRunner {
  let runner = runners.get(kind);
  if (runner === undefined) {
    runner = new ProcessRunner({ backend: selectBackend(kind) });
    runners.set(kind, runner);
  }
  return runner;
}
afterAll(async () => {
  for (const runner of runners.values()) {
    await runner.terminateAll();
    await runner.close();
  }
});

/** A short run of `command args` in `/`. */
function quick(command: string, args: string[]): ProcessSpec {
  return { command, args, env: { PATH: '/usr/bin:/bin' }, cwd: '/', timeoutMs: 10_000 };
}

/** A hook that records its pid and that of a background child, then waits for a minute. */
function sleeper(dir: string, extra: Partial<ProcessSpec> = {}): ProcessSpec {
  return {
    command: '/bin/sh',
    args: ['-c', 'sleep 60 & echo $! > child.pid; echo $$ > main.pid; wait'],
    env: { PATH: '/usr/bin:/bin' },
    cwd: dir,
    timeoutMs: 60_000,
    // No SIGKILL to fall back on within a test's time: the run ends only if SIGTERM reached it.
    killGraceMs: 60_000,
    ...extra,
  };
}

/** The pids the hook wrote (it may have been killed before writing them). */
function pidsOf(dir: string): number[] {
  return ['main.pid', 'child.pid']
    .map((f) => path.join(dir, f))
    .filter((f) => existsSync(f))
    .map((f) => Number(readFileSync(f, 'utf8')))
    .filter((n) => Number.isInteger(n) && n > 0);
}

describe.each(KINDS)('[X-PROC-1] runs through the %s launcher', (kind) => {
  it('the launcher is the one asked for', () => {
    // HOOKWERK_LAUNCHER overrides what the engine asks for.
    const backend = runnerFor(kind).backend;
    if (backendOf(kind) === 'direct') expect(backend.kind).toBe('direct');
    else expect(backend).toBeInstanceOf(LauncherBackend);
  });

  it('[P-SEC-5] a timeout that fires before the pid is known still ends the run and kills all of it', async () => {
    const dir = tempDir('hw-late-pid-');
    const result = await runnerFor(kind).run(sleeper(dir, { timeoutMs: 1 }));
    expect(result.reason).toBe('timeout');
    for (const pid of pidsOf(dir)) await waitFor(() => !processAlive(pid), `process ${pid} to be gone`);
  });

  it('[P-SEC-5, AD-ALL-1] an abort right after the request (same turn) ends the run (reason aborted) and kills all of it', async () => {
    const dir = tempDir('hw-late-pid-');
    const abort = new AbortController();
    const done = runnerFor(kind).run(sleeper(dir), { signal: abort.signal });
    abort.abort();
    const result = await done;
    expect(result.reason).toBe('aborted');
    for (const pid of pidsOf(dir)) await waitFor(() => !processAlive(pid), `process ${pid} to be gone`);
  });

  it('terminateAll after the hook wrote its pids kills the hook and its background child', async () => {
    const dir = tempDir('hw-late-pid-');
    const runner = runnerFor(kind);
    const done = runner.run(sleeper(dir, { timeoutMs: 60_000 }));
    await waitFor(() => pidsOf(dir).length === 2, 'the hook to write its pids');
    await runner.terminateAll();
    const result = await done;
    expect(result.reason).toBe('timeout');
    expect(result.pid).toBe(pidsOf(dir)[0]);
    for (const pid of pidsOf(dir)) await waitFor(() => !processAlive(pid), `process ${pid} to be gone`);
  });

  it('[P-SEC-3] an argument with a NUL byte fails that run (spawn_error), and the next run works', async () => {
    const runner = runnerFor(kind);
    const bad = await runner.run(quick('/bin/echo', ['a\0b']));
    expect(bad.reason).toBe('spawn_error');
    const good = await runner.run(quick('/bin/echo', ['fine']));
    expect(good).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'fine\n' });
  });

  it('output, exit code and pid arrive together for a short hook', async () => {
    const result = await runnerFor(kind).run(
      quick('/bin/sh', ['-c', 'echo out; echo err >&2; echo $$; exit 4']),
    );
    expect(result).toMatchObject({ reason: 'exit', exitCode: 4, stderr: 'err\n' });
    expect(result.stdout.split('\n')[0]).toBe('out');
    expect(Number(result.stdout.split('\n')[1])).toBe(result.pid);
  });
});
