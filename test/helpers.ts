import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Logger } from '../src/records/logger.ts';

const created: string[] = [];

/** A fresh temp folder, removed after the test. */
export function tempDir(prefix = 'hw-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `<dir>/hooks.json` with `{hooks}` (object) or raw text. */
export function writeHooks(dir: string, hooks: unknown): string {
  const file = path.join(dir, 'hooks.json');
  writeFileSync(file, typeof hooks === 'string' ? hooks : JSON.stringify({ hooks }, null, 2));
  return file;
}

/** Writes an executable script (a `#!/bin/sh` header is added when missing). */
export function writeScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body.startsWith('#!') ? body : `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A logger that appends `info: …`, `warn: …` and `error: …` lines to `lines`. */
export function captureLogger(lines: string[]): Logger {
  return {
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
  };
}

/** True while `pid` exists and is not a zombie (a killed child its parent has not reaped yet is dead). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * A temp HOME whose user-level Lurus source denies Bash with `reason` (a trusted source: no
 * consent needed) — what a gate worker runs in the NATS tests.
 */
export function denyingGateHome(reason: string): string {
  const home = tempDir('hw-nats-home-');
  mkdirSync(path.join(home, '.lurus'), { recursive: true });
  const deny = writeScript(home, 'deny.sh', `printf '%s\\n' '{"decision":"deny","reason":"${reason}"}'`);
  writeFileSync(
    path.join(home, '.lurus', 'hooks.json'),
    JSON.stringify({ PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: deny }] }] }),
  );
  return home;
}
