import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessRunner } from '../src/runners/process-runner.ts';

const runner = new ProcessRunner();
const runProcess: ProcessRunner['run'] = (spec, opts) => runner.run(spec, opts);
afterAll(() => runner.close());

import type { ProcessSpec } from '../src/runners/process-types.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const IGNORE_TERM = path.join(FIXTURES, 'ignore-term.sh');
const ENV = { PATH: '/usr/bin:/bin' };

let tmp: string;
/** Process groups a test leaves behind on purpose; killed after it. */
const leftovers: number[] = [];

beforeEach(() => {
  tmp = mkdtempSync(os.tmpdir() + '/hw-');
});

afterEach(() => {
  for (const pgid of leftovers.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

function spec(command: string, args: string[], extra: Partial<ProcessSpec> = {}): ProcessSpec {
  return { command, args, env: ENV, cwd: tmp, timeoutMs: 10_000, ...extra };
}

/** `state` and `pgrp` from /proc/<pid>/stat; undefined when the process does not exist. */
function procStat(pid: number | string): { state: string; pgrp: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, pgrp: Number(fields[2]) };
}

/** Alive = exists and is not a zombie (an unreaped orphan in a container counts as gone). */
function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

function liveGroupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      const stat = procStat(name);
      return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X';
    })
    .map(Number);
}

function readPids(file: string): number[] {
  return readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
}

describe('runProcess: exit, output, stdin, env', () => {
  it('[L-RUN-2] exit 0 with stdout and stderr captured', async () => {
    const result = await runProcess(spec('/bin/sh', ['-c', 'echo out; echo err >&2']));
    expect(result).toMatchObject({
      reason: 'exit',
      exitCode: 0,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
    });
    expect(result.pid).toBeGreaterThan(0);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('[L-RUN-2] exit 3 is reason exit with exitCode 3', async () => {
    const result = await runProcess(spec('/bin/sh', ['-c', 'exit 3']));
    expect(result).toMatchObject({ reason: 'exit', exitCode: 3, signal: null });
  });

  it('[L-RUN-2] stdin is written and closed', async () => {
    const echoed = await runProcess(spec('/bin/cat', [], { stdin: '{"event":"x"}\nsecond line' }));
    expect(echoed).toMatchObject({ reason: 'exit', exitCode: 0, stdout: '{"event":"x"}\nsecond line' });

    const firstLine = await runProcess(
      spec('/bin/sh', ['-c', 'read -r x; echo "$x"'], { stdin: Buffer.from('one line\nrest\n') }),
    );
    expect(firstLine).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'one line\n' });
  });

  it('[L-RUN-2] a hook that exits without reading a large stdin is a normal exit', async () => {
    const result = await runProcess(
      spec('/bin/sh', ['-c', 'exit 0'], { stdin: Buffer.alloc(4 * 1024 * 1024) }),
    );
    expect(result).toMatchObject({ reason: 'exit', exitCode: 0 });
  });

  it('[L-RUN-2] without stdin the hook reads EOF at once', async () => {
    const result = await runProcess(spec('/bin/cat', []));
    expect(result).toMatchObject({ reason: 'exit', exitCode: 0, stdout: '' });
  });

  it('[L-RUN-3] the environment is exactly the one given', async () => {
    process.env['HW_PARENT_ONLY'] = 'leak';
    try {
      const env = { PATH: '/usr/bin:/bin', HOOK_A: 'a b', HOOK_B: 'x=y' };
      const result = await runProcess({ ...spec('/usr/bin/env', []), env });
      expect(result.reason).toBe('exit');
      const lines = result.stdout.trim().split('\n').sort();
      expect(lines).toEqual(['HOOK_A=a b', 'HOOK_B=x=y', 'PATH=/usr/bin:/bin']);
      expect(result.stdout).not.toContain('HW_PARENT_ONLY');
    } finally {
      delete process.env['HW_PARENT_ONLY'];
    }
  });

  it('[L-RUN-3] a bare command name is looked up in the given PATH', async () => {
    const result = await runProcess(spec('echo', ['found']));
    expect(result).toMatchObject({ reason: 'exit', stdout: 'found\n' });
  });
});

