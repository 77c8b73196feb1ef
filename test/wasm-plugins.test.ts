/**
 * WASM plugin hooks end to end through the engine [P-WASM-1..3, P-FF-1]: real components (built
 * from WAT at test time), real worker threads, records read from `engine.runs()`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { makeEngine, openEngine } from './engine-harness.ts';
import { installFixture, manifest } from './fixtures/plugins/fixtures.ts';
import { captureLogger, tempDir, waitFor } from './helpers.ts';

const TOOL_CALL = { tool: 'bash', success: true, output: 'ok' } as const;
const AGENT_END = { success: true, messages_count: 3 } as const;
const ERROR = { component: 'llm', message: 'rate limited' } as const;

function engineFor(workspace: string, lines: string[] = []): Promise<HookEngine> {
  return makeEngine(workspace, { logger: captureLogger(lines) });
}

function byHook(records: RunRecord[]): Record<string, RunRecord> {
  return Object.fromEntries(records.map((r) => [r.hook, r]));
}

describe('[P-WASM-1] outcomes become run records', () => {
  it('[P-WASM-1] ok, Err(msg) and a trap: one record each, named after the plugin, sourced from its manifest', async () => {
    const ws = tempDir();
    const okDir = await installFixture(ws, 'ok');
    await installFixture(ws, 'err');
    await installFixture(ws, 'trap');
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const runs = byHook(engine.runs({ event: 'tool_call' }));
    expect(Object.keys(runs).sort()).toEqual(['err', 'ok', 'trap']);
    expect(runs.ok).toMatchObject({
      outcome: 'ok',
      event: 'tool_call',
      source: path.join(okDir, 'plugin.toml'),
    });
    expect(runs.err).toMatchObject({ outcome: 'error', cause: 'plugin_error', reason: 'rejected tool_call' });
    expect(runs.trap).toMatchObject({ outcome: 'error', cause: 'trap' });
    expect(runs.trap!.reason).toMatch(/unreachable/);
    expect(runs.ok!.sessionId).toMatch(/^sess_/);
    expect(runs.ok!.depth).toBe(1);
  });

  it('[P-WASM-1] the guest gets the same envelope JSON as shell hooks, and a trapped plugin runs again', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    await installFixture(ws, 'trap');
    const engine = await engineFor(ws);
    for (let i = 0; i < 3; i++) {
      engine.emit('tool_call', TOOL_CALL);
      await engine.drain();
    }
    const runs = engine.runs({ event: 'tool_call' });
    // The ok fixture returns err unless payload-json is a JSON object: all three are ok.
    expect(runs.filter((r) => r.hook === 'ok').map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
    // A trapped instance is never entered again; a fresh one serves the next event, which traps again.
    expect(runs.filter((r) => r.hook === 'trap').map((r) => r.cause)).toEqual(['trap', 'trap', 'trap']);
  });

  it('[P-WASM-3] records are counted in the metrics by outcome', async () => {
    const ws = tempDir();
    await installFixture(ws, 'err');
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const text = await engine.metrics.registry.metrics();
    expect(text).toMatch(/outcome="error"/);
  });
});

describe('[P-WASM-2] matching: exact names, prx.lifecycle.* topic patterns and *', () => {
  it('[P-WASM-2] each pattern kind selects the right events; the union of capabilities decides', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok', { as: 'exact', toml: manifest('exact', ['tool_call']) });
    await installFixture(ws, 'ok', { as: 'topic', toml: manifest('topic', ['prx.lifecycle.*']) });
    await installFixture(ws, 'ok', {
      as: 'topic-one',
      toml: manifest('topic-one', ['prx.lifecycle.agent_end']),
    });
    await installFixture(ws, 'ok', { as: 'prefix', toml: manifest('prefix', ['prx.*']) });
    await installFixture(ws, 'ok', { as: 'star', toml: manifest('star', ['*']) });
    await installFixture(ws, 'ok', {
      as: 'union',
      toml: `${manifest('union', ['agent_end'])}\n[[capabilities]]\ntype = "hook"\nevents = ["error"]\n`,
    });
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    engine.emit('agent_end', AGENT_END);
    engine.emit('error', ERROR);
    await engine.drain();
    const hooksFor = (event: string) =>
      engine
        .runs({ event })
        .map((r) => r.hook)
        .sort();
    expect(hooksFor('tool_call')).toEqual(['exact', 'prefix', 'star', 'topic']);
    expect(hooksFor('agent_end')).toEqual(['prefix', 'star', 'topic', 'topic-one', 'union']);
    expect(hooksFor('error')).toEqual(['prefix', 'star', 'topic', 'union']);
    expect(engine.runs().every((r) => r.outcome === 'ok')).toBe(true);
  });
});

describe('[P-WASM-3] time limit', () => {
  it('[P-WASM-3] a spinning plugin is stopped at its timeout_ms; other plugins and its next event still run', async () => {
    const ws = tempDir();
    await installFixture(ws, 'spin'); // timeout_ms = 300, spins on tool_call, ok on agent_end
    await installFixture(ws, 'ok');
    const engine = await engineFor(ws);
    // Warm up both workers so the timing below is about the calls.
    engine.emit('agent_end', AGENT_END);
    await engine.drain();
    engine.emit('tool_call', TOOL_CALL);
    // The other plugin answers while the spinner spins.
    const ok = await waitFor(
      () => engine.runs({ event: 'tool_call' }).find((r) => r.hook === 'ok'),
      'ok record',
    );
    expect(ok?.outcome).toBe('ok');
    expect(engine.runs({ event: 'tool_call' }).find((r) => r.hook === 'spin')).toBeUndefined();
    await engine.drain();
    const spin = engine.runs({ event: 'tool_call' }).find((r) => r.hook === 'spin')!;
    expect(spin).toMatchObject({ outcome: 'timeout', cause: 'timeout' });
    expect(spin.durationMs).toBeGreaterThanOrEqual(290);
    expect(spin.durationMs).toBeLessThan(2000);
    expect(spin.reason).toMatch(/300 ms.*terminated/);
    // The same plugin's next event gets a fresh worker (the old one was stuck in a wasm loop).
    engine.emit('agent_end', AGENT_END);
    await engine.drain();
    const next = engine.runs({ event: 'agent_end' })[0]!;
    expect(next).toMatchObject({ hook: 'spin', outcome: 'ok' });
    // And it times out again on the next tool_call, still without affecting the other plugin.
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    expect(
      engine
        .runs({ event: 'tool_call', limit: 2 })
        .map((r) => `${r.hook}:${r.outcome}`)
        .sort(),
    ).toEqual(['ok:ok', 'spin:timeout']);
  });

  it('[P-FF-1] emit() returns at once and never throws, whatever the plugins do', async () => {
    const ws = tempDir();
    await installFixture(ws, 'spin');
    await installFixture(ws, 'trap');
    await installFixture(ws, 'err');
    mkdirSync(path.join(ws, 'plugins', 'broken'));
    writeFileSync(path.join(ws, 'plugins', 'broken', 'plugin.toml'), manifest('broken', ['*']));
    writeFileSync(
      path.join(ws, 'plugins', 'broken', 'plugin.wasm'),
      new Uint8Array([0, 0x61, 0x73, 0x6d, 0x0d, 0, 1, 0, 9]),
    );
    const engine = await engineFor(ws);
    for (let i = 0; i < 20; i++) expect(() => engine.emit('tool_call', TOOL_CALL)).not.toThrow();
    // emit() returned without waiting for any plugin: not one run has ended yet.
    expect(engine.runs()).toEqual([]);
    await engine.drain();
    // Calls queued behind the hung one are released when it times out (dropped as busy), not each
    // run to its own timeout: fewer than half of them time out (the timings are the benchmark's).
    const spin = engine.runs().filter((r) => r.hook === 'spin');
    expect(spin).toHaveLength(20);
    expect(spin.filter((r) => r.outcome === 'timeout').length).toBeGreaterThanOrEqual(1);
    expect(spin.filter((r) => r.outcome === 'timeout').length).toBeLessThan(10);
    for (const r of spin.filter((x) => x.outcome !== 'timeout'))
      expect(r).toMatchObject({ outcome: 'dropped', cause: 'plugin_busy' });
    const outcomes = new Set(engine.runs().map((r) => `${r.hook}:${r.outcome}`));
    expect(outcomes).toContain('spin:timeout');
    expect(outcomes).toContain('trap:error');
    expect(outcomes).toContain('err:error');
    // The invalid component is reported when it is loaded, and each run says why it did not happen.
    expect(outcomes).toContain('broken:spawn_error');
    expect(engine.runs().find((r) => r.hook === 'broken')!.reason).toMatch(/jco cannot transpile/);
  });
});

describe('[P-WASM-3] memory limit', () => {
  it('[P-WASM-3] a memory hog cannot grow past max_memory_mb: memory.grow is refused at the cap', async () => {
    const ws = tempDir();
    await installFixture(ws, 'memhog'); // max_memory_mb = 8
    await installFixture(ws, 'memhog', {
      as: 'memhog-2',
      toml: `${manifest('memhog-2', ['tool_call'])}\n[resources]\nmax_memory_mb = 3\n`,
    });
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const runs = byHook(engine.runs());
    // 8 MiB = 128 pages of 64 KiB; 3 MiB = 48 pages.
    expect(runs.memhog).toMatchObject({
      outcome: 'error',
      cause: 'plugin_error',
      reason: 'memory.grow refused at 128 pages',
    });
    expect(runs['memhog-2']).toMatchObject({ outcome: 'error', reason: 'memory.grow refused at 48 pages' });
  });

  it('[P-WASM-3] the default cap is 64 MiB', async () => {
    const ws = tempDir();
    await installFixture(ws, 'memhog', { toml: manifest('memhog', ['tool_call']) });
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ hook: 'memhog', reason: 'memory.grow refused at 1024 pages' });
  });
});

describe('[P-WASM-3] no filesystem and no network unless granted', () => {
  const read = (p: string) => ({ PATH: p, PATH_LEN: String(Buffer.byteLength(p)) });

  it('[P-WASM-3] without grants the guest has no preopened directory: it cannot read any file', async () => {
    const ws = tempDir();
    const outside = path.join(ws, 'outside.txt');
    writeFileSync(outside, 'outside secret');
    await installFixture(ws, 'fsread', {
      as: 'rel',
      toml: manifest('rel', ['tool_call']),
      vars: read('plugin.toml'),
    });
    await installFixture(ws, 'fsread', {
      as: 'abs',
      toml: manifest('abs', ['tool_call']),
      vars: read(outside),
    });
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const runs = byHook(engine.runs());
    expect(runs.rel).toMatchObject({ outcome: 'error', reason: 'no preopened directories' });
    expect(runs.abs).toMatchObject({ outcome: 'error', reason: 'no preopened directories' });
  });

  it('[P-WASM-3] a granted directory is readable, and nothing outside it: not .., not absolute paths, not symlinks', async () => {
    const ws = tempDir();
    const outside = path.join(ws, 'outside.txt');
    writeFileSync(outside, 'outside secret');
    const grant = '\n[permissions]\nfilesystem = ["data"]\n';
    const files = { 'data/hello.txt': 'hello from data', 'secret.txt': 'plugin secret' };
    const cases = {
      inside: 'hello.txt',
      parent: '../secret.txt',
      absolute: outside,
      'link-abs': 'link-abs.txt',
      'link-rel': 'link-rel.txt',
    };
    for (const [name, p] of Object.entries(cases)) {
      const dir = await installFixture(ws, 'fsread', {
        as: name,
        toml: manifest(name, ['tool_call'], grant),
        vars: read(p),
        files,
      });
      symlinkSync(outside, path.join(dir, 'data', 'link-abs.txt'));
      symlinkSync('../../../outside.txt', path.join(dir, 'data', 'link-rel.txt'));
    }
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const runs = byHook(engine.runs());
    // The fixture returns err("read: <content>") to show what it read.
    expect(runs.inside).toMatchObject({ reason: 'read: hello from data' });
    // wasi:filesystem error-code 31 = not-permitted
    for (const name of ['parent', 'absolute', 'link-abs', 'link-rel'])
      expect(runs[name], name).toMatchObject({ outcome: 'error', reason: 'open-at failed: error-code 31' });
    expect(JSON.stringify(engine.runs())).not.toMatch(/secret/);
  });

  it('[P-WASM-3] wasi:sockets is denied without [permissions] network = true, and works with it', async () => {
    const ws = tempDir();
    await installFixture(ws, 'net');
    await installFixture(ws, 'net', {
      as: 'net-granted',
      toml: `${manifest('net-granted', ['tool_call'])}\n[permissions]\nnetwork = true\n`,
    });
    const engine = await engineFor(ws);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const runs = byHook(engine.runs());
    expect(runs.net).toMatchObject({ outcome: 'error', cause: 'trap' });
    expect(runs.net!.reason).toMatch(/wasi:sockets is not granted/);
    expect(runs['net-granted']).toMatchObject({ outcome: 'ok' });
  });
});

describe('[P-WASM-2] load problems are reported and skipped; the others load', () => {
  it('[P-WASM-2] a bad manifest is logged with file and field; the good plugin still runs', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    await installFixture(ws, 'ok', {
      as: 'bad',
      toml: `${manifest('bad', ['tool_call'])}\n[resources]\nmax_memory_mb = "lots"\n`,
    });
    const lines: string[] = [];
    const engine = await engineFor(ws, lines);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    expect(engine.runs().map((r) => r.hook)).toEqual(['ok']);
    const bad = path.join(ws, 'plugins', 'bad', 'plugin.toml');
    expect(lines.find((l) => l.startsWith('warn:') && l.includes(bad))).toMatch(
      /\$\.resources\.max_memory_mb: /,
    );
  });

  it('[P-WASM-3] a component that cannot load gives spawn_error records and one log line', async () => {
    const ws = tempDir();
    // Initial memory 200 pages (12.5 MiB) with a cap of 8 MiB: refused before it runs.
    const dir = await installFixture(ws, 'ok', {
      as: 'big',
      toml: `${manifest('big', ['tool_call'])}\n[resources]\nmax_memory_mb = 8\n`,
    });
    const { buildComponentFromWat } = await import('../src/runners/wasm/component-build.ts');
    const { fixtureWat } = await import('./fixtures/plugins/fixtures.ts');
    const wat = fixtureWat('ok').replace('(memory (export "memory") 1)', '(memory (export "memory") 200)');
    writeFileSync(path.join(dir, 'plugin.wasm'), await buildComponentFromWat(wat));
    const lines: string[] = [];
    const engine = await engineFor(ws, lines);
    engine.emit('tool_call', TOOL_CALL);
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    const runs = engine.runs();
    expect(runs.map((r) => r.outcome)).toEqual(['spawn_error', 'spawn_error']);
    expect(runs[0]!.cause).toBe('plugin_load');
    expect(runs[0]!.reason).toMatch(/200 pages .* over the limit of 128 pages/);
    expect(lines.filter((l) => l.includes('cannot load'))).toHaveLength(1);
  });

  it('[P-WASM-1] plugins: false turns plugins off', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    const engine = await openEngine({ workspace: ws, watch: false, plugins: false });
    engine.emit('tool_call', TOOL_CALL);
    await engine.drain();
    expect(engine.runs()).toEqual([]);
  });
});

describe('[P-WASM-3] closing', () => {
  it('[P-WASM-3] close() stops the workers, and waits for a running call no longer than its timeout', async () => {
    const ws = tempDir();
    await installFixture(ws, 'spin');
    const engine = await createHookEngine({ workspace: ws, watch: false });
    engine.emit('agent_end', AGENT_END);
    await engine.drain();
    engine.emit('tool_call', TOOL_CALL);
    await new Promise((r) => setTimeout(r, 50));
    await engine.close();
    expect(engine.runs({ event: 'tool_call' })[0]).toMatchObject({ outcome: 'timeout' });
    engine.emit('tool_call', TOOL_CALL); // after close: dropped, no throw
  });
});

describe('[P-WASM-3] output of a plugin', () => {
  it('[P-WASM-3] what a plugin writes to stderr becomes the stderrTail of its failed records', async () => {
    const ws = tempDir();
    await installFixture(ws, 'stdio');
    const engine = await engineFor(ws);
    // The stderr text travels through preview2-shim's I/O thread, so it may trail the answer.
    const rec = await waitFor(async () => {
      engine.emit('tool_call', TOOL_CALL);
      await engine.drain();
      return engine.runs().find((r) => r.stderrTail !== undefined);
    }, 'a record with stderrTail');
    expect(rec).toMatchObject({ hook: 'stdio', outcome: 'error', reason: 'wrote to stdout and stderr' });
    expect(rec?.stderrTail).toContain('PLUGIN-STDERR-MARK');
    expect(JSON.stringify(engine.runs())).not.toContain('PLUGIN-STDOUT-MARK');
  });

  it('[P-WASM-3] nothing a plugin prints reaches the host process stdout or stderr (hookwerk emit --wait --json)', async () => {
    const ws = tempDir();
    await installFixture(ws, 'stdio');
    const bin = fileURLToPath(new URL('../bin/hookwerk.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [
        bin,
        'emit',
        'tool_call',
        '--workspace',
        ws,
        '--wait',
        '--json',
        '--payload',
        JSON.stringify(TOOL_CALL),
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('PLUGIN-STDOUT-MARK');
    expect(r.stderr).not.toMatch(/PLUGIN-(STDOUT|STDERR)-MARK/);
    const records = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      hook: 'stdio',
      outcome: 'error',
      reason: 'wrote to stdout and stderr',
    });
  });

  it('[P-WASM-1] an engine that is never closed does not keep the process alive', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok');
    const engineUrl = new URL('../dist/index.js', import.meta.url).href;
    const script = `
      const { createHookEngine } = await import(${JSON.stringify(engineUrl)});
      const e = await createHookEngine({ workspace: ${JSON.stringify(ws)}, logger: { info() {}, warn() {}, error() {} } });
      e.emit('tool_call', ${JSON.stringify(TOOL_CALL)});
      await e.drain();
      console.log(e.runs().map((r) => r.hook + ':' + r.outcome).join(','));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.stdout.trim()).toBe('ok:ok');
    expect(r.status).toBe(0);
  });
});
