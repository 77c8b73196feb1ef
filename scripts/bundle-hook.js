// [R-HOOK-4] `hookwerk hook` starts a process for every tool call of every agent: its modules are
// bundled into one file (dist/cli/hook-bundle.js, what bin/hookwerk.js loads for `hook`), since
// Node pays ~0.6 ms per ES module file here and the hook's graph is some 25 of them (~15 ms of a
// 90 ms call). What it loads only on demand (the engine, the daemon client, the journal) stays in
// the separate files next to it, imported by the same relative paths.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const LAZY = [
  '/hook/cold-decider.js',
  '/hook/daemon-client.js',
  '/hook/daemon-autostart.js',
  // [T-SELF-4] Only a call that finds a daemon socket checks its peer; only a refusal is said.
  '/hook/daemon-peer.js',
  '/hook/daemon-refusal.js',
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
    outDir: path.join(root, 'dist', 'cli'),
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    target: 'node20',
    rollupOptions: {
      external: (id) =>
        id.startsWith('node:') || LAZY.some((lazy) => id.replaceAll('\\', '/').endsWith(lazy)),
      output: { format: 'es', entryFileNames: 'hook-bundle.js' },
    },
  },
});
