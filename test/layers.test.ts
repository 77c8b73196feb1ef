/**
 * Issue 19: the folders of src/ form layers, and a folder imports only from its own layer or
 * those below it — no loops, no arrow up. Read from the real sources (every static import and
 * re-export of a relative path), so a change that breaks the layering fails here, not in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';

const SRC = path.join(REPO, 'src');

/** Bottom first. `(root)` is `src/*.ts`: the engine façade and the package entry. */
const LAYERS: readonly (readonly string[])[] = [
  // Ground helpers: errors, files, JSON text, the shell-word reader.
  ['core'],
  // The action view: one reading of a tool call (commands, paths, hosts) every rule shares.
  ['action'],
  // The shipped guards [G-LIB-1]: pure checks over the action view.
  ['guards'],
  // `rules`: CEL conditions, their variables and bounds (SPEC §14.4).
  ['bus', 'sandbox', 'consent', 'events', 'rules'],
  ['records'],
  // The hook model: what every source produces and every dispatcher reads.
  ['registry'],
  ['runners'],
  // The two gate semantics (one after another; all at once, merged), and observe scheduling.
  ['dispatch'],
  // Loading helpers every dialect shares (settings walking, plugins, watching).
  ['sources'],
  // One folder per dialect (its sources, events, answers, how it runs a hook), and their table.
  ['dialects'],
  ['nats'],
  ['(root)'],
  // The agent runtimes' adapters (`hookwerk/ai-sdk`, …): subpaths over the engine; the entry never imports them.
  ['adapters'],
  // `hookwerk hook`, its daemon and `hookwerk install`: shells over the engine for the agents;
  // the MCP gate and proxy (`hookwerk/mcp`).
  ['hook', 'install', 'mcp'],
  // `hookwerk test` [G-TEST-1]: cases run through `hookwerk hook`'s own call.
  ['policy-test'],
  // Signed policy bundles and their rollout [F-BUN-1, F-BUN-2]: they run a bundle's tests.
  ['fleet'],
  ['server'],
  ['cli'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? (parts[0] ?? '(root)') : '(root)';
}

interface Arrow {
  from: string;
  to: string;
  file: string;
  target: string;
}

function arrows(): Arrow[] {
  const out: Arrow[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/g)) {
      const target = path.normalize(path.join(path.dirname(file), m[1] ?? ''));
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to)
        out.push({ from, to, file: path.relative(SRC, file), target: path.relative(SRC, target) });
    }
  }
  return out;
}

const layerOf = (folder: string): number => LAYERS.findIndex((layer) => layer.includes(folder));

describe('[issue 19] the folders of src/ are layers', () => {
  const all = arrows();

  it('every folder of src/ has a layer', () => {
    const folders = new Set(sourceFiles(SRC).map(folderOf));
    expect([...folders].filter((f) => layerOf(f) < 0)).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });

  it('no folder imports from a layer above its own (so there are no loops either)', () => {
    const up = all.filter((a) => layerOf(a.to) > layerOf(a.from));
    expect(up.map((a) => `${a.file} → ${a.target}`)).toEqual([]);
  });

  it('folders of one layer do not import each other', () => {
    const sideways = all.filter((a) => layerOf(a.to) === layerOf(a.from));
    expect(sideways.map((a) => `${a.file} → ${a.target}`)).toEqual([]);
  });

  it('the hook model knows no runner, dialect or source: it imports only from below the registry', () => {
    const model = ['registry/hook-definition.ts', 'registry/registry.ts', 'registry/matcher.ts'];
    const fromModel = all.filter((a) => model.includes(a.file));
    for (const a of fromModel)
      expect(layerOf(a.to), `${a.file} → ${a.target}`).toBeLessThan(layerOf('registry'));
  });
});