describe('runProcess: failures and signals', () => {
  it('[P-SEC-5] a missing command is spawn_error, resolved, not thrown', async () => {
    const result = await runProcess(spec('hw-no-such-command', []));
    expect(result.reason).toBe('spawn_error');
    expect(result.error).toContain('ENOENT');
    expect(result.pid).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('[P-SEC-5] a missing cwd is spawn_error naming the cwd', async () => {
    const cwd = path.join(tmp, 'missing');
    const result = await runProcess({ ...spec('/bin/cat', []), cwd });
    expect(result.reason).toBe('spawn_error');
    expect(result.error).toContain(cwd);
  });

  it('[P-SEC-5] a command that is not executable is spawn_error', async () => {
    const notExecutable = path.join(tmp, 'hook.sh');
    writeFileSync(notExecutable, '#!/bin/sh\necho never\n', { mode: 0o644 });
    const result = await runProcess(spec(notExecutable, []));
    expect(result.reason).toBe('spawn_error');
    expect(result.error).toContain('EACCES');
  });

  it('[P-SEC-5] a leader killed by a signal we did not send is reason signal', async () => {
    const result = await runProcess(spec('/bin/sh', ['-c', 'kill -KILL $$']));
    expect(result).toMatchObject({ reason: 'signal', signal: 'SIGKILL', exitCode: null });
  });
});

describe('runProcess: timeout and process groups', () => {
  it('[P-SEC-5] a hook ignoring SIGTERM and its grandchild are both gone after timeout + grace', async () => {
    const pidFile = path.join(tmp, 'pids');
    const result = await runProcess(spec(IGNORE_TERM, [pidFile], { timeoutMs: 300, killGraceMs: 1000 }));
    expect(result.reason).toBe('timeout');
    expect(result.signal).toBe('SIGKILL');
    const [hookPid, grandchildPid] = readPids(pidFile);
    expect(hookPid).toBe(result.pid);
    expect(isAlive(hookPid!)).toBe(false);
    expect(isAlive(grandchildPid!)).toBe(false);
    expect(liveGroupMembers(result.pid!)).toEqual([]);
    // The grace is the contract: SIGKILL comes no earlier than killGraceMs after SIGTERM.
    expect(result.durationMs).toBeGreaterThanOrEqual(1000);
    expect(result.durationMs).toBeLessThan(300 + 1000 + 2000);
  });

  it('[P-SEC-5] the default grace between SIGTERM and SIGKILL is 5 s', async () => {
    const pidFile = path.join(tmp, 'pids');
    const result = await runProcess(spec(IGNORE_TERM, [pidFile], { timeoutMs: 200 }));
    expect(result.reason).toBe('timeout');
    expect(result.durationMs).toBeGreaterThanOrEqual(5000);
    expect(result.durationMs).toBeLessThan(200 + 5000 + 2000);
    for (const pid of readPids(pidFile)) expect(isAlive(pid)).toBe(false);
  });

  it('[P-SEC-5] a grandchild ignoring SIGTERM keeps the run going after the leader died, then is SIGKILLed', async () => {
    // The grandchild's name contains ") Z 1 (": a naive split of /proc/<pid>/stat would read it as a
    // zombie and end the run while it still lives.
    const oddName = path.join(tmp, 'x) Z 1 (y');
    copyFileSync('/bin/sleep', oddName);
    const pidFile = path.join(tmp, 'pid');
    const script = 'trap "" TERM; "$1" 60 & echo $! > "$2"; trap - TERM; wait';
    const result = await runProcess(
      spec('/bin/sh', ['-c', script, 'sh', oddName, pidFile], { timeoutMs: 300, killGraceMs: 1000 }),
    );
    expect(result).toMatchObject({ reason: 'timeout', signal: 'SIGTERM' });
    const [grandchildPid] = readPids(pidFile);
    expect(isAlive(grandchildPid!)).toBe(false);
    expect(liveGroupMembers(result.pid!)).toEqual([]);
    expect(result.durationMs).toBeGreaterThanOrEqual(1000);
    expect(result.durationMs).toBeLessThan(300 + 1000 + 2000);
  });

  it('[P-SEC-5] a hook that exits on SIGTERM ends well before the grace', async () => {
    const result = await runProcess(spec('sleep', ['60'], { timeoutMs: 300, killGraceMs: 20_000 }));
    expect(result).toMatchObject({ reason: 'timeout', signal: 'SIGTERM' });
    expect(result.durationMs).toBeLessThan(300 + 5000);
    expect(liveGroupMembers(result.pid!)).toEqual([]);
  });

  it('[P-SEC-5] [X-PROC-2] a background process left by a normally-exiting hook does not hold the run: it is killed', async () => {
    const result = await runProcess(spec('/bin/sh', ['-c', 'sleep 5 & echo hi']));
    leftovers.push(result.pid!);
    expect(result).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'hi\n' });
    expect(result.durationMs).toBeLessThan(5000);
    // The run ends once the main process exited and what it started is gone.
    expect(liveGroupMembers(result.pid!)).toEqual([]);
    expect(runner.running).toBe(0);
  });

  it('[X-PROC-2] keepChildren: the background process is neither killed nor waited for', async () => {
    const result = await runProcess({ ...spec('/bin/sh', ['-c', 'sleep 5 & echo hi']), keepChildren: true });
    leftovers.push(result.pid!);
    expect(result).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'hi\n' });
    expect(result.durationMs).toBeLessThan(5000);
    expect(liveGroupMembers(result.pid!).length).toBe(1);
    expect(runner.running).toBe(0);
  });

  it('[P-SEC-5, AD-ALL-1] an AbortSignal ends the run like a timeout, reason aborted', async () => {
    const controller = new AbortController();
    const running = runProcess(spec('sleep', ['60']), { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const result = await running;
    expect(result).toMatchObject({ reason: 'aborted', signal: 'SIGTERM' });
    expect(liveGroupMembers(result.pid!)).toEqual([]);
  });

  it('[P-SEC-5] an already aborted signal does not start the hook', async () => {
    const result = await runProcess(spec('sleep', ['60']), { signal: AbortSignal.abort() });
    expect(result.reason).toBe('aborted');
    expect(result.pid).toBeUndefined();
  });

  it('[P-SEC-5] terminateAll terminates every live group', async () => {
    const running = [
      runProcess(spec('sleep', ['60'])),
      runProcess(spec('/bin/sh', ['-c', 'sleep 60; true'])),
    ];
    expect(runner.running).toBe(2);
    await runner.terminateAll();
    expect(runner.running).toBe(0);
    for (const result of await Promise.all(running)) {
      expect(result.reason).toBe('timeout');
      expect(liveGroupMembers(result.pid!)).toEqual([]);
    }
  });
});

