/**
 * Issue 19: the folders of src/ form layers, and a folder imports only from its own layer or
 * those below it — no loops, no arrow up. Read from the real sources (every static import and
 * re-export of a relative path), so a change that breaks the layering fails here, not in review.
 * Issue 31: the same inside `src/dialects/` (each dialect folder builds on `agent/`, never on a
 * sibling), and no import loop between any two folders nor cycle between files of src/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** Relative imports of `text`: static imports and re-exports, and `import('…')` (a lazy load is still an edge). */
function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/g))
    out.push(m[1] ?? '');
  for (const m of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) out.push(m[1] ?? '');
  return out;
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

/**
 * Issue 31: the inside of `src/dialects/`, bottom first. `surfaces` is which files each dialect
 * reads (consent covers them all [C-SRC-4], so every loader needs the whole list); `agent` the
 * base every dialect folder builds on (the contracts `gate-dialect.ts` and `hook-agent.ts`, the
 * shared gate, Claude Code's answer and event vocabulary every agent maps to [R-MAP-1]); then the
 * dialect folders; then the tables (the files of `dialects/` itself), which alone know them all.
 */
const DIALECT_LAYERS: readonly (readonly string[])[] = [
  ['surfaces'],
  ['agent'],
  ['claude', 'gemini', 'codex', 'copilot', 'cursor', 'lurus', 'prx', 'policy'],
  ['(tables)'],
];
const DIALECTS = path.join(SRC, 'dialects');

/** `claude` for `src/dialects/claude/x.ts`; `(tables)` for `src/dialects/x.ts`; undefined outside. */
function dialectFolderOf(file: string): string | undefined {
  const rel = path.relative(DIALECTS, file);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : '(tables)';
}

/** Every file of src/ and the files of src/ it imports (resolved; only those that exist). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .map((spec) => path.normalize(path.join(path.dirname(file), spec)))
      .filter((target) => target.endsWith('.ts') && existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected parts of more than one node (Tarjan): each is a loop. */
function loops(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      part.push(w);
    }
    if (part.length > 1) found.push(part.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}

describe('[issue 31] the inside of src/dialects/ is layered, and src/ has no loops', () => {
  const graph = importGraph();
  const rel = (f: string) => path.relative(SRC, f);
  const dialectArrows = [...graph].flatMap(([file, targets]) =>
    targets.flatMap((target) => {
      const from = dialectFolderOf(file);
      const to = dialectFolderOf(target);
      return from !== undefined && to !== undefined && from !== to
        ? [{ from, to, text: `${rel(file)} → ${rel(target)}` }]
        : [];
    }),
  );
  const dialectLayerOf = (folder: string): number =>
    DIALECT_LAYERS.findIndex((layer) => layer.includes(folder));

  it('the graph walk sees the dialect tables import every dialect folder (so the rules below bite)', () => {
    const fromTables = new Set(dialectArrows.filter((a) => a.from === '(tables)').map((a) => a.to));
    const dialects = DIALECT_LAYERS[2] ?? [];
    expect(dialects.filter((d) => !fromTables.has(d))).toEqual([]);
  });

  it('every folder of src/dialects/ has an inner layer', () => {
    const folders = new Set([...graph.keys()].flatMap((f) => dialectFolderOf(f) ?? []));
    expect([...folders].filter((f) => dialectLayerOf(f) < 0)).toEqual([]);
  });

  it('sibling dialect folders do not import each other (what they share is in agent/)', () => {
    const sideways = dialectArrows.filter((a) => dialectLayerOf(a.from) === dialectLayerOf(a.to));
    expect(sideways.map((a) => a.text)).toEqual([]);
  });

  it('agent/ (the base) imports no dialect folder, and no dialect folder imports the tables', () => {
    const up = dialectArrows.filter((a) => dialectLayerOf(a.to) > dialectLayerOf(a.from));
    expect(up.map((a) => a.text)).toEqual([]);
  });

  it('no import loop between any two folders of src/ (nested folders count: runners/wasm, dialects/claude)', () => {
    const folderEdges = new Map<string, Set<string>>();
    for (const [file, targets] of graph)
      for (const target of targets) {
        const from = path.dirname(rel(file));
        const to = path.dirname(rel(target));
        if (from === to) continue;
        const set = folderEdges.get(from) ?? new Set<string>();
        set.add(to);
        folderEdges.set(from, set);
      }
    expect(loops(folderEdges.keys(), (f) => folderEdges.get(f) ?? [])).toEqual([]);
  });

  it('no cycle between files of src/ (type-only imports and lazy loads count too)', () => {
    expect(loops(graph.keys(), (f) => graph.get(f) ?? []).map((part) => part.map(rel))).toEqual([]);
  });
});
