// Runs the benchmarks in sequence and prints one markdown table (also written to
// bench/results/latest.md). `node bench/run.js [emit] [hook-run] [launcher] [bus] [storm] [decide] [wasm] [nats] [mcp] [hook] [guard] [self-protect] [journal]` runs a subset.
// Run through `npm run bench`, which builds dist/ first.
//
// Each benchmark runs in a fresh Node process (`run.js --run-one NAME`): what one leaves behind (a
// grown heap that the next one pays major GCs for, JIT state, forks' copy-on-write pages) must not
// be counted in the next.
import { spawn } from 'node:child_process';
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
  mcp: () => import('./mcp.js'),
  hook: () => import('./hook.js'),
  guard: () => import('./guard.js'),
  'self-protect': () => import('./self-protect.js'),
  journal: () => import('./journal.js'),
};

if (process.argv[2] === '--run-one') {
  const name = process.argv[3] ?? '';
  const load = BENCHMARKS[name];
  if (load === undefined) throw new Error(`unknown benchmark ${name}`);
  const mod = await load();
  const rows = await mod.run();
  process.stdout.write(`${JSON.stringify(rows)}\n`);
  process.exit(0);
}

/** Runs one benchmark in a child process; resolves with its rows (it prints them as its last line). */
function runChild(name) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--run-one', name], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`benchmark ${name} exited with ${signal ?? code}`));
      else {
        try {
          resolve(JSON.parse(last));
        } catch {
          reject(new Error(`benchmark ${name} printed no result rows`));
        }
      }
    });
  });
}

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
    rows.push(...(await runChild(name)));
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
