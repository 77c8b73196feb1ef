// Runs the benchmarks in sequence and prints one markdown table (also written to
// bench/results/latest.md). `node bench/run.js [emit] [hook-run] [launcher] [bus] [storm] [decide] [wasm] [nats]` runs a subset.
// Run through `npm run bench`, which builds dist/ first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { envLine, markdownTable } from './lib.js';

const BENCHMARKS = {
  emit: () => import('./emit.js'),
  'hook-run': () => import('./hook-run.js'),
  launcher: () => import('./launcher.js'),
  bus: () => import('./bus.js'),
  storm: () => import('./storm.js'),
  decide: () => import('./decide.js'),
  wasm: () => import('./wasm.js'),
  nats: () => import('./nats.js'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((n) => !(n in BENCHMARKS));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`,
  );
  process.exit(2);
}
const names = wanted.length > 0 ? wanted : Object.keys(BENCHMARKS);

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const env = envLine();
const loadBefore = load();
process.stderr.write(`${env}\nload average before: ${loadBefore}\n`);

const rows = [];
const timings = [];
const started = performance.now();
let failed = false;
for (const name of names) {
  const t0 = performance.now();
  process.stderr.write(`▶ ${name}\n`);
  try {
    const mod = await BENCHMARKS[name]();
    rows.push(...(await mod.run()));
  } catch (err) {
    failed = true;
    process.stderr.write(`✗ ${name}: ${err?.stack ?? err}\n`);
    rows.push({
      benchmark: name,
      hookwerk: 'error',
      baseline: '—',
      ratio: '—',
      target: '—',
      verdict: 'ERROR',
    });
  }
  const s = (performance.now() - t0) / 1000;
  timings.push(`${name} ${s.toFixed(1)} s`);
  process.stderr.write(`  ${name}: ${s.toFixed(1)} s\n`);
}
const total = (performance.now() - started) / 1000;

const report = [
  `Environment: ${env}`,
  `Load average before / after: ${loadBefore} / ${load()} · run time ${total.toFixed(1)} s (${timings.join(', ')})`,
  '',
  markdownTable(rows),
  '',
].join('\n');

process.stdout.write(`\n${report}`);
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'latest.md'), report);
if (failed) process.exitCode = 1;
