#!/usr/bin/env node
// Builds every example plugin: examples/plugins/<name>/plugin.wat -> plugin.wasm (a WebAssembly
// component of the `hook` world in wit/hook.wit). In-process, with jco-transpile's wasm-tools:
// parse (WAT -> core module) -> componentEmbed (attach the WIT) -> componentNew (wrap as a component).
//
//   node examples/plugins/build.js            # all examples
//   node examples/plugins/build.js audit-logger
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { componentEmbed, componentNew, parse } from '@bytecodealliance/jco-transpile/wasm-tools';

const here = path.dirname(fileURLToPath(import.meta.url));
const witSource = readFileSync(path.join(here, '..', '..', 'wit', 'hook.wit'), 'utf8');
const wanted = process.argv.slice(2);
const names =
  wanted.length > 0 ? wanted : readdirSync(here).filter((n) => existsSync(path.join(here, n, 'plugin.wat')));

for (const name of names) {
  const dir = path.join(here, name);
  const t0 = performance.now();
  const core = await parse(readFileSync(path.join(dir, 'plugin.wat'), 'utf8'));
  const embedded = await componentEmbed({ binary: core, witSource, world: 'hook' });
  const component = await componentNew(embedded);
  writeFileSync(path.join(dir, 'plugin.wasm'), component);
  const ms = (performance.now() - t0).toFixed(0);
  console.log(
    `${path.relative(process.cwd(), path.join(dir, 'plugin.wasm'))}: ${component.length} bytes (${ms} ms)`,
  );
}
