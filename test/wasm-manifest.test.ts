/**
 * Plugin manifests and admission [P-WASM-1, P-WASM-2, P-WASM-3]: plugin.toml validation (errors
 * name the file and the field), admission limits, paths and symlinks, and the memory cap as a
 * rewrite of the core module's memory section.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../src/core/issues.ts';
import { buildComponentFromWat, HOOK_WIT } from '../src/runners/wasm/component-build.ts';
import { capComponentMemory, capModuleMemory, definedMemories } from '../src/runners/wasm/wasm-memory.ts';
import { loadPlugin, PLUGIN_LIMITS, patternProblem } from '../src/sources/plugin-manifest.ts';
import { patternsMatch } from '../src/sources/plugin-patterns.ts';
import { scanPlugins } from '../src/sources/plugin-scan.ts';
import { fixtureWasm, installFixture, manifest } from './fixtures/plugins/fixtures.ts';
import { tempDir } from './helpers.ts';

/** A plugin folder with the given manifest text and the `ok` component. */
async function plugin(toml: string, name = 'p'): Promise<string> {
  const ws = tempDir();
  return installFixture(ws, 'ok', { as: name, toml });
}

function issuesOf(dir: string): string[] {
  const r = loadPlugin(dir);
  return r.ok ? [] : r.issues.map(formatIssue);
}

