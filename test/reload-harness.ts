// The hot-reload tests' workspace, engine and probes (engines and temp folders are cleaned up after each test).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { openEngine } from './engine-harness.ts';
import { captureLogger, tempDir, writeHooks, writeScript } from './helpers.ts';

// [P-CFG-3] SPEC: a change takes effect within 1 s; tests wait up to 3 s (generous on a loaded machine).
export const RELOAD_MS = 3000;
const TOOL_CALL = { tool: 'shell', success: true, output: 'ok' } as const;
export const MARK_SCRIPT = 'printf "%s\\n" "$1" >> marks.txt';

export interface Harness {
  dir: string;
  file: string;
  engine: HookEngine;
  lines: string[];
  /** Marks written by hooks, in the order they ran. */
  marks(): string[];
  /** A hooks.json action that appends `name` to the marks file. */
  mark(name: string): { id: string; command: string; args: string[] };
}

/**
 * A workspace (`dir`, a fresh temp folder unless given) with a `mark.sh` hook script, and an
 * engine watching it with a capturing logger. `hooks` undefined: hooks.json is left as it is.
 */
export async function start(
  hooks: unknown | undefined,
  opts: Omit<HookEngineOptions, 'workspace' | 'logger'> = {},
  dir = tempDir('hw-reload-'),
): Promise<Harness> {
  writeScript(dir, 'mark.sh', MARK_SCRIPT);
  const file = path.join(dir, 'hooks.json');
  if (hooks !== undefined) writeHooks(dir, hooks);
  const lines: string[] = [];
  const engine = await openEngine({ workspace: dir, watch: true, logger: captureLogger(lines), ...opts });
  const marksFile = path.join(dir, 'marks.txt');
  return {
    dir,
    file,
    engine,
    lines,
    marks: () => (existsSync(marksFile) ? readFileSync(marksFile, 'utf8').split('\n').filter(Boolean) : []),
    mark: (name) => ({ id: name, command: './mark.sh', args: [name] }),
  };
}

/** What editors and our own API do: write a sibling temp file, then rename it over `file`. */
export function atomicWriteFile(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** An atomic write of `<dir>/hooks.json` with `{hooks}` (object) or raw text. */
export function atomicWrite(dir: string, hooks: unknown): void {
  atomicWriteFile(path.join(dir, 'hooks.json'), hooksText(hooks));
}

export function hooksText(hooks: unknown): string {
  return typeof hooks === 'string' ? hooks : JSON.stringify({ hooks }, null, 2);
}

export async function emitToolCall(engine: HookEngine): Promise<void> {
  engine.emit('tool_call', TOOL_CALL);
  await engine.drain();
}

export const hookNames = (engine: HookEngine) => engine.actions().map((a) => a.name);

export async function counter(engine: HookEngine, which: 'reloads' | 'reloadErrors'): Promise<number> {
  const name = which === 'reloads' ? 'config_reloads_total' : 'config_reload_errors_total';
  const metric = engine.metrics.registry.getSingleMetric(name);
  return (await metric?.get())?.values[0]?.value ?? 0;
}
