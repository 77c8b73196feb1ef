#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (built by `npm install` through the prepare script).
import('../dist/cli/main.js').then(
  async ({ main }) => {
    process.exitCode = await main(process.argv);
  },
  (err) => {
    const missing = err?.code === 'ERR_MODULE_NOT_FOUND';
    process.stderr.write(
      missing ? 'hookwerk: not built yet; run `npm run build`\n' : `hookwerk: ${err?.message}\n`,
    );
    process.exitCode = 1;
  },
);
