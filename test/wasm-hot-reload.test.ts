/**
 * Adding, changing and removing a plugin folder takes effect without a restart [P-WASM-1]:
 * a real fs watcher, real components, real workers.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookEngine } from '../src/engine-api.ts';
import { openEngine } from './engine-harness.ts';
import { fixtureWasm, installFixture, manifest } from './fixtures/plugins/fixtures.ts';
import { captureLogger, tempDir, waitFor } from './helpers.ts';

const TOOL_CALL = { tool: 'bash', success: true, output: 'ok' } as const;
const AGENT_END = { success: true, messages_count: 3 } as const;
const RELOAD_MS = 5000;

function watching(ws: string, lines: string[] = []): Promise<HookEngine> {
  return openEngine({ workspace: ws, watch: true, logger: captureLogger(lines) });
}

/** Emits `event` (and drains) until the records of that one emit satisfy `pred`; returns them as `hook:outcome`. */
async function emitUntil(
  engine: HookEngine,
  event: 'tool_call' | 'agent_end',
  pred: (hooks: string[]) => boolean,
): Promise<string[]> {
  const found = await waitFor(
    async () => {
      const before = engine.runs().length;
      engine.emit(event, event === 'tool_call' ? TOOL_CALL : AGENT_END);
      await engine.drain();
      const fresh = engine
        .runs()
        .slice(0, engine.runs().length - before)
        .map((r) => `${r.hook}:${r.outcome}`)
        .sort();
      return pred(fresh) ? fresh : undefined;
    },
    `records for ${event}`,
    RELOAD_MS,
  );
  return found ?? [];
}

describe('[P-WASM-1] hot reload of plugins', () => {
  it('[P-WASM-1] a plugin added to a workspace without a plugins folder is picked up', async () => {
    const ws = tempDir();
    const lines: string[] = [];
    const engine = await watching(ws, lines);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    await installFixture(ws, 'ok'); // creates plugins/ and plugins/ok in one go
    expect(await emitUntil(engine, 'tool_call', (h) => h.length > 0)).toEqual(['ok:ok']);
    expect(lines.some((l) => /plugin ok 0\.1\.0 loaded/.test(l))).toBe(true);
  });

  it('[P-WASM-1] adding a second plugin, changing a manifest, swapping a component and removing a folder', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    const engine = await watching(ws);
    expect(await emitUntil(engine, 'tool_call', (h) => h.length > 0)).toEqual(['ok:ok']);

    // Add: a new folder under plugins/.
    await installFixture(ws, 'err');
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 2)).toEqual(['err:error', 'ok:ok']);

    // Change the manifest: ok now listens to agent_end only.
    const okToml = path.join(ws, 'plugins', 'ok', 'plugin.toml');
    writeFileSync(`${okToml}.tmp`, manifest('ok', ['agent_end']));
    renameSync(`${okToml}.tmp`, okToml);
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 1)).toEqual(['err:error']);
    expect(await emitUntil(engine, 'agent_end', (h) => h.length === 1)).toEqual(['ok:ok']);

    // Change the component in place: err's plugin.wasm becomes the ok component.
    writeFileSync(path.join(ws, 'plugins', 'err', 'plugin.wasm'), await fixtureWasm('ok'));
    expect(await emitUntil(engine, 'tool_call', (h) => h.includes('err:ok'))).toEqual(['err:ok']);

    // Remove a folder.
    rmSync(path.join(ws, 'plugins', 'err'), { recursive: true, force: true });
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 0)).toEqual([]);
    expect(await emitUntil(engine, 'agent_end', (h) => h.length === 1)).toEqual(['ok:ok']);
  });

  it('[P-WASM-1] a plugin broken by an edit is reported and skipped; fixing it brings it back; others keep running', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    await installFixture(ws, 'err');
    const lines: string[] = [];
    const engine = await watching(ws, lines);
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 2)).toEqual(['err:error', 'ok:ok']);
    const errToml = path.join(ws, 'plugins', 'err', 'plugin.toml');
    writeFileSync(errToml, manifest('err', ['tool_call'], '\n[resources]\ntimeout_ms = -1\n'));
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 1)).toEqual(['ok:ok']);
    await waitFor(
      () => lines.find((l) => l.includes(`${errToml}: $.resources.timeout_ms`)),
      'the issue in the log',
    );
    writeFileSync(errToml, manifest('err', ['tool_call']));
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 2)).toEqual(['err:error', 'ok:ok']);
  });

  it('[P-WASM-1] removing the whole plugins folder removes every plugin', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    const engine = await watching(ws);
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 1)).toEqual(['ok:ok']);
    rmSync(path.join(ws, 'plugins'), { recursive: true, force: true });
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 0)).toEqual([]);
    await installFixture(ws, 'err');
    expect(await emitUntil(engine, 'tool_call', (h) => h.length === 1)).toEqual(['err:error']);
  });
});
