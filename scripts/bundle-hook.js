// [R-HOOK-4][G-PERF-1] `hookwerk hook` starts a process for every tool call of every agent, and
// Node pays ~0.6 ms per module file here. Two bundles, made from dist/ after tsc:
// - dist/cli/hook-bundle.js: the hook's own entry (~25 modules in one ES file), what bin/hookwerk.js
//   loads for `hook`. What it loads only on demand (the daemon client, the journal…) stays in the
//   separate files next to it, imported by the same relative paths.
// - dist/cli/cold-bundle.cjs: the cold decider with the engine and every package it reaches (zod,
//   @bufbuild/cel, undici…; ~700 module files) in one minified CommonJS script (its entry
//   src/hook/cold-bundle-entry.ts sets its zod for a one-shot process first), which
//   src/hook/cold-load.ts runs with V8's code cache. Its own dynamic imports stay lazy inside it.
// - dist/cli/hook-snapshot.cjs: [G-PERF-1] the whole `hookwerk hook` with the cold decider, the
//   program of the startup snapshot (src/cli/snapshot-entry.ts, built into a blob by
//   src/hook/snapshot-blob.ts). A snapshot holds no native handle: prom-client (its Pushgateway
//   loads node:http, whose parser binding cannot be serialized) is not in it, nor in the cold
//   bundle: src/records/metrics.ts requires it only when a registry is asked for.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'dist', 'cli');
/** The CEL loader's synchronous loads, which the bundle must hold (`require`s the bundler follows). */
const CEL_LOADS = ["load('@bufbuild/cel')", "load('@bufbuild/cel/ext')"];

/**
 * Every module keeps the `import.meta.url` of its own file in dist/ (files it finds beside
 * itself: the launcher, bin/hookwerk.js), and the CEL loader's `createRequire` becomes the
 * bundle's `require`, so that @bufbuild/cel is in the bundle and still evaluated only when a rule
 * is compiled [G-CEL-1].
 */
function keepOwnPlaces() {
  return {
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
}

/**
 * The modules hook-bundle.js imports only on demand (the daemon client, the journal, each agent's
 * reader of our replies [G-TEST-1]…) become files of their own beside it, hook-*.js, with the
 * packages they reach (zod, jsonc-parser) bundled in: a call that records its runs loads a few
 * files, not the ~120 of zod's ES build. The modules' cold decider stays where tsc put it: the
 * loader's fallback when the cold bundle is missing.
 */
const FALLBACK = '/hook/cold-decider.js';

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  plugins: [keepOwnPlaces()],
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: path.join(root, 'dist', 'cli', 'hook.js'),
    outDir,
    emptyOutDir: false,
    minify: true,
    sourcemap: false,
    target: 'node20',
    rollupOptions: {
      external: (id) => id.startsWith('node:') || id.replaceAll('\\', '/').endsWith(FALLBACK),
      // keepNames: an error's name (`new.target.name`) is what it was in the modules.
      output: {
        format: 'es',
        entryFileNames: 'hook-bundle.js',
        chunkFileNames: 'hook-[name].js',
        keepNames: true,
      },
    },
  },
});

/**
 * One CommonJS script of `entry` (below dist/) with every package in it, as `file` in outDir:
 * CommonJS builds of the packages that have both, since the bundle is a script.
 */
function buildScript(entry, file, plugins) {
  return build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins,
    ssr: { noExternal: true, target: 'node' },
    resolve: { conditions: ['node', 'require', 'default'] },
    build: {
      ssr: path.join(root, 'dist', ...entry),
      outDir,
      emptyOutDir: false,
      minify: true,
      sourcemap: false,
      target: 'node20',
      rollupOptions: {
        output: { format: 'cjs', codeSplitting: false, entryFileNames: file, keepNames: true },
      },
    },
  });
}

await buildScript(['hook', 'cold-bundle-entry.js'], 'cold-bundle.cjs', [keepOwnPlaces()]);

await buildScript(['cli', 'snapshot-entry.js'], 'hook-snapshot.cjs', [keepOwnPlaces()]);
const snapshotFile = path.join(outDir, 'hook-snapshot.cjs');
const snapshotText = readFileSync(snapshotFile, 'utf8');
if (!snapshotText.includes('setDeserializeMainFunction'))
  throw new Error('bundle-hook: hook-snapshot.cjs does not set the snapshot main function');
// prom-client is required at run time, never bundled: its Pushgateway cannot be in a snapshot.
if (snapshotText.includes('Pushgateway'))
  throw new Error(
    'bundle-hook: prom-client got into hook-snapshot.cjs (records/metrics.ts requires it lazily)',
  );

// The bundle must be what cold-load.ts expects: one file exporting the decider.
const coldFile = path.join(outDir, 'cold-bundle.cjs');
const made = readFileSync(coldFile, 'utf8');
if (!made.includes('coldDecider')) throw new Error('bundle-hook: cold-bundle.cjs exports no coldDecider');
// ASCII only (every other character as its \u escape, which means the same character in a string,
// template, regular expression or name): Node then reads it as a one-byte string, ~4× faster than
// decoding UTF-8, and V8 keeps half the bytes. An escape's raw text differs: no String.raw
// template may hold one; and a character right after a backslash would change meaning.
const rawTemplates = made.match(/String\.raw`(?:[^`\\]|\\.)*`/gs) ?? [];
if (rawTemplates.some((t) => /[^\x00-\x7f]/.test(t)) || /\\[^\x00-\x7f]/.test(made))
  throw new Error('bundle-hook: cold-bundle.cjs cannot be written as ASCII');
const ascii = made.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(coldFile, ascii);