describe('runProcess: output limit', () => {
  it('[L-RUN-4] output beyond maxOutputBytes ends the run: output_limit, exactly the cap kept', async () => {
    const result = await runProcess(spec('head', ['-c', '3000000', '/dev/zero'], { maxOutputBytes: 1024 }));
    expect(result.reason).toBe('output_limit');
    expect(result.stdout.length).toBe(1024);
    expect(liveGroupMembers(result.pid!)).toEqual([]);
  });

  it('[L-RUN-4] an endless writer on stderr is stopped at the cap', async () => {
    const result = await runProcess(spec('/bin/sh', ['-c', 'yes >&2'], { maxOutputBytes: 1024 }));
    expect(result.reason).toBe('output_limit');
    expect(result.stderr).toBe('y\n'.repeat(512));
    expect(liveGroupMembers(result.pid!)).toEqual([]);
  });

  it('[L-RUN-4] output of exactly maxOutputBytes is not truncated', async () => {
    const result = await runProcess(spec('head', ['-c', '1024', '/dev/zero'], { maxOutputBytes: 1024 }));
    expect(result).toMatchObject({ reason: 'exit', exitCode: 0 });
    expect(result.stdout.length).toBe(1024);
  });

  it('[L-RUN-4] the default cap is 1 MiB per stream', async () => {
    const result = await runProcess(spec('head', ['-c', '3000000', '/dev/zero']));
    expect(result.reason).toBe('output_limit');
    expect(result.stdout.length).toBe(1_048_576);
  });
});
