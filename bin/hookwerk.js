#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (built by `npm install` through the prepare script).
// `hookwerk hook` is what agents call on every tool call [R-HOOK-4]: it goes straight to its own
// small entry, bundled into one file (scripts/bundle-hook.js), without loading the rest of the CLI.
import module from 'node:module';

const isHook = process.argv[2] === 'hook';
// [G-PERF-1] Node 22.1+ keeps V8's code cache of the hook's ES files (hook-bundle.js and its parts)
// under ~/.hookwerk/cache; the cold bundle keeps its own on every Node (src/hook/cold-load.ts).
if (isHook && typeof module.enableCompileCache === 'function' && process.env.HOME)
  module.enableCompileCache(`${process.env.HOME}/.hookwerk/cache/node-compile`);
import(isHook ? '../dist/cli/hook-bundle.js' : '../dist/cli/main.js').then(
  async (cli) => {
    process.exitCode = isHook ? await cli.hookMain(process.argv.slice(3)) : await cli.main(process.argv);
  },
  (err) => {
    const missing = err?.code === 'ERR_MODULE_NOT_FOUND';
    process.stderr.write(
      missing ? 'hookwerk: not built yet; run `npm run build`\n' : `hookwerk: ${err?.message}\n`,
    );
    process.exitCode = 1;
  },
);