describe('[P-WASM-2] plugin.toml', () => {
  it('[P-WASM-2] a minimal manifest gets the defaults: plugin.wasm, 64 MiB, 30 000 ms, no grants', async () => {
    const dir = await plugin(manifest('p', ['tool_call']));
    const r = loadPlugin(dir);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plugin).toMatchObject({
      name: 'p',
      version: '0.1.0',
      patterns: ['tool_call'],
      maxMemoryMb: 64,
      timeoutMs: 30_000,
      filesystem: [],
      network: false,
      manifestFile: path.join(dir, 'plugin.toml'),
    });
    expect(r.plugin.wasmSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('[P-WASM-2] the seed example manifest (two capability blocks) loads; the union of patterns counts', async () => {
    const dir = await plugin(
      readFileSync(new URL('../examples/plugins/audit-logger/plugin.toml', import.meta.url), 'utf8'),
    );
    const r = loadPlugin(dir);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plugin.patterns).toEqual(['agent_start', 'agent_end', 'error', 'prx.lifecycle.*']);
    expect(r.plugin.maxMemoryMb).toBe(16);
    expect(r.plugin.timeoutMs).toBe(1000);
  });

  it('[P-WASM-2] errors name the file and the field', async () => {
    const dir = await plugin(
      [
        '[plugin]',
        'name = "bad name!"',
        'version = "1"',
        'description = "x"',
        'colour = "red"',
        '[[capabilities]]',
        'type = "tool"',
        'events = ["tool_call", "tool_cal", "prx.*.x", "nats.*"]',
        '[resources]',
        'max_memory_mb = 0',
        'timeout_ms = 1.5',
        '[permissions]',
        'network = "yes"',
        '[extra]',
      ].join('\n'),
    );
    const file = path.join(dir, 'plugin.toml');
    const issues = issuesOf(dir);
    expect(issues).toEqual(
      expect.arrayContaining([
        `${file}: $.plugin.name: name must be 1-64 characters of A-Z a-z 0-9 _ . - (starting with a letter or digit)`,
        `${file}: $.plugin.colour: unknown field "colour"`,
        `${file}: $.capabilities[0].type: type must be "hook" (the only capability hookwerk runs)`,
        `${file}: $.resources.max_memory_mb: max_memory_mb must be at least 1`,
        `${file}: $.resources.timeout_ms: timeout_ms must be a whole number`,
        `${file}: $.extra: unknown table [extra] (known: [plugin], [[capabilities]], [resources], [permissions])`,
      ]),
    );
    expect(issues.find((i) => i.includes('$.permissions.network'))).toBeDefined();
  });

  it('[P-WASM-2] event patterns: unknown names and patterns that match no event are errors at their index', async () => {
    const dir = await plugin(manifest('p', ['tool_call', 'tool_cal', 'prx.*.x', 'nats.*']));
    const file = path.join(dir, 'plugin.toml');
    const issues = issuesOf(dir);
    expect(issues).toHaveLength(3);
    expect(issues[0]).toMatch(`${file}: $.capabilities[0].events[1]: unknown event "tool_cal"`);
    expect(issues[1]).toMatch(`${file}: $.capabilities[0].events[2]: invalid pattern`);
    expect(issues[2]).toMatch(`${file}: $.capabilities[0].events[3]: pattern "nats.*" matches no event`);
  });

  it('[P-WASM-2] missing sections and invalid TOML are reported with their place', async () => {
    const noCaps = await plugin('[plugin]\nname = "p"\nversion = "1"\ndescription = ""\n');
    expect(issuesOf(noCaps)).toEqual([
      `${path.join(noCaps, 'plugin.toml')}: $.capabilities: at least one [[capabilities]] block with type = "hook" is needed`,
    ]);
    const noPlugin = await plugin('[[capabilities]]\ntype = "hook"\n');
    const f = path.join(noPlugin, 'plugin.toml');
    expect(issuesOf(noPlugin)).toEqual([
      `${f}: $.plugin: the [plugin] table is missing`,
      `${f}: $.capabilities[0].events: events is missing`,
    ]);
    const bad = await plugin('[plugin\nname = 1');
    const [issue] = issuesOf(bad);
    expect(issue).toMatch(`${path.join(bad, 'plugin.toml')}: $: invalid TOML: `);
    expect(issue).toMatch(/\(line 1, column \d+\)/);
  });

  it('[P-WASM-2] the max_memory_mb and timeout_ms bounds', async () => {
    const dir = await plugin(
      `${manifest('p', ['*'])}\n[resources]\nmax_memory_mb = 4097\ntimeout_ms = 3600001\n`,
    );
    const issues = issuesOf(dir);
    expect(
      issues.some((i) => i.includes('$.resources.max_memory_mb: max_memory_mb must be at most 4096')),
    ).toBe(true);
    expect(issues.some((i) => i.includes('$.resources.timeout_ms: timeout_ms must be at most 3600000'))).toBe(
      true,
    );
  });

  it('[P-WASM-2] pattern rules in isolation', () => {
    expect(patternProblem('*')).toBeUndefined();
    expect(patternProblem('error')).toBeUndefined();
    expect(patternProblem('prx.lifecycle.*')).toBeUndefined();
    expect(patternProblem('prx.lifecycle.tool_call')).toBeUndefined();
    expect(patternProblem('prx.*')).toBeUndefined();
    expect(patternProblem('prx.lifecycle')).toMatch(/matches no event/);
    expect(patternProblem('tool_*')).toMatch(/invalid pattern/);
    expect(patternsMatch(['prx.lifecycle.*'], 'turn_complete')).toBe(true);
    expect(patternsMatch(['prx.lifecycle.tool_call'], 'tool_call_start')).toBe(false);
    expect(patternsMatch(['tool_call'], 'tool_call_start')).toBe(false);
    expect(patternsMatch(['*'], 'agent_start')).toBe(true);
  });
});

describe('[P-WASM-1] admission: sizes, paths, symlinks, components only', () => {
  it('[P-WASM-1] a manifest over 64 KiB is refused', async () => {
    const dir = await plugin(`${manifest('p', ['*'])}\n# ${'x'.repeat(PLUGIN_LIMITS.maxManifestBytes)}\n`);
    expect(issuesOf(dir)[0]).toMatch(/\$: plugin.toml is \d+ bytes; the limit is 65536/);
  });

  it('[P-WASM-1] a component over 16 MiB is refused', async () => {
    const dir = await plugin(manifest('p', ['*']));
    writeFileSync(path.join(dir, 'plugin.wasm'), new Uint8Array(PLUGIN_LIMITS.maxWasmBytes + 1));
    expect(issuesOf(dir)[0]).toMatch(
      /\$\.plugin\.wasm: plugin\.wasm is 16777217 bytes; the limit is 16777216/,
    );
  });

  it('[P-WASM-1] the wasm key names the component; paths may not leave the plugin folder', async () => {
    const ws = tempDir();
    const dir = await installFixture(ws, 'ok', {
      as: 'p',
      toml: manifest('p', ['*']).replace('description', 'wasm = "build/x.wasm"\ndescription'),
    });
    expect(issuesOf(dir)[0]).toMatch(/\$\.plugin\.wasm: build\/x\.wasm does not exist/);
    mkdirSync(path.join(dir, 'build'));
    writeFileSync(path.join(dir, 'build', 'x.wasm'), await fixtureWasm('ok'));
    expect(issuesOf(dir)).toEqual([]);

    for (const [wasm, why] of [
      ['../ok/plugin.wasm', 'must not contain ".."'],
      ['/etc/passwd', 'must be a path relative to the plugin folder'],
    ]) {
      writeFileSync(
        path.join(dir, 'plugin.toml'),
        manifest('p', ['*']).replace('description', `wasm = "${wasm}"\ndescription`),
      );
      expect(issuesOf(dir)[0]).toContain(why);
    }
  });

  it('[P-WASM-1] a symlink leaving the plugin folder is refused (component, granted directory, plugin folder)', async () => {
    const ws = tempDir();
    const outside = path.join(ws, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'x.wasm'), await fixtureWasm('ok'));
    const dir = await installFixture(ws, 'ok', { as: 'p' });
    symlinkSync(path.join(outside, 'x.wasm'), path.join(dir, 'link.wasm'));
    symlinkSync(outside, path.join(dir, 'data'));
    writeFileSync(
      path.join(dir, 'plugin.toml'),
      `${manifest('p', ['*']).replace('description', 'wasm = "link.wasm"\ndescription')}\n[permissions]\nfilesystem = ["data"]\n`,
    );
    const issues = issuesOf(dir);
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/\$\.plugin\.wasm: link\.wasm is a symlink .* leaves the plugin folder/);
    expect(issues[1]).toMatch(
      /\$\.permissions\.filesystem\[0\]: data is a symlink .* leaves the plugin folder/,
    );
    // A plugin folder that is itself a symlink is not loaded.
    symlinkSync(dir, path.join(ws, 'plugins', 'linked'));
    const scan = scanPlugins(path.join(ws, 'plugins'));
    expect(scan.issues.map(formatIssue).join('\n')).toMatch(/plugins\/linked is a symlink/);
  });

  it('[P-WASM-1] granted filesystem entries must be directories inside the folder', async () => {
    const dir = await plugin(
      `${manifest('p', ['*'])}\n[permissions]\nfilesystem = ["data", "plugin.toml", "nope"]\n`,
    );
    mkdirSync(path.join(dir, 'data'));
    const issues = issuesOf(dir);
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/\$\.permissions\.filesystem\[1\]: plugin\.toml is not a directory/);
    expect(issues[1]).toMatch(/\$\.permissions\.filesystem\[2\]: nope does not exist/);
  });

  it('[P-WASM-1] a core module (not a component) and garbage are refused with a hint', async () => {
    const dir = await plugin(manifest('p', ['*']));
    writeFileSync(path.join(dir, 'plugin.wasm'), new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    expect(issuesOf(dir)[0]).toMatch(/core WebAssembly module, not a component/);
    writeFileSync(path.join(dir, 'plugin.wasm'), 'hello');
    expect(issuesOf(dir)[0]).toMatch(/is not a WebAssembly component/);
  });

  it('[P-WASM-1] a bad plugin is skipped and the others load; duplicate names are refused', async () => {
    const ws = tempDir();
    await installFixture(ws, 'ok', { as: 'a', toml: manifest('same', ['*']) });
    await installFixture(ws, 'ok', { as: 'b', toml: manifest('same', ['*']) });
    await installFixture(ws, 'ok', { as: 'c', toml: 'nope' });
    mkdirSync(path.join(ws, 'plugins', 'empty'));
    writeFileSync(path.join(ws, 'plugins', 'README.md'), 'not a plugin');
    const scan = scanPlugins(path.join(ws, 'plugins'));
    expect(scan.plugins.map((p) => p.name)).toEqual(['same']);
    const lines = scan.issues.map(formatIssue);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /plugins\/b\/plugin\.toml: \$\.plugin\.name: name "same" is already used by .*plugins\/a\/plugin\.toml/,
    );
    expect(lines[1]).toMatch(/plugins\/c\/plugin\.toml: \$: invalid TOML/);
    expect(lines[2]).toMatch(/plugins\/empty\/plugin\.toml: \$: plugin\.toml is missing/);
  });

  it('[P-WASM-1] no plugins folder means no plugins and no issues', () => {
    expect(scanPlugins(path.join(tempDir(), 'plugins'))).toMatchObject({ plugins: [], issues: [] });
  });

  it('[P-WASM-1] wit/hook.wit is the world the build helper uses', () => {
    expect(readFileSync(new URL('../wit/hook.wit', import.meta.url), 'utf8')).toBe(HOOK_WIT);
  });
});

