// [R-HOOK-4][G-PERF-1] `hookwerk hook` starts a process for every tool call of every agent, and
// Node pays ~0.6 ms per module file here. Two bundles, made from dist/ after tsc:
// - dist/cli/hook-bundle.js: the hook's own entry (~25 modules in one ES file), what bin/hookwerk.js
//   loads for `hook`. What it loads only on demand (the daemon client, the journal…) stays in the
//   separate files next to it, imported by the same relative paths.
// - dist/cli/cold-bundle.cjs: the cold decider with the engine and every package it reaches (zod,
//   @bufbuild/cel, undici…; ~700 module files) in one minified CommonJS script, which
//   src/hook/cold-load.ts runs with V8's code cache. Its own dynamic imports stay lazy inside it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'dist', 'cli');
const LAZY = [
  '/hook/cold-decider.js',
  '/hook/daemon-client.js',
  '/hook/daemon-autostart.js',
  '/hook/closed-guard-scan.js',
  '/hook/daily-warnings.js',
  '/records/journal-append.js',
  '/records/journal-segments.js',
  // [G-TEST-1] Each agent's reader of our replies: only a call whose runs are recorded reads one.
  '/dialects/claude/reply-verdict.js',
  '/dialects/codex/reply-verdict.js',
  '/dialects/copilot/reply-verdict.js',
  '/dialects/cursor/reply-verdict.js',
  '/dialects/gemini/reply-verdict.js',
];

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    ssr: path.join(root, 'dist', 'cli', 'hook.js'),
    outDir,
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    target: 'node20',
    rollupOptions: {
      external: (id) =>
        id.startsWith('node:') || LAZY.some((lazy) => id.replaceAll('\\', '/').endsWith(lazy)),
      output: { format: 'es', entryFileNames: 'hook-bundle.js', chunkFileNames: 'hook-[name].js' },
    },
  },
});

/** The CEL loader's synchronous loads, which the bundle must hold (`require`s the bundler follows). */
const CEL_LOADS = ["load('@bufbuild/cel')", "load('@bufbuild/cel/ext')"];

/**
 * Every module keeps the `import.meta.url` of its own file in dist/ (files it finds beside
 * itself: the launcher, bin/hookwerk.js), and the CEL loader's `createRequire` becomes the
 * bundle's `require`, so that @bufbuild/cel is in the bundle and still evaluated only when a rule
 * is compiled [G-CEL-1].
 */
const keepOwnPlaces = {
  name: 'hookwerk-keep-own-places',
  transform(code, id) {
    const file = id.split('?')[0].replaceAll('\\', '/');
    let out = code;
    if (file.endsWith('/dist/rules/cel-library.js')) {
      for (const load of CEL_LOADS) {
        if (!out.includes(load)) throw new Error(`bundle-hook: ${file} no longer has ${load}`);
        out = out.replace(load, load.replace('load(', 'require('));
      }
    }
    if (out.includes('import.meta.url')) {
      const rel = path.relative(outDir, id.split('?')[0]).replaceAll('\\', '/');
      out = out.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
    }
    return out === code ? null : out;
  },
};

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  plugins: [keepOwnPlaces],
  ssr: { noExternal: true, target: 'node' },
  // CommonJS builds of the packages that have both: the bundle is a script.
  resolve: { conditions: ['node', 'require', 'default'] },
  build: {
    ssr: path.join(root, 'dist', 'hook', 'cold-decider.js'),
    outDir,
    emptyOutDir: false,
    minify: true,
    sourcemap: false,
    target: 'node20',
    rollupOptions: {
      output: { format: 'cjs', codeSplitting: false, entryFileNames: 'cold-bundle.cjs' },
    },
  },
});

// The bundle must be what cold-load.ts expects: one file exporting the decider.
const made = readFileSync(path.join(outDir, 'cold-bundle.cjs'), 'utf8');
if (!made.includes('coldDecider')) throw new Error('bundle-hook: cold-bundle.cjs exports no coldDecider');
