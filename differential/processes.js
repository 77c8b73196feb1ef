// Running a tool or `hookwerk decide` bounded in time, and leaving nothing behind. Each run gets a
// tag in its environment (HWDIFF_RUN); after it ends (or times out) every process that still
// carries that tag is killed by its pid: the run's own process group does not hold everything,
// because the tools start hooks and shells in groups and sessions of their own.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The runs still going, so an interrupted harness can end them (they are detached from it). */
const live = new Map();

/** Kills every run still going; for SIGINT/SIGTERM of the harness. */
export function killAllRuns() {
  for (const [tag, pid] of live) killTagged(tag, pid);
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd: string, env: Record<string, string>, input?: string, timeoutMs: number}} opts
 * @returns {Promise<{code: number|null, signal: string|null, stdout: string, stderr: string, timedOut: boolean, ms: number, spawnError?: string}>}
 */
export function runProcess(command, args, opts) {
  const tag = randomUUID();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...opts.env, HWDIFF_RUN: tag },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    live.set(tag, child.pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let spawnError;
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      killTagged(tag, child.pid);
    }, opts.timeoutMs);
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killTagged(tag, child.pid);
      live.delete(tag);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started, spawnError });
    });
  });
}

/** SIGKILL the run's process group and every process whose environment carries the run's tag. */
function killTagged(tag, pid) {
  if (pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  const needle = `HWDIFF_RUN=${tag}\0`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let environ;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!environ.includes(needle)) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
    } catch {
      // it exited meanwhile
    }
  }
}