describe('[P-WASM-3] the memory cap is written into the module', () => {
  const wat = (mem: string) =>
    `(module (memory (export "memory") ${mem}) (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))`;
  const core = async (mem: string) => {
    const { parse } = await import('@bytecodealliance/jco-transpile/wasm-tools');
    return parse(wat(mem));
  };

  it('[P-WASM-3] a memory without a maximum gets one; a larger maximum is lowered; a smaller one stays', async () => {
    expect(definedMemories(capModuleMemory(await core('1'), 128))).toEqual([
      { min: 1, max: 128, shared: false },
    ]);
    expect(definedMemories(capModuleMemory(await core('2 65536'), 128))).toEqual([
      { min: 2, max: 128, shared: false },
    ]);
    expect(definedMemories(capModuleMemory(await core('1 10'), 128))).toEqual([
      { min: 1, max: 10, shared: false },
    ]);
    const big = await core('200');
    expect(() => capModuleMemory(big, 128)).toThrow(/starts at 200 pages .* over the limit of 128 pages/);
  });

  it('[P-WASM-3] the patched module really refuses to grow past the cap (V8 enforces the declared maximum)', async () => {
    const patched = capModuleMemory(await core('1'), 16);
    const { instance } = await (
      globalThis as unknown as {
        WebAssembly: {
          instantiate(
            b: Uint8Array,
          ): Promise<{ instance: { exports: Record<string, (n: number) => number> } }>;
        };
      }
    ).WebAssembly.instantiate(patched);
    expect(instance.exports.grow!(15)).toBe(1);
    expect(instance.exports.grow!(1)).toBe(-1);
  });

  it('[P-WASM-3] several memories share the cap', async () => {
    const a = await core('1');
    const b = await core('1 1000');
    const { cores, memories, pagesEach } = capComponentMemory({ 'a.wasm': a, 'b.wasm': b }, 100);
    expect(memories).toBe(2);
    expect(pagesEach).toBe(50);
    expect(definedMemories(cores['a.wasm']!)[0]!.max).toBe(50);
    expect(definedMemories(cores['b.wasm']!)[0]!.max).toBe(50);
  });

  it('[P-WASM-3] the built component still works after its module was capped (see wasm-plugins tests)', async () => {
    const c = await buildComponentFromWat(
      readFileSync(new URL('./fixtures/plugins/ok/plugin.wat', import.meta.url), 'utf8'),
    );
    expect(c.subarray(0, 8)).toEqual(new Uint8Array([0, 0x61, 0x73, 0x6d, 0x0d, 0, 1, 0]));
  });
});
